import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CardState, Operator, PlanOperationMode, PROFESSIONAL_CARD_STATES, RoleType, carddetail, usage } from '@lynx/contract';
import { backends, DEMO_PASSWORD, startTestApp, type TestApp } from './harness.ts';
import { seedDemo } from '../src/seed/demo.ts';
import { DEMO_LOGINS_FILE } from '../src/seed/demo-logins.ts';
import { OPERATOR_PLAN_CODES } from '../src/seed/demo-plans.ts';
import { runDueCards } from '../src/modules/card/lifecycle/scheduler.ts';
import { runUsageWindow } from '../src/modules/usage/usage-feed.ts';

const DAY = 86_400_000;
const MB = 1024 * 1024;
/** The states a card can hold a plan in and be worked with (the professional version's five). */
const PLAN_STATES = [...PROFESSIONAL_CARD_STATES];

describe.each(backends)('demo data and demo logins on %s', (backend) => {
  let t: TestApp;
  let dataDir: string;
  let zhixing: number;
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  const n = async (text: string, params: unknown[] = []) => Number((await q<{ n: string }>(text, params))[0].n);
  const ok = <T = any>(r: { body: { success: boolean; data: T; msg: string } }) => {
    expect(r.body.success, r.body.msg).toBe(true);
    return r.body.data;
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-demo-'));
    t = await startTestApp(backend, {}, { jobs: false, dataDir });
    zhixing = Number((await q<{ root_cust_id: number }>(`select root_cust_id from accounts where login_name = 'enterprise'`))[0].root_cust_id);
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes the five demo logins to DATA_DIR/demo-logins.txt, readable only by the owner, once', async () => {
    const file = path.join(dataDir, DEMO_LOGINS_FILE);
    expect(t.seed).toMatchObject({ loginsFile: file, loginsFileError: null });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const text = fs.readFileSync(file, 'utf8');
    const logins = [...text.matchAll(/^ {2}(\S+)\s+role (\d+)\s+password (\S+)$/gm)].map((m) => ({ loginName: m[1], roleId: Number(m[2]), password: m[3] }));
    expect(logins).toEqual([
      { loginName: 'admin', roleId: RoleType.Admin, password: DEMO_PASSWORD },
      { loginName: 'manager', roleId: RoleType.Manager, password: DEMO_PASSWORD },
      { loginName: 'enterprise', roleId: RoleType.Enterprise, password: DEMO_PASSWORD },
      { loginName: 'channel', roleId: RoleType.Channel, password: DEMO_PASSWORD },
      { loginName: 'subcustomer', roleId: RoleType.SubCustomer, password: DEMO_PASSWORD },
    ]);
    // the file holds what the start printed, and the logins work
    expect(logins).toEqual(t.seed!.logins);
    for (const l of logins) expect(await t.login(l.loginName, l.password)).toBeTruthy();
    // a later start finds the demo data and leaves the file alone
    expect(await seedDemo(t.database.db, 'Another@2026pass', { dataDir })).toBeNull();
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
    expect(fs.readdirSync(dataDir).filter((f) => f.startsWith(DEMO_LOGINS_FILE))).toEqual([DEMO_LOGINS_FILE]);
  });

  it("every card of the enterprise's tree in states 61-65 has a basic plan of its operator released to the enterprise", async () => {
    // 智行物流 and its second-level customers have cards of all three operators in each of these states
    const held = await q<{ operator_id: number; n: string }>(
      `select operator_id, count(*) n from cards where root_cust_id = $1 and state = any($2::int[]) group by 1 order by 1`, [zhixing, PLAN_STATES]);
    expect(held.map((r) => Number(r.operator_id))).toEqual([Operator.ChinaMobile, Operator.ChinaUnicom, Operator.ChinaTelecom]);
    expect(await n(`select count(*) n from cards where root_cust_id = $1 and state = any($2::int[]) and goods_release_id is null`, [zhixing, PLAN_STATES])).toBe(0);
    expect(await n(`
      select count(*) n from cards c where c.root_cust_id = $1 and c.goods_release_id is not null and not exists (
        select 1 from plan_releases r join basic_plans b on b.goods_release_id = r.goods_release_id
        where r.goods_release_id = c.goods_release_id and r.cust_id = c.root_cust_id and b.operator_id = c.operator_id
          and b.operation_mode = c.operation_mode and b.renewal_mode = c.renewal_mode)`, [zhixing])).toBe(0);
    // the new China Mobile and China Unicom plans are standard; the professional version stays on China Telecom
    const plans = await q<{ code: string; operator_id: number; operation_mode: number }>(
      `select code, operator_id, operation_mode from basic_plans where code = any($1::text[]) order by code`, [OPERATOR_PLAN_CODES]);
    expect(plans.map((p) => [p.code, Number(p.operator_id), Number(p.operation_mode)])).toEqual([
      ['CMCC-M5G', Operator.ChinaMobile, PlanOperationMode.Standard], ['CUCC-M3G', Operator.ChinaUnicom, PlanOperationMode.Standard],
    ]);
    expect(await n(`select count(*) n from cards where operation_mode = $1 and operator_id <> $2`, [PlanOperationMode.Professional, Operator.ChinaTelecom])).toBe(0);
    // before activation no contract has started; activated and deactivated cards are in one
    expect(await n(`select count(*) n from cards where root_cust_id = $1 and state in (61, 62, 63) and contract_start_at is not null`, [zhixing])).toBe(0);
    expect(await n(`
      select count(*) n from cards where root_cust_id = $1 and state in (64, 65)
        and (contract_start_at is null or contract_end_at is null or contract_months < 1 or cycle_start_at is null or cycle_end_at is null)`, [zhixing])).toBe(0);
    // the rest of the demo is as it was: the other customer's cards, the platform stock and the 8-card China Telecom pool
    expect(await n(`select count(*) n from cards where (root_cust_id is null or root_cust_id <> $1) and goods_release_id is not null`, [zhixing])).toBe(0);
    expect(await q(`select operator_id, member_count from card_pools`)).toEqual([{ operator_id: Operator.ChinaTelecom, member_count: 8 }]);
    expect(await n(`select count(*) n from cards where pool_id is not null and operator_id = $1 and root_cust_id = $2`, [Operator.ChinaTelecom, zhixing])).toBe(8);
  });

  it('a newcomer opening an activated China Mobile or China Unicom card of the enterprise sees plan, contract cycle, billing, usage and quota', async () => {
    const now = Date.now();
    // what the scheduler's first run and the usage feed's first runs do after the first start (here: the last two days)
    await runDueCards({ db: t.deps.db, config: t.config }, { now: new Date(now) });
    for (const op of [Operator.ChinaMobile, Operator.ChinaUnicom]) await runUsageWindow({ db: t.deps.db, config: t.config }, op, new Date(now - 2 * DAY), new Date(now));
    const enterprise = await t.login('enterprise');
    for (const [op, planName, quotaMb, price] of [[Operator.ChinaMobile, '移动车载 4G 月付 5GB', 5120, '25.00'], [Operator.ChinaUnicom, '联通物联网月付 3GB', 3072, '18.00']] as const) {
      const [{ iccid }] = await q<{ iccid: string }>(`
        select c.iccid from cards c where c.root_cust_id = $1 and c.operator_id = $2 and c.state = $3
          and exists (select 1 from card_usage_daily d where d.iccid = c.iccid) order by c.iccid limit 1`, [zhixing, op, CardState.Activated]);
      const cycle = ok(await t.call(carddetail.getCardCycle.name, { iccid }, { token: enterprise }));
      expect(cycle.plan).toMatchObject({ name: planName, quotaMb, durationMonths: 12 });
      expect(Date.parse(cycle.cycleStartAt)).toBeLessThanOrEqual(now);
      expect(Date.parse(cycle.cycleEndAt)).toBeGreaterThan(now);
      expect(Date.parse(cycle.contractEndAt)).toBeGreaterThan(now);
      const billing = ok(await t.call(carddetail.getCardBilling.name, { iccid }, { token: enterprise }));
      expect(billing).toMatchObject({ plan: { name: planName }, price, currency: 'CNY', contractMonths: 12 });
      const used = ok(await t.call(usage.getCardUsage.name, { iccid }, { token: enterprise }));
      expect(used).toMatchObject({ cycleKind: 'contract', planName, quotaBytes: quotaMb * MB });
      expect(used.usedBytes).toBeGreaterThan(0);
      expect(used.remainingBytes).toBe(Math.max(0, quotaMb * MB - used.usedBytes));
    }
  });
});
