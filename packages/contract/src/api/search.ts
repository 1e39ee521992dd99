import { Type, type TSchema } from '@sinclair/typebox';
import { endpoint, Obj, Nullable } from './endpoint.ts';
import { Perm } from '../permissions.ts';
import { RoleType } from '../enums/account.ts';
import { BatchPerm } from './batch.ts';

/*
 * The header's one search box (issue 12 "Finding a SIM"): cards by any fragment of at least 6 digits of their
 * ICCID, MSISDN, IMSI or IMEI (the whole number, its beginning, its last digits as printed on the SIM, or digits
 * in between), and customers, basic and retail plans, pools and batches by name or number. Pages are found by the
 * console itself (its route table). Every kind is searched only for a caller who may open its screen, inside the
 * caller's tenant (the same rule as each kind's own list); a kind that is not searched answers null.
 */

const tag = 'search';

/** Cards are searched when the keyword, spaces left out, is 6 to 20 digits (fewer digits match too many cards). */
export const CARD_FRAGMENT_MIN = 6;
export const CARD_FRAGMENT_MAX = 20;
export const SEARCH_KEYWORD_MAX = 64;
/** Results per kind: 5 unless asked, at most 10. */
export const SEARCH_LIMIT_DEFAULT = 5;
export const SEARCH_LIMIT_MAX = 10;

/** The keyword as card digits: spaces, dashes and dots left out (a number copied from a label or a sheet). */
export const cardDigitsOf = (keyword: string): string => keyword.replace(/[\s.-]/g, '');

/**
 * How the header search treats a keyword for cards: `search` with the digits (6-20 digits), `short` when it is a
 * number of fewer than 6 digits (the screen says why cards are not searched), `none` when it is not a number.
 */
export function cardKeyword(keyword: string): { kind: 'search'; digits: string } | { kind: 'short' | 'none' } {
  const digits = cardDigitsOf(keyword.trim());
  if (!/^[0-9]+$/.test(digits) || digits.length > CARD_FRAGMENT_MAX) return { kind: 'none' };
  return digits.length < CARD_FRAGMENT_MIN ? { kind: 'short' } : { kind: 'search', digits };
}

/** Who may have a kind searched: the codes of the screen it opens (any one), and roles that never see it. */
export const SEARCH_KIND_ACCESS = {
  card: { perms: [Perm.CardList], hiddenFor: [] as number[] },
  customer: { perms: [Perm.HomeCustomer], hiddenFor: [RoleType.SubCustomer] as number[] },
  basicPlan: { perms: [Perm.PackageManage], hiddenFor: [] as number[] },
  retailPlan: { perms: [Perm.PackageManage], hiddenFor: [] as number[] },
  pool: { perms: [Perm.Pool], hiddenFor: [] as number[] },
  /** batch operations of the types the caller may see (batch.ts BATCH_TYPE_PERMS), each opened on a batch screen it holds */
  batch: { perms: [BatchPerm.CardBatch, BatchPerm.BatchStatus, BatchPerm.StandardSim, BatchPerm.DataRecovery, BatchPerm.Pools], hiddenFor: [] as number[] },
  /** card imports: operator staff with Card › Import records */
  cardImport: { perms: [2070000], hiddenFor: [] as number[] },
} as const;
export type SearchKind = keyof typeof SEARCH_KIND_ACCESS;

/** Which field of the card holds the digits. */
export const CardMatchField = Type.Union([Type.Literal('iccid'), Type.Literal('msisdn'), Type.Literal('imsi'), Type.Literal('imei')]);
/** How: the whole number, its end (the digits printed last on a SIM), its beginning, or somewhere inside. */
export const CardMatchHow = Type.Union([Type.Literal('exact'), Type.Literal('suffix'), Type.Literal('prefix'), Type.Literal('contains')]);

export const CardHit = Type.Object({
  iccid: Type.String(),
  msisdn: Nullable(Type.String()),
  imsi: Nullable(Type.String()),
  imei: Nullable(Type.String()),
  state: Type.Integer(),
  operatorId: Type.Integer(),
  custName: Nullable(Type.String()),
  field: CardMatchField,
  how: CardMatchHow,
});
export const CustomerHit = Type.Object({ custId: Type.Integer(), custName: Type.String(), level: Type.Integer(), parentCustName: Nullable(Type.String()) });
export const BasicPlanHit = Type.Object({ goodsReleaseId: Type.Integer(), tariffType: Type.Integer(), name: Type.String(), code: Nullable(Type.String()), operatorId: Nullable(Type.Integer()) });
export const RetailPlanHit = Type.Object({ retailId: Type.Integer(), tariffType: Type.Integer(), retailName: Type.String(), custName: Nullable(Type.String()) });
export const PoolHit = Type.Object({ poolId: Type.Integer(), name: Type.String(), operatorId: Type.Integer(), custName: Nullable(Type.String()) });
export const BatchHit = Type.Object({
  batchId: Type.String(), type: Type.Integer(), state: Type.Integer(), fileName: Nullable(Type.String()), createdBy: Type.String(), createdAt: Type.String(),
});
export const CardImportHit = Type.Object({ batchId: Type.String(), fileName: Type.String(), remark: Nullable(Type.String()), successRows: Type.Integer(), createdAt: Type.String() });

/** One kind's results: at most `limit`, `more` when there are others (narrow the keyword or open the kind's list). */
const Section = <T extends TSchema>(item: T) => Nullable(Type.Object({ items: Type.Array(item), more: Type.Boolean() }));

export const GlobalSearchResult = Type.Object({
  /** the digits the cards were searched for, null when they were not (not a number, too short, no card list code) */
  cardDigits: Nullable(Type.String()),
  /** the keyword is a number of fewer than CARD_FRAGMENT_MIN digits: cards were not searched (the screen says why) */
  cardDigitsShort: Type.Boolean(),
  cards: Section(CardHit),
  customers: Section(CustomerHit),
  basicPlans: Section(BasicPlanHit),
  retailPlans: Section(RetailPlanHit),
  pools: Section(PoolHit),
  batches: Section(BatchHit),
  cardImports: Section(CardImportHit),
});

export const globalSearch = endpoint({
  name: 'core/search/globalSearch', method: 'POST', auth: 'session', perm: null, kind: 'query', tag,
  summary: {
    zh: '全局搜索：按 ICCID、MSISDN、IMSI、IMEI 的任意 6 位以上数字片段找卡，按名称或编号找客户、套餐、零售套餐、流量池、批次（仅有权打开的类别，仅本租户）',
    en: 'Global search: cards by any fragment of 6 or more digits of their ICCID, MSISDN, IMSI or IMEI; customers, plans, retail plans, pools and batches by name or number (only the kinds the caller may open, own tenant only)',
  },
  body: Obj({
    keyword: Type.String({ minLength: 1, maxLength: SEARCH_KEYWORD_MAX }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: SEARCH_LIMIT_MAX })),
  }),
  response: GlobalSearchResult,
});
