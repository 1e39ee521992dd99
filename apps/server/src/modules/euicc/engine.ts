// Pending eUICC operations (docs/euicc.md). A download / enable / disable / delete is a batch of the card batch engine
// whose job places the operation on the profile row itself (op_id, op_action, op_deadline; batch.ts), so the database
// is the one durable record of what is in flight. The pg-boss job `euicc-dispatch` then sends the unsent operations
// to the SM-DP+ a chunk at a time (FOR UPDATE SKIP LOCKED, the op_id as the idempotency key, so a chunk redone
// after a crash sends the same ids and the SM-DP+ does nothing twice); the SM-DP+'s answers move the profiles set-based; an operation past its deadline
// ends in its failed state with the reason "no answer". A restart loses nothing: unsent rows are sent by the next
// dispatch (the per-minute sweep queues one), unanswered ones time out.
import { sql, type SQL } from 'drizzle-orm';
import { ErrorCode, EuiccAction, EuiccEvent, EUICC_TRANSITIONS, errorMessage, type EuiccEventValue } from '@lynx/contract';
import type { Db } from '../../db/client.ts';
import type { Jobs } from '../../platform/jobs.ts';
import { rowsOf } from '../delivery/webhook/rows.ts';
import { EsimRefusal, type EsimGateway, type EsimNotification, type EsimOperationKind } from '../../operators/esim/gateway.ts';

export const EUICC_DISPATCH_QUEUE = 'euicc-dispatch';
export const EUICC_SWEEP_QUEUE = 'euicc-sweep';
const CHUNK = 500;

/** The kind of an SM-DP+ operation for an action, and the events that end it. */
export const ACTIONS: Record<number, { kind: EsimOperationKind; ok: EuiccEventValue; fail: EuiccEventValue | null }> = {
  [EuiccAction.Download]: { kind: 'download', ok: EuiccEvent.DownloadOk, fail: EuiccEvent.DownloadFail },
  [EuiccAction.Enable]: { kind: 'enable', ok: EuiccEvent.EnableOk, fail: EuiccEvent.EnableFail },
  [EuiccAction.Disable]: { kind: 'disable', ok: EuiccEvent.DisableOk, fail: EuiccEvent.DisableFail },
  // delete has no state of its own while in flight: the profile keeps its state until the SM-DP+ confirms
  [EuiccAction.Delete]: { kind: 'delete', ok: EuiccEvent.Delete, fail: null },
};

/** `case op_action when … then <state> end` from the contract's transition table (null: the state does not change). */
function stateCase(col: SQL, which: 'ok' | 'fail'): SQL {
  const arms = Object.entries(ACTIONS)
    .map(([action, a]) => {
      const ev = which === 'ok' ? a.ok : a.fail;
      return ev == null ? null : `when ${Number(action)} then ${EUICC_TRANSITIONS[ev].to}`;
    })
    .filter(Boolean)
    .join(' ');
  return sql`(case ${col} ${sql.raw(arms)} end)`;
}

export interface EuiccEngineDeps {
  db: Db;
  jobs: Jobs;
  database: { kind: 'pglite' | 'postgres' };
}

export class EuiccEngine {
  /** seconds the SM-DP+ has to answer an operation once sent (CMP_EUICC_TIMEOUT_SECONDS, default 120) */
  timeoutSeconds = Math.max(1, Math.trunc(Number(process.env.CMP_EUICC_TIMEOUT_SECONDS)) || 120);
  private inbox: EsimNotification[] = [];
  private applying: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private dispatching = false;
  private stopped = false;

  constructor(
    private deps: EuiccEngineDeps,
    readonly gateway: EsimGateway,
    private log: { error: (obj: unknown, msg: string) => void },
  ) {
    gateway.onNotifications((batch) => this.receive(batch));
    deps.jobs.define(EUICC_DISPATCH_QUEUE, () => this.dispatch(), { retryLimit: 20, expireInSeconds: 600 });
    deps.jobs.define(EUICC_SWEEP_QUEUE, () => this.sweep(), { retryLimit: 0, expireInSeconds: 120 });
    deps.jobs.schedule(EUICC_SWEEP_QUEUE, '* * * * *');
  }

