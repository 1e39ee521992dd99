// The stock operations as batches of the card batch engine (docs/batch.md "Batches of other modules"; docs/stock.md):
// the engine claims a chunk of a confirmed stock batch's pending items (FOR UPDATE SKIP LOCKED) and calls this handler
// inside the chunk's transaction, then writes the items' outcomes in the same transaction, so a crash or a restart
// loses only open chunks and the resumed job does every remaining item exactly once. Set-based per chunk: one locked
// read, one insert / update per kind, one change-list insert, one audit row.
import { sql } from 'drizzle-orm';
import { CardState, ErrorCode, StockChangeKind, StockMatchState, StockOpType, StockOutState, batch, stock as api } from '@lynx/contract';
import type { Tx } from '../../../db/client.ts';
import { audit } from '../../../platform/audit.ts';
import { isStaff, type SessionContext } from '../../../platform/context.ts';
import { registerBatchHandler, type BatchItem, type BatchOutcome } from '../../card/batch/handlers.ts';
import { rowsOf } from '../items/service.ts';
import { opRefusal, type Refusal } from '../rules.ts';
import { loadStates, refusalText } from './states.ts';

const { BatchType, BatchItemStatus } = batch;

/** StockOpType (the stock screens' 1-4) ↔ the engine's batch type (20-23). */
export const STOCK_BATCH_TYPES: readonly number[] = [BatchType.StockIn, BatchType.StockMatch, BatchType.StockOut, BatchType.StockScrap];
export const batchTypeOf = (op: number) => STOCK_BATCH_TYPES[op - 1];
export const opTypeOf = (type: number) => STOCK_BATCH_TYPES.indexOf(type) + 1;

/** what a stock-in item carries besides its ICCID (card_batch_items.payload) */
export interface InPayload { imsi?: string | null; msisdn?: string | null; sn?: string | null; location?: string | null; balanceType?: number | null }

/** items per chunk: a stock item is a light row, twice the card engine's */
const CHUNK = 500;

const ok = (seq: number): BatchOutcome => ({ seq, status: BatchItemStatus.Succeeded, zh: null, en: null });
const failed = (seq: number, r: Refusal): BatchOutcome => ({ seq, status: BatchItemStatus.Failed, zh: refusalText(r, 'zh'), en: refusalText(r, 'en') });

type Run = { batchId: string; type: number; params: Record<string, unknown> };

async function apply(tx: Tx, ctx: SessionContext, run: Run, items: BatchItem[]): Promise<BatchOutcome[]> {
  const op = opTypeOf(run.type);
  let outcomes: BatchOutcome[];
  if (!isStaff(ctx.actor) || !ctx.actor.permissions.has(api.StockPerm.Operations)) {
    // the warehouse is the platform's: a creator no longer operator staff runs nothing (a match's claims are released)
    if (op === StockOpType.Match) await release(tx, run, items.map((i) => i.iccid));
    outcomes = items.map((i) => failed(i.seq, { code: ErrorCode.StockBatchCreatorInactive }));
  } else {
    outcomes = op === StockOpType.In ? await stockIn(tx, ctx, run, items) : await change(tx, ctx, run, op, items);
  }
  const done = outcomes.filter((o) => o.status === BatchItemStatus.Succeeded).length;
  await audit(tx, ctx, {
    entity: 'stockBatchChunk', entityId: run.batchId, custId: null, rootCustId: null,
    after: { type: op, succeeded: done, failed: outcomes.length - done, fromSeq: items[0].seq, toSeq: items[items.length - 1].seq },
  });
  return outcomes;
}

/** Stock in: the received rows become stock items (an ICCID already in stock fails its item). */
async function stockIn(tx: Tx, ctx: SessionContext, run: Run, items: BatchItem[]): Promise<BatchOutcome[]> {
  const p = run.params as { operatorId: number; location?: string; remark?: string; balanceType?: number };
  const pay = (i: BatchItem) => (i.payload ?? {}) as InPayload;
  const col = <T>(f: (i: BatchItem) => T) => sql.param(items.map(f));
  const inserted = new Set(rowsOf<{ iccid: string }>(await tx.execute(sql`
    with ins as (
      insert into stock_items (iccid, imsi, msisdn, sn, operator_id, location, remark, balance_type, in_batch_id)
      select t.iccid, t.imsi, t.msisdn, t.sn, ${p.operatorId}::smallint, coalesce(t.location, ${p.location ?? ''}::text), ${p.remark ?? ''}::text,
        coalesce(t.balance, ${p.balanceType ?? 1}::smallint), ${run.batchId}::uuid
      from unnest(${col((i) => i.iccid)}::text[], ${col((i) => pay(i).imsi ?? null)}::text[], ${col((i) => pay(i).msisdn ?? null)}::text[],
        ${col((i) => pay(i).sn ?? null)}::text[], ${col((i) => pay(i).location ?? null)}::text[], ${col((i) => pay(i).balanceType ?? null)}::smallint[])
        as t (iccid, imsi, msisdn, sn, location, balance)
      on conflict (iccid) do nothing
      returning iccid, imsi, msisdn, sn, location
    ), ch as (
      insert into stock_changes (iccid, change_id, kind, batch_id, login_name, after)
      select iccid, gen_random_uuid(), ${StockChangeKind.Received}::smallint, ${run.batchId}::uuid, ${ctx.actor.loginName}::text,
        jsonb_strip_nulls(jsonb_build_object('imsi', imsi, 'msisdn', msisdn, 'sn', sn, 'location', location)) from ins
    ) select iccid from ins`)).map((r) => r.iccid));
  return items.map((i) => (inserted.has(i.iccid) ? ok(i.seq) : failed(i.seq, { code: ErrorCode.StockAlreadyInStock })));
}

