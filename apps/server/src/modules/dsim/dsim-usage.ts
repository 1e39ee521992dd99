// A super SIM's device uses one profile at a time (issue 16; docs/super-sim.md "Usage"): only the member card of the
// super SIM's current operator can attach. The usage feed (and the operator bill fetch) asks this module when each
// member card was not the current profile and bars it then, like a blocked pool bars its members, so the network
// simulator gives sessions and usage to the current member only, and after a confirmed switch to the new one.
import { sql } from 'drizzle-orm';
import { DsimSwitchState } from '@lynx/contract';
import type { Executor } from '../../db/client.ts';

const rows = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));

export interface MemberBar {
  from: number;
  to: number;
}

/**
 * The times in [since, to) when each super SIM member of `iccids` was not its super SIM's current profile, from the
 * super SIM's creation on (before the import the card was an ordinary card). The operator in use at `since` is the
 * target of the last confirmed switch before it, else the origin of the first confirmed switch after it (also one after
 * `to`: the answer must not depend on how the time is cut into windows), else the current operator; each confirmed
 * switch (at its `done_at`) moves it. One statement for the whole chunk.
 */
export async function superSimBars(ex: Executor, iccids: string[], since: Date, to: Date): Promise<Map<string, MemberBar[]>> {
  const out = new Map<string, MemberBar[]>();
  if (iccids.length === 0) return out;
  const ok = DsimSwitchState.Succeeded;
  const found = rows<{ iccid: string; bar_from: Date | string; bar_to: Date | string | null }>(await ex.execute(sql`
    with m as (
      select dm.iccid, dm.sn, dm.operator_id, d.current_operator_id as cur, d.created_at
      from dsim_members dm join dsims d on d.sn = dm.sn
      where dm.iccid = any(${sql.param(iccids)}::text[])
    ),
    s as (select distinct sn, cur from m),
    sw as (
      select w.sn, w.from_operator_id, w.to_operator_id, w.done_at from dsim_switches w
      where w.sn in (select sn from s) and w.state = ${ok}
        and w.done_at > ${since.toISOString()}::timestamptz and w.done_at < ${to.toISOString()}::timestamptz
    ),
    -- the operator in use at since: after the last confirmed switch before it, else before the first one after it (however
    -- late: a window that ends before a switch still had the switch's origin), else the current one
    at_since as (
      select s.sn, coalesce(
        (select x.to_operator_id from dsim_switches x where x.sn = s.sn and x.state = ${ok} and x.done_at <= ${since.toISOString()}::timestamptz
          order by x.done_at desc limit 1),
        (select y.from_operator_id from dsim_switches y where y.sn = s.sn and y.state = ${ok} and y.done_at > ${since.toISOString()}::timestamptz
          order by y.done_at limit 1),
        s.cur) as op
      from s
    ),
    seg as (
      select sn, ${since.toISOString()}::timestamptz as at, op from at_since
      union all
      select sn, done_at, to_operator_id from sw
    ),
    span as (select sn, op, at as seg_from, lead(at) over (partition by sn order by at) as seg_to from seg)
    select m.iccid, greatest(span.seg_from, m.created_at) as bar_from, span.seg_to as bar_to
    from m join span on span.sn = m.sn
    where span.op <> m.operator_id and (span.seg_to is null or span.seg_to > m.created_at)
    order by m.iccid, bar_from`));
  for (const r of found) {
    const list = out.get(r.iccid) ?? [];
    list.push({ from: new Date(r.bar_from).getTime(), to: r.bar_to == null ? Infinity : new Date(r.bar_to).getTime() });
    out.set(r.iccid, list);
  }
  return out;
}
