// The rules of a basic plan or supplementary pack (spec §3, §4, §5, §9), checked on every save. Each refusal
// names the field (data.field) so the form shows it there; zone fields are `zones.<index>.commservIds`.
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import {
  ErrorCode, NetworkType, OverageGrade, PlanCycleUnit, PlanOperationMode, PlanRenewalMode, PlanUseUpAction, ProfitShareMethod,
  TariffType, PlanGoodsType, SUPPLEMENTARY_TARIFFS, BASE_TARIFFS, TEST_VALIDITY_DAYS, goodsTypeOfTariff,
  PLAN_APN_MAX, PLAN_ZONE_MAX, PLAN_ZONE_SERVICE_MAX, PLAN_SERVICE_ADDRESS_MAX, PLAN_TEST_SILENT_MONTHS_MAX, PLAN_TEST_QUOTA_KB_DEFAULT, testQuotaMaxKb,
  moneyToFen, toMoneyText, type BodyOf, type plan, type Bilingual,
} from '@lynx/contract';
import type { Executor } from '../../db/client.ts';
import { AppError, FieldError } from '../../platform/errors.ts';
import { operators } from '../account/tables.ts';
import { apns } from '../network/tables.ts';
import { commServicesByIds } from '../network/commserv/service.ts';
import { basicPlans } from './plan-tables.ts';

export type PlanInput = Omit<BodyOf<typeof plan.saveBasicPlan>, 'copiedFrom'>;

const fieldError = (code: ErrorCode, field: string, params?: Record<string, string | number>) => new AppError(code, params, 200, { field });

const MONEY_LABELS: Record<string, Bilingual> = {
  standardPrice: { zh: '标准价格', en: 'Standard price' },
  salePrice: { zh: '销售价格', en: 'Sale price' },
  quotaMb: { zh: '总流量', en: 'Total quota' },
  overagePrice: { zh: '套外价格', en: 'Out-of-plan price' },
  testPrice: { zh: '测试期价格', en: 'Test price' },
  downtimeFee: { zh: '停机保号费', en: 'Downtime maintenance fee' },
  taxRate: { zh: '税率', en: 'Tax rate' },
  price: { zh: '区域价格', en: 'Zone price' },
};

/** A quantity that is not money (quota, percentage): a finite number, not negative, at most two decimals. */
export const isTwoDecimals = (v: number) => Number.isFinite(v) && v >= 0 && Math.abs(Math.round(v * 100) - v * 100) < 1e-6;

/** A price in CNY: a decimal string, not negative, at most two decimals (checked exactly in fen, never rounded). */
export const isPrice = (v: string) => {
  const fen = moneyToFen(v);
  return fen !== null && fen >= 0n;
};

/** Integer fen of a price the rules have accepted (0 for none). */
export const priceFen = (v: string | null | undefined): bigint => (v == null ? 0n : moneyToFen(v) ?? 0n);

/**
 * A typed price as the column's money text ('12.5' → '12.50'), so a stored price and a typed one compare as equal; left
 * as typed when invalid, for the rule to refuse with its message.
 */
export const canonicalPrice = <T extends string | null | undefined>(v: T): T => (v == null ? v : ((toMoneyText(v) ?? v) as T));

/**
 * Refuses a price (a decimal string) or a quota/percentage (a number) that is negative or has more than two
 * decimals, with the field's label in the spec's message.
 */
export function checkMoney(field: string, value: string | number | null | undefined, lang: 'zh' | 'en' = 'en', labelKey = field) {
  if (value == null) return;
  if (typeof value === 'string' ? !isPrice(value) : !isTwoDecimals(value)) {
    const label = MONEY_LABELS[labelKey] ?? { zh: field, en: field };
    throw fieldError(ErrorCode.PlanMoneyInvalid, field, { label: label[lang] });
  }
}

const oneOf = (field: string, ok: boolean) => {
  if (!ok) throw new FieldError(field, { zh: '取值无效', en: 'invalid value' });
};

/**
 * Checks a plan before it is written. `selfId` is the plan being edited (its own name, code and id are
 * allowed). Throws the first problem found.
 */
