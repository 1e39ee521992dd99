// Issue 12, rule defects found in review: each rule at its boundary, with the spec's messages in both languages.
import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import {
  ApnType, CardChangeSource, CardState, ErrorCode, IpAllocation, NetworkType, Operator, OverageGrade, PlanCycleUnit, PlanGoodsType,
  PlanOperationMode, PlanRenewalMode, PlanUseUpAction, PriceChangeStatus, ProfitShareMethod, TariffType, carddetail,
} from '@lynx/contract';
import { backends, insertCards, iccidsOf, multipart, ownerOf, startTestApp, type Part, type TestApp } from './harness.ts';
import { applyCardAction, applyCardActions, type CardActor } from '../src/modules/card/lifecycle/card-service.ts';
import { applyDuePriceChanges, businessTodayOf } from '../src/modules/plan/plan-price.ts';

const SYSTEM: CardActor = { kind: 'system', source: CardChangeSource.Rule, actor: 'rule:test' };
const RENEW = carddetail.renewCard.name;
const CYCLE = carddetail.getCardCycle.name;
const PNG_SIG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const png = (size: number) => Buffer.concat([PNG_SIG, crypto.randomBytes(size - PNG_SIG.length)]);

describe.each(backends)('issue 12 rule boundaries on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let enterprise: string;
  const plan: Record<string, number> = {};

  beforeAll(async () => {
    t = await startTestApp(backend, {}, { jobs: false });
    [admin, enterprise] = await Promise.all([t.login('admin'), t.login('enterprise')]);
    for (const r of await t.database.sql.query<{ code: string; id: number }>('select code, goods_release_id id from basic_plans')) plan[r.code] = r.id;
  });
  afterAll(() => t?.stop());

  describe('renewal while a price change of the card plan is pending (spec §4, §8)', () => {
    const renewRefused = {
      zh: '变更套餐后或存在待生效的调价时不能续订',
      en: 'Renewal is not possible after a plan change or while a price change is pending',
    };

    it('refuses renewal from the adjustment on until it takes effect, card by card and for a set', async () => {
      const ent = await ownerOf(t, 'enterprise');
      const [a, b] = await insertCards(t, iccidsOf('8986112912', 1, 2), { state: CardState.ActivationReady, owner: ent, operatorId: Operator.ChinaTelecom, plan: plan['CTCC-M10G'] });
      const [other] = await insertCards(t, iccidsOf('8986112913', 1, 1), { state: CardState.ActivationReady, owner: ent, operatorId: Operator.ChinaTelecom, plan: plan['CTCC-P2G12'] });
      for (const iccid of [a, b, other]) await applyCardAction(t.deps, SYSTEM, iccid, { type: 'activate' });

      const tomorrow = businessTodayOf(new Date(Date.now() + 86_400_000));
      const adjusted = await t.call('goods/basicGoods/priceAdjustment', { goodsReleaseId: plan['CTCC-M10G'], salePrice: '45', effectiveDate: tomorrow }, { token: admin });
      expect(adjusted.body.data, adjusted.body.msg).toMatchObject({ status: PriceChangeStatus.Pending });

      for (const lang of ['zh', 'en'] as const) {
        const r = await t.call(RENEW, { iccid: a, periods: 1 }, { token: enterprise, lang });
        expect(r.body).toMatchObject({ success: false, errorCode: ErrorCode.CardRenewalChangePending, msg: renewRefused[lang] });
      }
      expect((await t.call(CYCLE, { iccid: a }, { token: enterprise })).body.data.pendingPriceChange).toBe(true);
      expect((await t.call(CYCLE, { iccid: other }, { token: enterprise })).body.data.pendingPriceChange).toBe(false);
      const months = async (iccid: string) =>
        (await t.database.sql.query<{ m: number }>('select contract_months m from cards where iccid = $1', [iccid]))[0].m;
      expect(await months(a)).toBe(12);

      // a set decided together: the plan's pending change holds for each of its cards, not for a card of another plan
      const set = await applyCardActions(t.deps, SYSTEM, [a, b, other], { type: 'renew', periods: 1 });
      for (const iccid of [a, b]) {
        const o = set.get(iccid)!;
        expect(o.ok).toBe(false);
        if (!o.ok) expect(o.error.code).toBe(ErrorCode.CardRenewalChangePending);
      }
      expect(set.get(other)!.ok).toBe(true);
      expect(await months(a)).toBe(12);

      // once the change has taken effect, renewal is possible again
      await t.database.sql.query('update plan_price_changes set effective_date = $1 where change_id = $2', [businessTodayOf(), adjusted.body.data.changeId]);
      expect(await applyDuePriceChanges(t.database.db)).toBe(1);
      const renewed = await t.call(RENEW, { iccid: a, periods: 1 }, { token: enterprise });
      expect(renewed.body.success, renewed.body.msg).toBe(true);
      expect(await months(a)).toBe(24);
      expect((await t.call(CYCLE, { iccid: a }, { token: enterprise })).body.data.pendingPriceChange).toBe(false);
    });
  });

  describe('test data of a standard-version China Unicom plan: at most 1024 KB (spec §9)', () => {
    let seq = 0;
    let unicomApn: number;
    const body = (over: Record<string, unknown>) => {
      seq++;
      return {
        code: `RB-${seq}`, name: `联通测试额度 ${seq}`, goodsType: PlanGoodsType.Monthly, tariffType: TariffType.MonthlySingle,
        standardPrice: '20', salePrice: '15', cycleUnit: PlanCycleUnit.Month, cycleValue: 1, durationMonths: 12, quotaMb: 1024,
        useUpAction: PlanUseUpAction.Overdraw, terminateByUsage: false, operatorId: Operator.ChinaUnicom, operationMode: PlanOperationMode.Standard,
        overageGrade: OverageGrade.PerMb, overagePrice: '0.3', testPeriodMonths: 1, testQuotaKb: 100, testPrice: '0', silentPeriodMonths: 0,
        renewalMode: PlanRenewalMode.AutoRenew, taxRate: 6, profitShareRatio: 0, profitShareMethod: ProfitShareMethod.ByProfit,
        networkTypes: [NetworkType.G4], apnIds: [unicomApn], zones: [],
        ...over,
      };
    };
    const tooMuch = {
      zh: '测试期流量：中国联通标准版套餐最多 1024 KB',
      en: 'Test quota: a standard-version China Unicom plan allows at most 1024 KB of test data',
    };

    beforeAll(async () => {
      const r = await t.call('network/apn/save', { apnName: 'rb.unicom', operatorId: Operator.ChinaUnicom, apnType: ApnType.Private, ipAllocation: IpAllocation.Static }, { token: admin });
      unicomApn = r.body.data.apnId;
    });

    it('refuses 1025 and 2048 KB with the field named, on save and on edit; 1024 KB is accepted', async () => {
      for (const kb of [1025, 2048]) {
        for (const lang of ['zh', 'en'] as const) {
          const r = await t.call('goods/basicGoods/save', body({ testQuotaKb: kb }), { token: admin, lang });
          expect(r.body, `${kb} KB ${lang}`).toMatchObject({ success: false, errorCode: ErrorCode.PlanTestQuotaTooLarge, msg: tooMuch[lang], data: { field: 'testQuotaKb' } });
        }
      }
      // a test-tariff plan too
      const test = await t.call('goods/basicGoods/save', body({ tariffType: TariffType.Test, goodsType: PlanGoodsType.Test, testValidityDays: 30, testQuotaKb: 1025 }), { token: admin });
      expect(test.body.errorCode).toBe(ErrorCode.PlanTestQuotaTooLarge);

      const saved = await t.call('goods/basicGoods/save', body({ testQuotaKb: 1024 }), { token: admin });
      expect(saved.body.success, saved.body.msg).toBe(true);
      const id = saved.body.data.goodsReleaseId;
      const edit = await t.call('goods/basicGoods/update', { ...body({ testQuotaKb: 2048 }), goodsReleaseId: id }, { token: admin, lang: 'zh' });
      expect(edit.body).toMatchObject({ success: false, errorCode: ErrorCode.PlanTestQuotaTooLarge, msg: tooMuch.zh });
      const [row] = await t.database.sql.query<{ kb: number }>('select test_quota_kb kb from basic_plans where goods_release_id = $1', [id]);
      expect(row.kb).toBe(1024);
    });

    it('does not limit the professional version nor other operators', async () => {
      const pro = await t.call('goods/basicGoods/save', body({ operationMode: PlanOperationMode.Professional, testQuotaKb: 2048 }), { token: admin });
      expect(pro.body.success, pro.body.msg).toBe(true);
      const ctApn = (await t.call('network/apn/save', { apnName: 'rb.telecom', operatorId: Operator.ChinaTelecom, apnType: ApnType.Private, ipAllocation: IpAllocation.Static }, { token: admin })).body.data.apnId;
      const telecom = await t.call('goods/basicGoods/save', body({ operatorId: Operator.ChinaTelecom, apnIds: [ctApn], testQuotaKb: 2048 }), { token: admin });
      expect(telecom.body.success, telecom.body.msg).toBe(true);
    });
  });

  describe('upload sizes are "under" the limit (spec §5, §9) and a logo is a single file', () => {
    const logo = (parts: Part[], lang = 'en') => {
      const form = multipart(parts);
      return t.app.inject({
        method: 'POST', url: `/api/cmp/core/account/account/uploadLogo?ts=1&lang=${lang}`, payload: form.payload,
        headers: { ...form.headers, authorization: enterprise },
      });
    };
    const proof = (data: Buffer, lang = 'en') => {
      const form = multipart([{ name: 'use', value: 'paymentProof' }, { name: 'file', filename: 'proof.png', type: 'image/png', data }]);
      return t.app.inject({ method: 'POST', url: `/api/cmp/base/file/upload?lang=${lang}`, payload: form.payload, headers: { ...form.headers, authorization: enterprise } });
    };
    const logoUrl = async () => (await t.call('core/account/account/getLogoByCustId', { custId: (await ownerOf(t, 'enterprise')).cust_id })).body.data.logoUrl;

    it('a logo of 1,536,000 bytes (1500 KB) is refused, one byte less is taken', async () => {
      const before = await logoUrl();
      for (const [lang, msg] of [['zh', 'Logo 须小于 1500KB'], ['en', 'Logo must be smaller than 1500 KB']] as const) {
        const r = await logo([{ name: 'logoFile', filename: 'logo.png', type: 'image/png', data: png(1_536_000) }], lang);
        expect(r.statusCode).toBe(400);
        expect(r.json()).toMatchObject({ success: false, errorCode: ErrorCode.LogoTooBig, msg });
      }
      expect(await logoUrl()).toBe(before);
      const ok = await logo([{ name: 'logoFile', filename: 'logo.png', type: 'image/png', data: png(1_535_999) }]);
      expect(ok.json()).toMatchObject({ success: true });
    });

    it('a logo upload carrying two files is refused and changes nothing', async () => {
      const before = await logoUrl();
      const two: Part[] = [
        { name: 'logoFile', filename: 'a.png', type: 'image/png', data: png(500) },
        { name: 'logoFile', filename: 'b.png', type: 'image/png', data: png(600) },
      ];
      for (const [lang, msg] of [['zh', '只能上传一个文件'], ['en', 'Upload a single file']] as const) {
        const r = await logo(two, lang);
        expect(r.statusCode).toBe(400);
        expect(r.json()).toMatchObject({ success: false, errorCode: ErrorCode.SingleFile, msg, data: { field: 'logoFile' } });
      }
      expect(await logoUrl()).toBe(before);
    });

    it('a payment proof of exactly 2 MB is refused, one byte less is taken', async () => {
      for (const [lang, msg] of [['zh', '文件过大，须小于 2 MB'], ['en', 'File too big: it must be under 2 MB']] as const) {
        const r = await proof(png(2 * 1024 * 1024), lang);
        expect(r.json()).toMatchObject({ success: false, errorCode: ErrorCode.FileTooBig, msg });
      }
      const ok = await proof(png(2 * 1024 * 1024 - 1));
      expect(ok.json()).toMatchObject({ success: true, data: { size: 2 * 1024 * 1024 - 1 } });
    });
  });

  describe('the API callback is one address (spec §9)', () => {
    it('refuses a list separated by semicolons with a field message; one address is saved', async () => {
      const list = 'https://a.example.com/cb;https://b.example.com/cb';
      const msgs = { zh: '字段 callbackUrl：只能填写一个回调地址', en: 'Field callbackUrl: Enter one callback address only' };
      for (const lang of ['zh', 'en'] as const) {
        for (const callbackUrl of [list, 'https://a.example.com/cb；https://b.example.com/cb', 'https://a.example.com/cb;']) {
          const r = await t.call('openapi/config/save', { callbackUrl }, { token: enterprise, lang });
          expect(r.body, `${callbackUrl} ${lang}`).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: msgs[lang], data: { field: 'callbackUrl' } });
        }
      }
      expect((await t.call('openapi/config/query', {}, { token: enterprise })).body.data.callbackUrl).toBeNull();
      expect((await t.call('openapi/config/save', { callbackUrl: 'https://a.example.com/cb?x=1,2' }, { token: enterprise })).body.success).toBe(true);
      expect((await t.call('openapi/config/query', {}, { token: enterprise })).body.data.callbackUrl).toBe('https://a.example.com/cb?x=1,2');
    });
  });
});
