// Set-based writes of one chunk of the usage feed: a handful of statements per chunk however many cards, each
// taking whole columns as arrays (unnest), all in the caller's transaction. Re-writing the same report changes
// nothing: rows are keyed (session id, card and day) and counters merge with greatest(), because an operator's
// counters only grow; the per-customer rollup moves by the difference between the old and the new daily rows.
import { sql, type Column, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { DailyUsageRecord, SessionRecord } from '../../operators/gateway.ts';

export interface CardTenant {
  iccid: string;
  operatorId: number;
  custId: number | null;
  rootCustId: number | null;
  apn: string;
}

const rows = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));

/** `col = any($1)` with one array parameter: thousands of ICCIDs bind as one value, not one placeholder each. */
export const anyIccid = (col: Column, iccids: string[]): SQL => sql`${col} = any(${sql.param(iccids)}::text[])`;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Upserts the reported sessions; returns how many rows were written. */
export async function writeSessions(ex: Executor, sessions: SessionRecord[], tenants: Map<string, CardTenant>, reportedAt: Date): Promise<number> {
  if (sessions.length === 0) return 0;
  const list = sessions.filter((s) => tenants.has(s.iccid));
  const col = <T>(f: (s: SessionRecord, t: CardTenant) => T) => sql.param(list.map((s) => f(s, tenants.get(s.iccid)!)));
  await ex.execute(sql`
    insert into card_sessions as s (iccid, session_id, started_at, ended_at, reported_at, apn, bytes_up, bytes_down, rat, cell, operator_id, cust_id, root_cust_id)
    select u.iccid, u.session_id, u.started_at, u.ended_at, ${reportedAt.toISOString()}::timestamptz, u.apn, u.bytes_up, u.bytes_down, u.rat, u.cell,
      u.operator_id, u.cust_id, u.root_cust_id
    from unnest(${col((s) => s.iccid)}::text[], ${col((s) => s.sessionId)}::text[], ${col((s) => s.startedAt.toISOString())}::timestamptz[],
      ${col((s) => iso(s.endedAt))}::timestamptz[], ${col((s) => s.apn)}::text[], ${col((s) => s.bytesUp)}::int8[], ${col((s) => s.bytesDown)}::int8[],
      ${col((s) => s.rat)}::int2[], ${col((s) => s.cell)}::text[], ${col((_s, t) => t.operatorId)}::int2[], ${col((_s, t) => t.custId)}::int4[],
      ${col((_s, t) => t.rootCustId)}::int4[])
      as u (iccid, session_id, started_at, ended_at, apn, bytes_up, bytes_down, rat, cell, operator_id, cust_id, root_cust_id)
    on conflict (iccid, started_at, session_id) do update set
      ended_at = coalesce(excluded.ended_at, s.ended_at),
      reported_at = greatest(s.reported_at, excluded.reported_at),
      bytes_up = greatest(s.bytes_up, excluded.bytes_up),
      bytes_down = greatest(s.bytes_down, excluded.bytes_down),
      rat = excluded.rat, cell = excluded.cell`);
  return list.length;
}

/**
 * Closes the sessions of these cards that are still open in the database but that the operator no longer
 * reports as open (the card was deactivated or barred meanwhile): they end when they were last reported.
 * Sessions last at most a day, so only the partitions of the last day before the window are looked at.
 */
export async function closeUnreportedSessions(ex: Executor, iccids: string[], stillOpen: string[], from: Date, to: Date): Promise<void> {
  if (iccids.length === 0) return;
  await ex.execute(sql`
    update card_sessions set ended_at = reported_at
    where iccid = any(${sql.param(iccids)}::text[]) and ended_at is null
      and started_at >= ${new Date(from.getTime() - 86_400_000).toISOString()}::timestamptz
      and started_at < ${to.toISOString()}::timestamptz
      and not (session_id = any(${sql.param(stillOpen)}::text[]))`);
}

