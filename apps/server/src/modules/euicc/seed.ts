import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { EuiccProfileState as S, Operator } from '@lynx/contract';
import type { Tx } from '../../db/client.ts';
import { rowsOf } from '../delivery/webhook/rows.ts';
import { simulatorOptionsFromEnv } from '../../operators/esim/simulator.ts';

const EIDS = ['89049032004008882600000000001001', '89049032004008882600000000001002', '89049032004008882600000000001003'];
const STOCK = ['89860099000000000001', '89860099000000000002', '89860099000000000003'];
const matchingId = (iccid: string, eid: string) => crypto.createHash('sha256').update(`${iccid}:${eid}`).digest('hex').slice(0, 20).toUpperCase();

/**
 * Demo eUICCs of the enterprise customer (docs/euicc.md), so Card › eUICC is not empty: three eUICCs; two of the
 * customer's activated cards as their profiles (one enabled, one bound with an activation code); three unbound
 * profiles in stock to assign.
 */
export async function seedDemoEuiccs(tx: Tx, owner: { custId: number; rootCustId: number }): Promise<void> {
  const address = simulatorOptionsFromEnv().address;
  await tx.execute(sql`insert into euiccs (eid, cust_id, root_cust_id, created_by)
    select unnest(${sql.param(EIDS)}::text[]), ${owner.custId}::int, ${owner.rootCustId}::int, 'demo'`);
  const cards = rowsOf<{ iccid: string; operator_id: number }>(await tx.execute(sql`
    select iccid, operator_id from cards where cust_id = ${owner.custId} and state = 64 order by iccid limit 2`));
  const states = [S.Enabled, S.Bound];
  const rows = cards.map((c, i) => ({ iccid: c.iccid, eid: EIDS[i], op: Number(c.operator_id), state: states[i] }));
  for (const r of rows) {
    await tx.execute(sql`insert into euicc_profiles (iccid, eid, operator_id, state, smdp_address, matching_id, cust_id, root_cust_id)
      values (${r.iccid}, ${r.eid}, ${r.op}, ${r.state}, ${address}, ${matchingId(r.iccid, r.eid)}, ${owner.custId}, ${owner.rootCustId})`);
    await tx.execute(sql`update cards set euicc = true, eid = ${r.eid} where iccid = ${r.iccid}`);
  }
  await tx.execute(sql`insert into euicc_profiles (iccid, operator_id, state, smdp_address, cust_id, root_cust_id)
    select unnest(${sql.param(STOCK)}::text[]), ${Operator.ChinaMobile}, ${S.Unbound}, ${address}, ${owner.custId}::int, ${owner.rootCustId}::int`);
}
