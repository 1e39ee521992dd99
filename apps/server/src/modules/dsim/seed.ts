import { sql } from 'drizzle-orm';
import { CardState, DsimRuleType, DsimSwitchReason, DsimSwitchState, Operator } from '@lynx/contract';
import type { Executor } from '../../db/client.ts';
import { exec } from './switching.ts';
import { demoUsageStart } from '../usage/usage-feed.ts';

/**
 * Demo super SIMs (docs/super-sim.md): up to four of the customer's own activated cards per operator become the
 * profiles of four super SIMs (China Mobile, China Unicom and, where there is one, China Telecom), with a platform
 * strategy chosen for one of them and a past switch on another, so the screens have something to show at once.
 */
export async function seedDemoDsims(ex: Executor, cust: { custId: number; rootCustId: number }): Promise<void> {
  const ops = [Operator.ChinaMobile, Operator.ChinaUnicom, Operator.ChinaTelecom];
  const byOp = new Map<number, string[]>();
  for (const op of ops) {
    const rows = await exec<{ iccid: string }>(ex, sql`select iccid from cards where cust_id = ${cust.custId} and operator_id = ${op}
      and state = ${CardState.Activated} and pool_id is null order by iccid desc limit 4`);
    byOp.set(op, rows.map((r) => r.iccid));
  }
  const count = Math.min(4, byOp.get(Operator.ChinaMobile)!.length, byOp.get(Operator.ChinaUnicom)!.length);
  if (count === 0) return;
  const [s] = await exec<{ strategy_id: number }>(ex, sql`insert into dsim_strategies (strategy_name, rule_type, params, remark, created_by)
    values ('无会话 30 分钟切换', ${DsimRuleType.NoSession}, '{"minutes":30}', '当前运营商 30 分钟没有数据会话时切换到下一个运营商', 'admin'),
      ('资费优先（电信、移动、联通）', ${DsimRuleType.Cost}, '{"operatorOrder":[3,1,2]}', null, 'admin')
    returning strategy_id`);
  for (let i = 0; i < count; i++) {
    const sn = `ZX2026SS${String(i + 1).padStart(4, '0')}`;
    const members = ops.map((op) => ({ op, iccid: byOp.get(op)![i] })).filter((m) => m.iccid);
    // in place since the demo's usage month begins, so the usage feed gives that month to the current profile only
    await ex.execute(sql`insert into dsims (sn, is_supplier, cust_id, root_cust_id, current_operator_id, strategy_id, created_at)
      values (${sn}, ${i === 3}, ${cust.custId}, ${cust.rootCustId}, ${i === 1 ? Operator.ChinaUnicom : Operator.ChinaMobile}, ${i === 0 ? s.strategy_id : null},
        ${demoUsageStart().toISOString()}::timestamptz)`);
    for (const m of members) await ex.execute(sql`insert into dsim_members (sn, operator_id, iccid) values (${sn}, ${m.op}, ${m.iccid})`);
    if (i === 1) {
      await ex.execute(sql`insert into dsim_switches (sn, from_operator_id, to_operator_id, reason, state, request_id, actor, requested_at, done_at)
        values (${sn}, ${Operator.ChinaMobile}, ${Operator.ChinaUnicom}, ${DsimSwitchReason.Manual}, ${DsimSwitchState.Succeeded}, 'SSW-DEMO000000000001',
          'enterprise', now() - interval '2 days', now() - interval '2 days')`);
      await ex.execute(sql`update dsims set switched_at = now() - interval '2 days' where sn = ${sn}`);
    }
  }
}