export async function checkPlan(ex: Executor, b: PlanInput, lang: 'zh' | 'en', selfId?: number): Promise<void> {
  // enums
  oneOf('tariffType', TariffType.has(b.tariffType));
  oneOf('goodsType', PlanGoodsType.has(b.goodsType));
  oneOf('cycleUnit', PlanCycleUnit.has(b.cycleUnit));
  oneOf('useUpAction', PlanUseUpAction.has(b.useUpAction));
  oneOf('operationMode', PlanOperationMode.has(b.operationMode));
  oneOf('renewalMode', PlanRenewalMode.has(b.renewalMode));
  oneOf('profitShareMethod', ProfitShareMethod.has(b.profitShareMethod));
  if (b.overageGrade != null) oneOf('overageGrade', OverageGrade.has(b.overageGrade));
  oneOf('networkTypes', b.networkTypes.every((n) => NetworkType.has(n)) && new Set(b.networkTypes).size === b.networkTypes.length);
  const expectedGoods = goodsTypeOfTariff(b.tariffType);
  if (b.goodsType !== expectedGoods) {
    throw fieldError(ErrorCode.PlanGoodsTypeMismatch, 'goodsType', { tariff: TariffType.label(b.tariffType, lang), goods: PlanGoodsType.label(expectedGoods, lang) });
  }

  // money and proportions
  for (const f of ['standardPrice', 'salePrice', 'quotaMb', 'overagePrice', 'testPrice', 'downtimeFee', 'taxRate'] as const) checkMoney(f, b[f], lang);
  b.zones.forEach((z, i) => {
    checkMoney(`zones.${i}.price`, z.price, lang, 'price');
    checkMoney(`zones.${i}.quotaMb`, z.quotaMb, lang, 'quotaMb');
  });
  if (!(Number.isFinite(b.profitShareRatio) && b.profitShareRatio >= 0 && b.profitShareRatio <= 100) || !isTwoDecimals(b.profitShareRatio)) {
    throw fieldError(ErrorCode.PlanProfitShareInvalid, 'profitShareRatio');
  }

  // test and silent (inventory) periods
  const testMonths = b.testPeriodMonths ?? 0;
  const silentMonths = b.silentPeriodMonths ?? 0;
  if (testMonths + silentMonths > PLAN_TEST_SILENT_MONTHS_MAX) {
    throw fieldError(ErrorCode.PlanTestSilentTooLong, 'silentPeriodMonths', { max: PLAN_TEST_SILENT_MONTHS_MAX });
  }
  if (b.testValidityDays != null && !TEST_VALIDITY_DAYS.includes(b.testValidityDays)) {
    throw fieldError(ErrorCode.PlanTestValidityInvalid, 'testValidityDays', { days: TEST_VALIDITY_DAYS.join('/') });
  }
  if (b.tariffType === TariffType.Test && b.testValidityDays == null) {
    throw new FieldError('testValidityDays', { zh: '请选择或输入', en: 'please select or enter' });
  }
  const testQuotaMax = testQuotaMaxKb(b.operatorId, b.operationMode);
  if (testQuotaMax !== null && (b.testQuotaKb ?? PLAN_TEST_QUOTA_KB_DEFAULT) > testQuotaMax) {
    throw fieldError(ErrorCode.PlanTestQuotaTooLarge, 'testQuotaKb', { max: testQuotaMax });
  }

  // supplementary packs ride on a card's base plan: no network, zones, periods or change targets of their own
  if (SUPPLEMENTARY_TARIFFS.includes(b.tariffType)) {
    const notForPacks: [string, boolean, Bilingual][] = [
      ['apnIds', b.apnIds.length > 0, { zh: 'APN', en: 'APN' }],
      ['zones', b.zones.length > 0, { zh: '区域', en: 'Zones' }],
      ['testPeriodMonths', testMonths > 0, { zh: '测试期', en: 'Test period' }],
      ['silentPeriodMonths', silentMonths > 0, { zh: '沉默期', en: 'Silent period' }],
      ['testValidityDays', b.testValidityDays != null, { zh: '测试有效期', en: 'Test validity' }],
      ['downtimeFee', priceFen(b.downtimeFee) > 0n, { zh: '停机保号费', en: 'Downtime maintenance fee' }],
      ['alternativeIds', (b.alternativeIds ?? []).length > 0, { zh: '可变更套餐', en: 'Plans to change to' }],
    ];
    for (const [field, bad, label] of notForPacks) if (bad) throw fieldError(ErrorCode.PlanSupplementaryFields, field, { label: label[lang] });
  } else if (!b.apnIds.length) {
    throw new FieldError('apnIds', { zh: '请选择或输入', en: 'please select or enter' });
  }

  // operator and APNs
  const [op] = await ex.select({ id: operators.operatorId }).from(operators).where(eq(operators.operatorId, b.operatorId));
  if (!op) throw new FieldError('operatorId', { zh: '无此运营商', en: 'unknown operator' });
  const apnIds = [...new Set(b.apnIds)];
  if (apnIds.length !== b.apnIds.length) throw new FieldError('apnIds', { zh: 'APN 不能重复', en: 'an APN is listed twice' });
  if (apnIds.length > PLAN_APN_MAX) throw fieldError(ErrorCode.PlanApnTooMany, 'apnIds', { max: PLAN_APN_MAX });
  if (apnIds.length) {
    const found = await ex.select({ apnId: apns.apnId, operatorId: apns.operatorId }).from(apns).where(inArray(apns.apnId, apnIds));
    if (found.length !== apnIds.length) throw new FieldError('apnIds', { zh: '无此 APN', en: 'unknown APN' });
    if (found.some((a) => a.operatorId !== b.operatorId)) {
      throw new FieldError('apnIds', { zh: 'APN 须属于所选运营商', en: 'the APNs must belong to the chosen operator' });
    }
  }

  // zones and their communication services
  if (b.zones.length > PLAN_ZONE_MAX) throw fieldError(ErrorCode.PlanZoneTooMany, 'zones', { max: PLAN_ZONE_MAX });
  const zoneNames = new Set<string>();
  b.zones.forEach((z, i) => {
    const key = z.zoneName.trim().toLowerCase();
    if (zoneNames.has(key)) throw new FieldError(`zones.${i}.zoneName`, { zh: '区域名称不能重复', en: 'zone names must differ' });
    zoneNames.add(key);
    if (z.commservIds.length > PLAN_ZONE_SERVICE_MAX) {
      throw fieldError(ErrorCode.PlanZoneServiceTooMany, `zones.${i}.commservIds`, { zone: z.zoneName, max: PLAN_ZONE_SERVICE_MAX });
    }
  });
  const services = new Map((await commServicesByIds(ex, b.zones.flatMap((z) => z.commservIds))).map((s) => [s.commservId, s]));
  const used = new Set<number>();
  b.zones.forEach((z, i) => {
    const field = `zones.${i}.commservIds`;
    for (const id of z.commservIds) {
      const s = services.get(id);
      if (!s) throw fieldError(ErrorCode.PlanServiceMissing, field, { zone: z.zoneName, id });
      if (used.has(id)) throw fieldError(ErrorCode.PlanServiceRepeated, field, { zone: z.zoneName, name: s.name });
      used.add(id);
      if (s.qosCount < 1) throw fieldError(ErrorCode.PlanServiceNoQos, field, { zone: z.zoneName, name: s.name });
      if (s.whitelistCount > PLAN_SERVICE_ADDRESS_MAX) {
        throw fieldError(ErrorCode.PlanServiceAddressTooMany, field, { zone: z.zoneName, name: s.name, max: PLAN_SERVICE_ADDRESS_MAX });
      }
    }
  });

  // plans to change to: base plans with exactly the same APN set (spec §4)
  const alts = [...new Set(b.alternativeIds ?? [])];
  if (alts.length) {
    if (selfId !== undefined && alts.includes(selfId)) throw new FieldError('alternativeIds', { zh: '不能选择套餐本身', en: 'a plan cannot change to itself' });
    const sets = await apnSets(ex, alts);
    const mine = [...apnIds].sort((x, y) => x - y).join(',');
    for (const id of alts) {
      const other = sets.get(id);
      if (!other) throw new FieldError('alternativeIds', { zh: '无此套餐', en: 'unknown plan' });
      if (!BASE_TARIFFS.includes(other.tariffType) || other.apnKey !== mine) {
        throw fieldError(ErrorCode.PlanAlternativeApnMismatch, 'alternativeIds', { name: other.name });
      }
    }
  }

  // unique name and code
  const clash = await ex
    .select({ id: basicPlans.goodsReleaseId, code: basicPlans.code, name: basicPlans.name })
    .from(basicPlans)
    .where(and(
      sql`(lower(${basicPlans.name}) = ${b.name.trim().toLowerCase()} or ${basicPlans.code} = ${b.code})`,
      selfId !== undefined ? ne(basicPlans.goodsReleaseId, selfId) : undefined,
    ));
  if (clash.some((c) => c.code === b.code)) throw fieldError(ErrorCode.PlanCodeTaken, 'code');
  if (clash.length) throw fieldError(ErrorCode.PlanNameTaken, 'name');
}

/** For each plan: its name, tariff type and its APN ids as a sorted key ("3,7"). */
export async function apnSets(ex: Executor, ids: number[]): Promise<Map<number, { name: string; tariffType: number; apnKey: string }>> {
  if (!ids.length) return new Map();
  const rows = await ex
    .select({
      id: basicPlans.goodsReleaseId, name: basicPlans.name, tariffType: basicPlans.tariffType,
      apnKey: sql<string>`coalesce((select string_agg(pa.apn_id::text, ',' order by pa.apn_id) from plan_apns pa where pa.goods_release_id = "basic_plans"."goods_release_id"), '')`,
    })
    .from(basicPlans)
    .where(inArray(basicPlans.goodsReleaseId, ids));
  return new Map(rows.map((r) => [r.id, { name: r.name, tariffType: r.tariffType, apnKey: r.apnKey }]));
}