  /** Where workers run: a timeout check every second (the cron sweep is the fallback of a process without workers). */
  startTimer(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.expire().catch((err) => this.log.error({ err }, 'euicc timeout sweep failed')), 1000);
    this.timer.unref?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.gateway.close();
    await this.applying.catch(() => {});
  }

  /** Asks for a dispatch after a request's transaction committed. */
  async kick(): Promise<void> {
    await this.deps.jobs.send(EUICC_DISPATCH_QUEUE, {}, { singletonKey: EUICC_DISPATCH_QUEUE });
  }

  /** The job: sends every unsent operation, a chunk per transaction, until none is left. */
  async dispatch(): Promise<void> {
    if (this.dispatching) return;
    this.dispatching = true;
    try {
      while (!this.stopped && (await this.chunk()) > 0) await new Promise((r) => setImmediate(r));
    } finally {
      this.dispatching = false;
    }
  }

  private chunk(): Promise<number> {
    return this.deps.db.transaction(async (tx) => {
      const rows = rowsOf<{ iccid: string; eid: string; op_id: string; op_action: number; matching_id: string | null }>(await tx.execute(sql`
        select iccid, eid, op_id, op_action, matching_id from euicc_profiles
        where op_id is not null and not op_sent order by iccid limit ${CHUNK} for update skip locked`));
      if (!rows.length) return 0;
      const refused: { opId: string; reason: string }[] = [];
      await Promise.all(rows.map(async (r) => {
        try {
          await this.gateway.requestOperation({ opId: r.op_id, iccid: r.iccid, eid: r.eid, kind: ACTIONS[r.op_action].kind, matchingId: r.matching_id });
        } catch (err) {
          refused.push({ opId: r.op_id, reason: err instanceof EsimRefusal ? err.reason : String((err as Error)?.message ?? err) });
        }
      }));
      const refusedIds = new Set(refused.map((x) => x.opId));
      const sent = rows.filter((r) => !refusedIds.has(r.op_id)).map((r) => r.op_id);
      if (sent.length) {
        await tx.execute(sql`
          update euicc_profiles set op_sent = true, op_deadline = now() + make_interval(secs => ${this.timeoutSeconds})
          where op_id = any(${sql.param(sent)}::uuid[])`);
      }
      if (refused.length) await this.finish(tx, refused.map((x) => ({ opId: x.opId, ok: false, reason: x.reason })));
      return rows.length;
    });
  }

  /** Answers of the SM-DP+: gathered and applied in order, set-based, one statement per bunch. */
  receive(batch: EsimNotification[]): void {
    this.inbox.push(...batch);
    this.applying = this.applying.then(async () => {
      const take = this.inbox.splice(0, this.inbox.length);
      if (!take.length) return;
      try {
        await this.deps.db.transaction((tx) => this.finish(tx, take.map((n) => ({ opId: n.opId, ok: n.ok, reason: n.reason ?? null }))));
      } catch (err) {
        // not lost for good: the operations time out and end failed with "no answer"
        this.log.error({ err, count: take.length }, 'euicc notifications could not be applied');
      }
    });
  }

  /** Ends operations: ok → the success state, failed → the failed state with the SM-DP+'s reason (zh / en). */
  private async finish(ex: Pick<Db, 'execute'>, answers: { opId: string; ok: boolean; reason: string | null }[]): Promise<void> {
    const zh = answers.map((a) => (a.ok ? null : errorMessage(ErrorCode.EuiccSmdpRefused, 'zh', { reason: a.reason ?? '-' })));
    const en = answers.map((a) => (a.ok ? null : errorMessage(ErrorCode.EuiccSmdpRefused, 'en', { reason: a.reason ?? '-' })));
    const done = rowsOf<{ iccid: string; deleted: boolean }>(await ex.execute(sql`
      with t as (
        select * from unnest(${sql.param(answers.map((a) => a.opId))}::uuid[], ${sql.param(answers.map((a) => a.ok))}::boolean[],
          ${sql.param(zh)}::text[], ${sql.param(en)}::text[]) as t (op_id, ok, zh, en)
      ), old as (
        select p.iccid, p.op_action, t.ok, t.zh, t.en from euicc_profiles p join t on t.op_id = p.op_id for update of p
      )
      update euicc_profiles p set
        state = coalesce(case when old.ok then ${stateCase(sql`old.op_action`, 'ok')} else ${stateCase(sql`old.op_action`, 'fail')} end, p.state),
        eid = case when old.ok and old.op_action = ${EuiccAction.Delete} then null else p.eid end,
        matching_id = case when old.ok and old.op_action = ${EuiccAction.Delete} then null else p.matching_id end,
        reason_zh = old.zh, reason_en = old.en,
        op_id = null, op_action = null, op_sent = false, op_deadline = null, state_at = now()
      from old where p.iccid = old.iccid
      returning p.iccid, (old.ok and old.op_action = ${EuiccAction.Delete}) as deleted`));
    const deleted = done.filter((d) => d.deleted).map((d) => d.iccid);
    // the card of a deleted profile is no longer on that eUICC
    if (deleted.length) await ex.execute(sql`update cards set eid = null, updated_at = now() where iccid = any(${sql.param(deleted)}::text[])`);
  }

  /** Operations past their deadline end in their failed state with the reason "no answer within N s". */
  async expire(): Promise<number> {
    const seconds = this.timeoutSeconds;
    const res = await this.deps.db.execute(sql`
      update euicc_profiles set
        state = coalesce(${stateCase(sql`op_action`, 'fail')}, state),
        reason_zh = ${errorMessage(ErrorCode.EuiccNoAnswer, 'zh', { seconds })}, reason_en = ${errorMessage(ErrorCode.EuiccNoAnswer, 'en', { seconds })},
        op_id = null, op_action = null, op_sent = false, op_deadline = null, state_at = now()
      where op_id is not null and op_deadline < now()
      returning iccid`);
    return rowsOf(res).length;
  }

  /** Every minute: time out what is overdue and send what a stopped process left unsent. */
  async sweep(): Promise<void> {
    await this.expire();
    const [pending] = rowsOf<{ n: number }>(await this.deps.db.execute(sql`
      select count(*)::int n from (select 1 from euicc_profiles where op_id is not null and not op_sent limit 1) x`));
    if (pending?.n) await this.dispatch();
  }
}