const ids = (xs: string[]) => sql`${sql.param(xs)}::text[]`;
const changeRows = (tx: Tx, run: Run, who: string, kind: number, xs: string[], after: Record<string, number>) => (xs.length ? tx.execute(sql`
  insert into stock_changes (iccid, change_id, kind, batch_id, login_name, after)
  select x, gen_random_uuid(), ${kind}::smallint, ${run.batchId}::uuid, ${who}::text, ${JSON.stringify(after)}::jsonb from unnest(${ids(xs)}) x`) : null);

/** A match's items it claimed at confirm ("matching") and will not match go back to "not matched". */
async function release(tx: Tx, run: Run, iccids: string[]): Promise<void> {
  const back = rowsOf<{ iccid: string }>(await tx.execute(sql`
    update stock_items set match_state = ${StockMatchState.NotMatched}, updated_at = now()
    where iccid = any(${ids(iccids)}) and match_state = ${StockMatchState.Matching} returning iccid`)).map((r) => r.iccid);
  await changeRows(tx, run, '-', StockChangeKind.MatchFailed, back, { matchState: StockMatchState.NotMatched });
}

/** Match, out and scrap: each item checked again on its locked row, then one statement per outcome kind. */
async function change(tx: Tx, ctx: SessionContext, run: Run, op: number, items: BatchItem[]): Promise<BatchOutcome[]> {
  const states = await loadStates(tx, items.map((i) => i.iccid), true);
  const out: BatchOutcome[] = [];
  const go: string[] = [];
  const revert: string[] = [];
  for (const i of items) {
    const s = states.get(i.iccid);
    // a match claimed its items at confirm: "matching" reads as "not matched" here (a batch confirmed through the card
    // batch screen claimed nothing: its items are still "not matched", checked alike on the locked row)
    const item = s && op === StockOpType.Match && s.item.matchState === StockMatchState.Matching ? { ...s.item, matchState: StockMatchState.NotMatched } : s?.item ?? null;
    const refusal = opRefusal(op, item, s?.card ?? null);
    if (refusal) {
      out.push(failed(i.seq, refusal));
      if (op === StockOpType.Match && s?.item.matchState === StockMatchState.Matching) revert.push(i.iccid);
    } else {
      out.push(ok(i.seq));
      go.push(i.iccid);
    }
  }
  const who = ctx.actor.loginName;
  const record = (kind: number, xs: string[], after: Record<string, number>) => changeRows(tx, run, who, kind, xs, after);
  if (revert.length) {
    await tx.execute(sql`update stock_items set match_state = ${StockMatchState.NotMatched}, updated_at = now() where iccid = any(${ids(revert)})`);
    await record(StockChangeKind.MatchFailed, revert, { matchState: StockMatchState.NotMatched });
  }
  if (!go.length) return out;
  switch (op) {
    case StockOpType.Match:
      // the three codes become a card in the platform stock: no customer, start state, until it is allocated
      await tx.execute(sql`
        insert into cards (iccid, imsi, msisdn, operator_id, state)
        select iccid, imsi, msisdn, operator_id, ${CardState.Start}::smallint from stock_items where iccid = any(${ids(go)})
        on conflict (iccid) do nothing`);
      await tx.execute(sql`update stock_items set match_state = ${StockMatchState.Matched}, matched_at = now(), updated_at = now() where iccid = any(${ids(go)})`);
      await record(StockChangeKind.Matched, go, { matchState: StockMatchState.Matched });
      break;
    case StockOpType.Out: {
      // picked for a customer: "outgoing" until the card is allocated (then the cards trigger makes it "out");
      // a card allocated already is out at once
      const allocated = go.filter((iccid) => states.get(iccid)?.card?.custId != null);
      const waiting = go.filter((iccid) => states.get(iccid)?.card?.custId == null);
      if (waiting.length) {
        await tx.execute(sql`update stock_items set out_state = ${StockOutState.Outgoing}, updated_at = now() where iccid = any(${ids(waiting)})`);
        await record(StockChangeKind.Outgoing, waiting, { outState: StockOutState.Outgoing });
      }
      if (allocated.length) {
        await tx.execute(sql`update stock_items set out_state = ${StockOutState.Out}, out_at = now(), updated_at = now() where iccid = any(${ids(allocated)})`);
        await record(StockChangeKind.Out, allocated, { outState: StockOutState.Out });
      }
      break;
    }
    case StockOpType.Scrap:
      // a matched item's card never left the platform stock (checked on the locked row): it goes with the item
      await tx.execute(sql`delete from cards where iccid = any(${ids(go)}) and cust_id is null and state = ${CardState.Start}`);
      await tx.execute(sql`update stock_items set match_state = ${StockMatchState.Scrapped}, out_state = ${StockOutState.Scrapped}, scrapped_at = now(), updated_at = now()
        where iccid = any(${ids(go)})`);
      await record(StockChangeKind.Scrapped, go, { matchState: StockMatchState.Scrapped, outState: StockOutState.Scrapped });
      break;
    default:
      break;
  }
  return out;
}

export const stockBatchHandler = { apply, chunk: CHUNK };
registerBatchHandler(STOCK_BATCH_TYPES, stockBatchHandler);