/**
 * Upserts the daily counters and moves the per-customer rollup by the difference, in one statement: the `old`
 * CTE reads the rows as they were before the insert (one snapshot for the whole statement). A day's row takes
 * the card's current tenant and link; if those changed, the old row's numbers leave the old rollup key. The cards'
 * maintained cycle usage and SMS count move by the same differences, for the days in each card's current cycle (cycle-columns.ts).
 */
export async function writeDaily(ex: Executor, daily: DailyUsageRecord[], tenants: Map<string, CardTenant>): Promise<number> {
  const list = daily.filter((d) => tenants.has(d.iccid));
  if (list.length === 0) return 0;
  const col = <T>(f: (d: DailyUsageRecord, t: CardTenant) => T) => sql.param(list.map((d) => f(d, tenants.get(d.iccid)!)));
  await ex.execute(sql`
    with input as (
      select * from unnest(${col((d) => d.iccid)}::text[], ${col((d) => d.day)}::date[], ${col((d) => d.bytesUp)}::int8[], ${col((d) => d.bytesDown)}::int8[],
        ${col((d) => d.sms)}::int4[], ${col((d) => d.voiceSeconds)}::int4[], ${col((d) => d.sessions)}::int4[], ${col((_d, t) => t.apn)}::text[],
        ${col((_d, t) => t.operatorId)}::int2[], ${col((_d, t) => t.custId)}::int4[], ${col((_d, t) => t.rootCustId)}::int4[])
        as u (iccid, day, bytes_up, bytes_down, sms, voice_seconds, sessions, apn, operator_id, cust_id, root_cust_id)
    ),
    old as (
      select d.iccid, d.day, d.cust_id, d.root_cust_id, d.operator_id, d.apn, d.bytes, d.sms, d.voice_seconds, d.sessions
      from card_usage_daily d join input i on d.iccid = i.iccid and d.day = i.day
    ),
    new as (
      insert into card_usage_daily as d (iccid, day, bytes_up, bytes_down, bytes, sms, voice_seconds, sessions, apn, operator_id, cust_id, root_cust_id, updated_at)
      select iccid, day, bytes_up, bytes_down, bytes_up + bytes_down, sms, voice_seconds, sessions, apn, operator_id, cust_id, root_cust_id, now() from input
      on conflict (iccid, day) do update set
        bytes_up = greatest(d.bytes_up, excluded.bytes_up),
        bytes_down = greatest(d.bytes_down, excluded.bytes_down),
        bytes = greatest(d.bytes_up, excluded.bytes_up) + greatest(d.bytes_down, excluded.bytes_down),
        sms = greatest(d.sms, excluded.sms),
        voice_seconds = greatest(d.voice_seconds, excluded.voice_seconds),
        sessions = greatest(d.sessions, excluded.sessions),
        apn = excluded.apn, operator_id = excluded.operator_id, cust_id = excluded.cust_id, root_cust_id = excluded.root_cust_id,
        updated_at = now()
      returning d.iccid, d.day, d.cust_id, d.root_cust_id, d.operator_id, d.apn, d.bytes, d.sms, d.voice_seconds, d.sessions
    ),
    diff as (
      select n.iccid, array_agg(n.day) as days, array_agg(n.bytes - coalesce(o.bytes, 0)) as bytes, array_agg(n.sms - coalesce(o.sms, 0)) as sms
      from new n left join old o on o.iccid = n.iccid and o.day = n.day
      where n.bytes <> coalesce(o.bytes, 0) or n.sms <> coalesce(o.sms, 0)
      group by n.iccid
    ),
    -- the card's maintained cycle usage and SMS count (usage/cycle-columns.ts) move by the days of its current cycle; the cycle is
    -- read from the card row itself, so a roll-over committed meanwhile is seen (the row is re-read under its lock)
    cycle_used as (
      update cards c set cycle_used_bytes = c.cycle_used_bytes
          + (select coalesce(sum(x.bytes), 0) from unnest(f.days, f.bytes) as x (day, bytes) where x.day >= c.cycle_from and x.day <= c.cycle_to),
        cycle_sms = c.cycle_sms
          + (select coalesce(sum(x.sms), 0) from unnest(f.days, f.sms) as x (day, sms) where x.day >= c.cycle_from and x.day <= c.cycle_to)::int,
        -- the check after the feed window reads the cards moved since the previous check by this (automation/engine/scan.ts)
        usage_moved_at = now()
      from diff f
      where c.iccid = f.iccid and exists (select 1 from unnest(f.days) as x (day) where x.day >= c.cycle_from and x.day <= c.cycle_to)
      returning 1
    ),
    delta as (
      select day, coalesce(cust_id, 0) as cust_id, coalesce(root_cust_id, 0) as root_cust_id, operator_id, apn,
        bytes, sms::int8 as sms, voice_seconds::int8 as voice_seconds, sessions::int8 as sessions, 1 as cards
      from new
      union all
      select day, coalesce(cust_id, 0), coalesce(root_cust_id, 0), operator_id, apn, -bytes, -sms::int8, -voice_seconds::int8, -sessions::int8, -1
      from old
    )
    insert into card_usage_daily_cust as r (day, cust_id, root_cust_id, operator_id, apn, bytes, sms, voice_seconds, sessions, cards)
    select day, cust_id, max(root_cust_id), operator_id, apn, sum(bytes)::int8, sum(sms)::int8, sum(voice_seconds)::int8, sum(sessions)::int8, sum(cards)::int4
    from delta
    group by day, cust_id, operator_id, apn
    having sum(bytes) <> 0 or sum(sms) <> 0 or sum(voice_seconds) <> 0 or sum(sessions) <> 0 or sum(cards) <> 0
    on conflict (day, cust_id, operator_id, apn) do update set
      bytes = r.bytes + excluded.bytes, sms = r.sms + excluded.sms, voice_seconds = r.voice_seconds + excluded.voice_seconds,
      sessions = r.sessions + excluded.sessions, cards = r.cards + excluded.cards`);
  return list.length;
}

