// The durable job of a confirmed stock operation, in the card batch engine's design (docs/batch.md): pending items are
// claimed in seq order a chunk at a time (FOR UPDATE SKIP LOCKED), each chunk's stock changes and the items' outcomes
// commit in one transaction, so a crash or a restart loses only open chunks and the resumed job does every remaining
// item exactly once. Set-based per chunk: one locked read, one insert / update per kind, one change-list insert.
import { sql } from 'drizzle-orm';
import { CardState, ErrorCode, StockBatchState, StockChangeKind, StockItemStatus, StockMatchState, StockOpType, StockOutState, errorMessage, stock as api } from '@lynx/contract';
import type { Db, Tx } from '../../../db/client.ts';
import type { Jobs } from '../../../platform/jobs.ts';
import type { SessionStore } from '../../../platform/sessions.ts';
import { audit } from '../../../platform/audit.ts';
import { isStaff, type SessionContext } from '../../../platform/context.ts';
import { rowsOf } from '../items/service.ts';
import { loadStates, refusalText } from './service.ts';
import { opRefusal, type Refusal } from '../rules.ts';

export const STOCK_BATCH_QUEUE = 'stock-batch';
export const STOCK_SWEEP_QUEUE = 'stock-batch-sweep';
const CHUNK = 500;
const CONCURRENCY = 4;
const STALE_SECONDS = 90;
const PROGRESS_MS = 1000;

interface Outcome { seq: number; status: number; zh: string | null; en: string | null }
interface ClaimedItem { seq: number; iccid: string; imsi: string | null; msisdn: string | null; sn: string | null }
interface Run { batchId: string; type: number; params: Record<string, unknown>; ctx: SessionContext; halt: boolean }

const ok = (seq: number): Outcome => ({ seq, status: StockItemStatus.Succeeded, zh: null, en: null });
const failed = (seq: number, r: Refusal): Outcome => ({ seq, status: StockItemStatus.Failed, zh: refusalText(r, 'zh'), en: refusalText(r, 'en') });

export interface StockRunnerDeps {
  db: Db;
  database: { kind: 'pglite' | 'postgres' };
  jobs: Jobs;
  sessions: Pick<SessionStore, 'actorOf'>;
}

export class StockBatchRunner {
  private stopping = false;

  constructor(private deps: StockRunnerDeps, private log: { error: (obj: unknown, msg: string) => void }) {
    deps.jobs.define(STOCK_BATCH_QUEUE, (data: { batchId: string }) => this.run(data.batchId), { retryLimit: 50, expireInSeconds: 3600 });
    deps.jobs.define(STOCK_SWEEP_QUEUE, () => this.sweep(), { retryLimit: 0, expireInSeconds: 300 });
    deps.jobs.schedule(STOCK_SWEEP_QUEUE, '* * * * *');
  }

  async enqueue(batchId: string): Promise<void> {
    await this.deps.jobs.send(STOCK_BATCH_QUEUE, { batchId });
  }

  stop(): void {
    this.stopping = true;
  }

  /** Works through the pending items until none is left; safe to run twice at once or again after a crash. */
  async run(batchId: string): Promise<void> {
    const db = this.deps.db;
    const [b] = rowsOf<{ state: number; type: number; params: Record<string, unknown>; creator_account_id: number }>(await db.execute(sql`
      select state, type, params, creator_account_id from stock_batches where batch_id = ${batchId}::uuid`));
    if (!b || Number(b.state) !== StockBatchState.Running) return;
    const actor = await this.deps.sessions.actorOf(Number(b.creator_account_id));
    if (!actor || !isStaff(actor) || !actor.permissions.has(api.StockPerm.Operations)) {
      await this.failPending(batchId, { code: ErrorCode.StockBatchCreatorInactive });
      await this.finish(batchId);
      return;
    }
    const ctx: SessionContext = { actor, lang: 'zh', ip: '-', endpoint: `job:${STOCK_BATCH_QUEUE}`, tokenHash: null, audited: false };
    const run: Run = { batchId, type: Number(b.type), params: b.params ?? {}, ctx, halt: false };
    const timer = setInterval(() => void this.refreshCounts(batchId).catch(() => {}), PROGRESS_MS);
    try {
      const workers = this.deps.database.kind === 'pglite' ? 1 : CONCURRENCY;
      await Promise.all(Array.from({ length: workers }, async () => {
        try {
          while (!this.stopping && !run.halt && (await this.chunk(run)) > 0) await new Promise((resolve) => setImmediate(resolve));
        } catch (err) {
          run.halt = true;
          throw err;
        }
      }));
    } finally {
      clearInterval(timer);
      await this.refreshCounts(batchId).catch(() => {});
    }
    if (this.stopping) throw new Error(`stock batch ${batchId} interrupted by shutdown; the retry continues it`);
    await this.finish(batchId);
  }