/**
 * Online status, last session and first use of the cards from the report: online while a session is open at the
 * end of the window. The online flag is only written for a live window (one ending about now), so doing an old
 * window again does not turn cards on or off. Only rows whose values change are written.
 */
export async function writeCardActivity(
  ex: Executor, iccids: string[], sessions: SessionRecord[], live: boolean,
): Promise<void> {
  if (iccids.length === 0) return;
  const open = new Set<string>();
  const last = new Map<string, number>();
  const first = new Map<string, number>();
  for (const s of sessions) {
    const t = s.startedAt.getTime();
    if (s.endedAt === null) open.add(s.iccid);
    if (t > (last.get(s.iccid) ?? -Infinity)) last.set(s.iccid, t);
    if (t < (first.get(s.iccid) ?? Infinity)) first.set(s.iccid, t);
  }
  const at = (m: Map<string, number>, k: string) => (m.has(k) ? new Date(m.get(k)!).toISOString() : null);
  await ex.execute(sql`
    update cards c set
      online = case when ${live}::boolean then u.online else c.online end,
      last_session_at = greatest(c.last_session_at, u.last_at),
      first_used_at = coalesce(c.first_used_at, u.first_at)
    from unnest(${sql.param(iccids)}::text[], ${sql.param(iccids.map((i) => open.has(i)))}::bool[],
      ${sql.param(iccids.map((i) => at(last, i)))}::timestamptz[], ${sql.param(iccids.map((i) => at(first, i)))}::timestamptz[])
      as u (iccid, online, last_at, first_at)
    where c.iccid = u.iccid
      and ((${live}::boolean and c.online <> u.online) or u.last_at > coalesce(c.last_session_at, '-infinity'::timestamptz) or (c.first_used_at is null and u.first_at is not null))`);
}

export { rows };