  /** Claims the next pending items and applies them in one transaction; answers how many were claimed. */
  chunk(run: Run): Promise<number> {
    return this.deps.db.transaction(async (tx) => {
      const items = rowsOf<ClaimedItem>(await tx.execute(sql`
        select seq, iccid, imsi, msisdn, sn from stock_batch_items
        where batch_id = ${run.batchId}::uuid and status = ${StockItemStatus.Pending}
        order by seq limit ${CHUNK} for update skip locked`));
      if (!items.length) return 0;
      const outcomes = run.type === StockOpType.In ? await this.stockIn(tx, run, items) : await this.change(tx, run, items);
      const col = (f: (o: Outcome) => unknown) => sql.param(outcomes.map(f));
      await tx.execute(sql`
        update stock_batch_items i set status = t.status, error_zh = t.zh, error_en = t.en, done_at = now()
        from unnest(${col((o) => o.seq)}::int[], ${col((o) => o.status)}::smallint[], ${col((o) => o.zh)}::text[], ${col((o) => o.en)}::text[])
          as t (seq, status, zh, en)
        where i.batch_id = ${run.batchId}::uuid and i.seq = t.seq`);
      const done = outcomes.filter((o) => o.status === StockItemStatus.Succeeded).length;
      await audit(tx, run.ctx, {
        entity: 'stockBatchChunk', entityId: run.batchId, custId: null, rootCustId: null,
        after: { type: run.type, succeeded: done, failed: outcomes.length - done, fromSeq: items[0].seq, toSeq: items[items.length - 1].seq },
      });
      return items.length;
    });
  }

  /** Stock in: the received rows become stock items (an ICCID already in stock fails its item). */
  private async stockIn(tx: Tx, run: Run, items: ClaimedItem[]): Promise<Outcome[]> {
    const p = run.params as { operatorId: number; location: string; remark: string; balanceType: number };
    const col = <T>(f: (i: ClaimedItem) => T) => sql.param(items.map(f));
    const inserted = new Set(rowsOf<{ iccid: string }>(await tx.execute(sql`
      with ins as (
        insert into stock_items (iccid, imsi, msisdn, sn, operator_id, location, remark, balance_type, in_batch_id)
        select t.iccid, t.imsi, t.msisdn, t.sn, ${p.operatorId}::smallint, ${p.location ?? ''}::text, ${p.remark ?? ''}::text, ${p.balanceType ?? 1}::smallint, ${run.batchId}::uuid
        from unnest(${col((i) => i.iccid)}::text[], ${col((i) => i.imsi)}::text[], ${col((i) => i.msisdn)}::text[], ${col((i) => i.sn)}::text[]) as t (iccid, imsi, msisdn, sn)
        on conflict (iccid) do nothing
        returning iccid, imsi, msisdn, sn, location
      ), ch as (
        insert into stock_changes (iccid, change_id, kind, batch_id, login_name, after)
        select iccid, gen_random_uuid(), ${StockChangeKind.Received}::smallint, ${run.batchId}::uuid, ${run.ctx.actor.loginName}::text,
          jsonb_strip_nulls(jsonb_build_object('imsi', imsi, 'msisdn', msisdn, 'sn', sn, 'location', location)) from ins
      ) select iccid from ins`)).map((r) => r.iccid));
    return items.map((i) => (inserted.has(i.iccid) ? ok(i.seq) : failed(i.seq, { code: ErrorCode.StockAlreadyInStock })));
  }

  /** Match, out and scrap: each item checked again on its locked row, then one statement per outcome kind. */
  private async change(tx: Tx, run: Run, items: ClaimedItem[]): Promise<Outcome[]> {
    const states = await loadStates(tx, items.map((i) => i.iccid), true);
    const out: Outcome[] = [];
    const go: string[] = [];
    const revert: string[] = [];
    for (const i of items) {
      const s = states.get(i.iccid);
      // a match claimed its items at confirm: here they are "matching", which the rule reads as "not matched"
      const item = s && run.type === StockOpType.Match && s.item.matchState === StockMatchState.Matching ? { ...s.item, matchState: StockMatchState.NotMatched } : s?.item ?? null;
      const refusal = s && run.type === StockOpType.Match && s.item.matchState !== StockMatchState.Matching
        ? { code: ErrorCode.StockNotMatchable, zh: { state: StockMatchState.label(s.item.matchState, 'zh') }, en: { state: StockMatchState.label(s.item.matchState, 'en') } }
        : opRefusal(run.type, item, s?.card ?? null);
      if (refusal) {
        out.push(failed(i.seq, refusal));
        if (run.type === StockOpType.Match && s?.item.matchState === StockMatchState.Matching) revert.push(i.iccid);
      } else {
        out.push(ok(i.seq));
        go.push(i.iccid);
      }
    }
    const ids = (xs: string[]) => sql`${sql.param(xs)}::text[]`;
    const who = run.ctx.actor.loginName;
    const change = (kind: number, xs: string[], after: Record<string, number>) => (xs.length ? tx.execute(sql`
      insert into stock_changes (iccid, change_id, kind, batch_id, login_name, after)
      select x, gen_random_uuid(), ${kind}::smallint, ${run.batchId}::uuid, ${who}::text, ${JSON.stringify(after)}::jsonb from unnest(${ids(xs)}) x`) : null);
    if (revert.length) {
      await tx.execute(sql`update stock_items set match_state = ${StockMatchState.NotMatched}, updated_at = now() where iccid = any(${ids(revert)})`);
      await change(StockChangeKind.MatchFailed, revert, { matchState: StockMatchState.NotMatched });
    }
    if (!go.length) return out;
    switch (run.type) {
      case StockOpType.Match:
        // the three codes become a card in the platform stock: no customer, start state, until it is allocated
        await tx.execute(sql`
          insert into cards (iccid, imsi, msisdn, operator_id, state)
          select iccid, imsi, msisdn, operator_id, ${CardState.Start}::smallint from stock_items where iccid = any(${ids(go)})
          on conflict (iccid) do nothing`);
        await tx.execute(sql`update stock_items set match_state = ${StockMatchState.Matched}, matched_at = now(), updated_at = now() where iccid = any(${ids(go)})`);
        await change(StockChangeKind.Matched, go, { matchState: StockMatchState.Matched });
        break;
      case StockOpType.Out: {
        // picked for a customer: "outgoing" until the card is allocated (then the cards trigger makes it "out");
        // a card allocated already is out at once
        const allocated = go.filter((iccid) => states.get(iccid)?.card?.custId != null);
        const waiting = go.filter((iccid) => states.get(iccid)?.card?.custId == null);
        if (waiting.length) {
          await tx.execute(sql`update stock_items set out_state = ${StockOutState.Outgoing}, updated_at = now() where iccid = any(${ids(waiting)})`);
          await change(StockChangeKind.Outgoing, waiting, { outState: StockOutState.Outgoing });
        }
        if (allocated.length) {
          await tx.execute(sql`update stock_items set out_state = ${StockOutState.Out}, out_at = now(), updated_at = now() where iccid = any(${ids(allocated)})`);
          await change(StockChangeKind.Out, allocated, { outState: StockOutState.Out });
        }
        break;
      }
      case StockOpType.Scrap:
        // a matched item's card never left the platform stock (checked on the locked row): it goes with the item
        await tx.execute(sql`delete from cards where iccid = any(${ids(go)}) and cust_id is null and state = ${CardState.Start}`);
        await tx.execute(sql`update stock_items set match_state = ${StockMatchState.Scrapped}, out_state = ${StockOutState.Scrapped}, scrapped_at = now(), updated_at = now()
          where iccid = any(${ids(go)})`);
        await change(StockChangeKind.Scrapped, go, { matchState: StockMatchState.Scrapped, outState: StockOutState.Scrapped });
        break;
      default:
        break;
    }
    return out;
  }

  private async refreshCounts(batchId: string): Promise<void> {
    await this.deps.db.execute(sql`
      update stock_batches b set succeeded_count = c.s, failed_count = c.f, processed_count = c.s + c.f, heartbeat_at = now()
      from (select count(*) filter (where status = ${StockItemStatus.Succeeded})::int s, count(*) filter (where status = ${StockItemStatus.Failed})::int f
            from stock_batch_items where batch_id = ${batchId}::uuid) c
      where b.batch_id = ${batchId}::uuid and b.state = ${StockBatchState.Running}`);
  }

  private async finish(batchId: string): Promise<void> {
    await this.refreshCounts(batchId);
    await this.deps.db.execute(sql`
      update stock_batches set state = ${StockBatchState.Done}, finished_at = now()
      where batch_id = ${batchId}::uuid and state = ${StockBatchState.Running}
        and not exists (select 1 from stock_batch_items where batch_id = ${batchId}::uuid and status = ${StockItemStatus.Pending})`);
  }

  private async failPending(batchId: string, r: Refusal): Promise<void> {
    await this.deps.db.execute(sql`
      update stock_items s set match_state = ${StockMatchState.NotMatched}, updated_at = now()
      from stock_batch_items i, stock_batches b
      where i.batch_id = ${batchId}::uuid and i.status = ${StockItemStatus.Pending} and s.iccid = i.iccid and b.batch_id = i.batch_id
        and b.type = ${StockOpType.Match} and s.match_state = ${StockMatchState.Matching}`);
    await this.deps.db.execute(sql`
      update stock_batch_items set status = ${StockItemStatus.Failed}, error_zh = ${errorMessage(r.code, 'zh')}, error_en = ${errorMessage(r.code, 'en')}, done_at = now()
      where batch_id = ${batchId}::uuid and status = ${StockItemStatus.Pending}`);
  }

  /** Every minute: a running batch with no sign of life is queued again; validated batches not confirmed in a day are cancelled. */
  async sweep(): Promise<void> {
    const stale = rowsOf<{ batch_id: string }>(await this.deps.db.execute(sql`
      update stock_batches set heartbeat_at = now()
      where state = ${StockBatchState.Running} and (heartbeat_at is null or heartbeat_at < now() - make_interval(secs => ${STALE_SECONDS}))
      returning batch_id`));
    for (const s of stale) await this.enqueue(s.batch_id);
    await this.deps.db.execute(sql`
      update stock_batches set state = ${StockBatchState.Cancelled}, cancelled_at = now()
      where state = ${StockBatchState.Validated} and created_at < now() - interval '1 day'`);
  }
}
