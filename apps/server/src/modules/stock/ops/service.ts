// Stock › Stock operations (11030000; docs/stock.md): validate first (a batch in state "validated" with one item per
// ICCID and its verdict, nothing else changes), then confirm (the job runs it) or cancel; lists, detail and items with
// the failure reasons in the caller's language.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { ErrorCode, Operator, StockBatchState, StockItemStatus, StockMatchState, StockOpType, StockVerdict, errorMessage, stock as api, type BodyOf, type Lang } from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { audit } from '../../../platform/audit.ts';
import type { Actor, SessionContext } from '../../../platform/context.ts';
import { iso, pageOf } from '../../../platform/paging.ts';
import { checkSelectionSize, checkTexts, countCapped, rowsOf, staffOnly, stockWhere } from '../items/service.ts';
import { inRowRefusal, opRefusal, type Refusal } from '../rules.ts';

type ValidateBody = BodyOf<typeof api.validateStockOp>;
interface Item { iccid: string; imsi: string | null; msisdn: string | null; sn: string | null; refusal: Refusal | null }

export const refusalText = (r: Refusal, lang: Lang) => errorMessage(r.code, lang, r[lang]);

/** The items (and cards) of these ICCIDs as the rules read them, in one statement. */
export async function loadStates(ex: Executor, iccids: string[], lock = false) {
  const rows = rowsOf<{ iccid: string; match_state: number; out_state: number; imsi: string | null; msisdn: string | null; operator_id: number; card_state: number | null; card_cust: number | null; has_card: boolean }>(
    await ex.execute(sql`
      select s.iccid, s.match_state, s.out_state, s.imsi, s.msisdn, s.operator_id, c.state card_state, c.cust_id card_cust, c.iccid is not null has_card
      from stock_items s left join cards c on c.iccid = s.iccid
      where s.iccid = any(${sql.param(iccids)}::text[]) ${lock ? sql`for update of s` : sql``}`));
  const cards = rowsOf<{ iccid: string; state: number; cust_id: number | null }>(await ex.execute(sql`
    select iccid, state, cust_id from cards where iccid = any(${sql.param(iccids)}::text[]) ${lock ? sql`for update` : sql``}`));
  const cardOf = new Map(cards.map((c) => [c.iccid, { state: Number(c.state), custId: c.cust_id == null ? null : Number(c.cust_id) }]));
  return new Map(rows.map((r) => [r.iccid, {
    item: { matchState: Number(r.match_state), outState: Number(r.out_state), imsi: r.imsi, msisdn: r.msisdn, operatorId: Number(r.operator_id) },
    card: cardOf.get(r.iccid) ?? null,
  }]));
}

const opOf = (r: Record<string, unknown>) => ({
  batchId: String(r.batch_id), type: Number(r.type), state: Number(r.state), params: (r.params ?? {}) as Record<string, unknown>,
  createdBy: String(r.created_by), total: Number(r.total_count), valid: Number(r.valid_count), invalid: Number(r.invalid_count),
  duplicates: Number(r.duplicate_count), succeeded: Number(r.succeeded_count), failed: Number(r.failed_count), processed: Number(r.processed_count),
  createdAt: iso(new Date(r.created_at as string))!, confirmedAt: r.confirmed_at ? iso(new Date(r.confirmed_at as string)) : null,
  finishedAt: r.finished_at ? iso(new Date(r.finished_at as string)) : null,
});

export class StockOpService {
  constructor(private db: Db, private enqueue: (batchId: string) => Promise<void>) {}

  async validate(b: ValidateBody, ctx: SessionContext) {
    staffOnly(ctx.actor);
    if (!StockOpType.has(b.type)) throw new AppError(ErrorCode.Validation, { field: 'type', reason: '-' }, 400, { field: 'type' });
    const params: Record<string, unknown> = {};
    let items: Item[];
    let duplicates = 0;
    if (b.type === StockOpType.In) {
      if (!b.operatorId || !Operator.has(b.operatorId)) throw new AppError(ErrorCode.StockOperatorRequired, undefined, 200, { field: 'operatorId' });
      const location = b.location?.trim() ?? '';
      const remark = b.remark?.trim() ?? '';
      checkTexts(location, remark);
      Object.assign(params, { operatorId: b.operatorId, location, remark, balanceType: b.balanceType ?? 1 });
      const seen = new Map<string, Item>();
      for (const r of b.rows ?? []) {
        const iccid = r.iccid.trim();
        if (!iccid) continue;
        if (seen.has(iccid)) { duplicates++; continue; }
        const row = { iccid, imsi: r.imsi?.trim() || null, msisdn: r.msisdn?.trim() || null, sn: r.sn?.trim() || null };
        seen.set(iccid, { ...row, refusal: inRowRefusal(row) });
      }
      items = [...seen.values()];
      checkSelectionSize(items.length);
      const exists = new Set(rowsOf<{ iccid: string }>(await this.db.execute(sql`
        select iccid from stock_items where iccid = any(${sql.param(items.map((i) => i.iccid))}::text[])`)).map((r) => r.iccid));
      for (const i of items) if (!i.refusal && exists.has(i.iccid)) i.refusal = { code: ErrorCode.StockAlreadyInStock };
    } else {
      let iccids: string[];
      if (b.filter) {
        const where = stockWhere(b.filter);
        // the count first, before any item is read: over 10,000 is refused (spec §9)
        const n = await countCapped(this.db, where, api.STOCK_BATCH_MAX);
        checkSelectionSize(n > api.STOCK_BATCH_MAX ? await countCapped(this.db, where, api.STOCK_ROWS_MAX) : n);
        iccids = rowsOf<{ iccid: string }>(await this.db.execute(sql`select iccid from stock_items where ${where} order by iccid limit ${api.STOCK_BATCH_MAX}`)).map((r) => r.iccid);
        params.filter = b.filter;
      } else {
        const all = (b.iccids ?? []).map((s) => s.trim()).filter(Boolean);
        iccids = [...new Set(all)];
        duplicates = all.length - iccids.length;
      }
      checkSelectionSize(iccids.length);
      const states = await loadStates(this.db, iccids);
      items = iccids.map((iccid) => {
        const s = states.get(iccid);
        return { iccid, imsi: null, msisdn: null, sn: null, refusal: opRefusal(b.type, s?.item ?? null, s?.card ?? null) };
      });
    }
    const batchId = crypto.randomUUID();
    const valid = items.filter((i) => !i.refusal).length;
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`insert into stock_batches (batch_id, type, params, creator_account_id, created_by, total_count, valid_count, invalid_count, duplicate_count)
        values (${batchId}::uuid, ${b.type}, ${JSON.stringify(params)}::jsonb, ${ctx.actor.accountId}, ${ctx.actor.loginName}, ${items.length}, ${valid},
          ${items.length - valid}, ${duplicates})`);
      const col = <T>(f: (i: Item, n: number) => T) => sql.param(items.map(f));
      await tx.execute(sql`insert into stock_batch_items (batch_id, seq, iccid, imsi, msisdn, sn, verdict, reason_zh, reason_en, status)
        select ${batchId}::uuid, t.seq, t.iccid, t.imsi, t.msisdn, t.sn, t.verdict, t.zh, t.en, t.status
        from unnest(${col((_i, n) => n + 1)}::int[], ${col((i) => i.iccid)}::text[], ${col((i) => i.imsi)}::text[], ${col((i) => i.msisdn)}::text[],
          ${col((i) => i.sn)}::text[], ${col((i) => (i.refusal ? StockVerdict.Invalid : StockVerdict.Valid))}::smallint[],
          ${col((i) => (i.refusal ? refusalText(i.refusal, 'zh') : null))}::text[], ${col((i) => (i.refusal ? refusalText(i.refusal, 'en') : null))}::text[],
          ${col((i) => (i.refusal ? StockItemStatus.Skipped : StockItemStatus.Pending))}::smallint[])
          as t (seq, iccid, imsi, msisdn, sn, verdict, zh, en, status)`);
      await audit(tx, ctx, { entity: 'stockBatch', entityId: batchId, custId: null, rootCustId: null, after: { type: b.type, params, total: items.length, valid } });
    });
    return { batchId, total: items.length, valid, invalid: items.length - valid, duplicates };
  }

  /** Validated → running, then the job. A match claims its items ("matching") here, so two batches never match one item. */
  async confirm(batchId: string, ctx: SessionContext) {
    staffOnly(ctx.actor);
    await this.db.transaction(async (tx) => {
      const [b] = rowsOf<{ state: number; valid_count: number; type: number }>(await tx.execute(sql`
        select state, valid_count, type from stock_batches where batch_id = ${batchId}::uuid for update`));
      if (!b) throw notFound();
      if (Number(b.state) !== StockBatchState.Validated) throw new AppError(ErrorCode.StockBatchNotValidated);
      if (Number(b.valid_count) === 0) throw new AppError(ErrorCode.StockBatchNothingValid);
      await tx.execute(sql`update stock_batches set state = ${StockBatchState.Running}, confirmed_at = now(), heartbeat_at = now() where batch_id = ${batchId}::uuid`);
      if (Number(b.type) === StockOpType.Match) {
        const r = { code: ErrorCode.StockNotMatchable, zh: { state: StockMatchState.label(StockMatchState.Matching, 'zh') }, en: { state: StockMatchState.label(StockMatchState.Matching, 'en') } };
        // claim the items still not matched; those another operation claimed or changed since validation fail now
        const claimed = new Set(rowsOf<{ iccid: string }>(await tx.execute(sql`
          update stock_items s set match_state = ${StockMatchState.Matching}, updated_at = now()
          from stock_batch_items i
          where i.batch_id = ${batchId}::uuid and i.status = ${StockItemStatus.Pending} and s.iccid = i.iccid and s.match_state = ${StockMatchState.NotMatched}
          returning s.iccid`)).map((x) => x.iccid));
        const pending = rowsOf<{ seq: number; iccid: string }>(await tx.execute(sql`
          select seq, iccid from stock_batch_items where batch_id = ${batchId}::uuid and status = ${StockItemStatus.Pending}`));
        const lost = pending.filter((p) => !claimed.has(p.iccid)).map((p) => Number(p.seq));
        if (lost.length) {
          await tx.execute(sql`
            update stock_batch_items set status = ${StockItemStatus.Failed}, error_zh = ${refusalText(r, 'zh')}, error_en = ${refusalText(r, 'en')}, done_at = now()
            where batch_id = ${batchId}::uuid and seq = any(${sql.param(lost)}::int[])`);
        }
      }
      await audit(tx, ctx, { entity: 'stockBatch', entityId: batchId, custId: null, rootCustId: null, before: { state: StockBatchState.Validated }, after: { state: StockBatchState.Running } });
    });
    await this.enqueue(batchId);
    return { batchId, state: StockBatchState.Running };
  }

  async cancel(batchId: string, ctx: SessionContext) {
    staffOnly(ctx.actor);
    await this.db.transaction(async (tx) => {
      const [b] = rowsOf<{ state: number }>(await tx.execute(sql`select state from stock_batches where batch_id = ${batchId}::uuid for update`));
      if (!b) throw notFound();
      if (Number(b.state) !== StockBatchState.Validated) throw new AppError(ErrorCode.StockBatchNotValidated);
      await tx.execute(sql`update stock_batches set state = ${StockBatchState.Cancelled}, cancelled_at = now() where batch_id = ${batchId}::uuid`);
      await audit(tx, ctx, { entity: 'stockBatch', entityId: batchId, custId: null, rootCustId: null, before: { state: StockBatchState.Validated }, after: { state: StockBatchState.Cancelled } });
    });
    return { batchId, state: StockBatchState.Cancelled };
  }

  async page(q: BodyOf<typeof api.getStockOpPage>, actor: Actor) {
    staffOnly(actor);
    const p = pageOf(q);
    const where = sql.join([
      sql`true`,
      ...(q.type !== undefined ? [sql`type = ${q.type}`] : []),
      ...(q.state !== undefined ? [sql`state = ${q.state}`] : []),
    ], sql` and `);
    const [rows, [{ n }]] = await Promise.all([
      this.db.execute(sql`select * from stock_batches where ${where} order by created_at desc, batch_id limit ${p.limit} offset ${p.offset}`).then((r) => rowsOf<Record<string, unknown>>(r)),
      this.db.execute(sql`select count(*)::int n from stock_batches where ${where}`).then((r) => rowsOf<{ n: number }>(r)),
    ]);
    return { list: rows.map(opOf), total: Number(n), current: p.current, pageSize: p.pageSize };
  }

  async detail(batchId: string, actor: Actor) {
    staffOnly(actor);
    const [r] = rowsOf<Record<string, unknown>>(await this.db.execute(sql`select * from stock_batches where batch_id = ${batchId}::uuid`));
    if (!r) throw notFound();
    return opOf(r);
  }

  async items(q: BodyOf<typeof api.getStockOpItemPage>, actor: Actor, lang: Lang) {
    await this.detail(q.batchId, actor);
    const p = pageOf(q);
    const where = sql.join([
      sql`batch_id = ${q.batchId}::uuid`,
      ...(q.status !== undefined ? [sql`status = ${q.status}`] : []),
      ...(q.failedOnly ? [sql`status in (${StockItemStatus.Failed}, ${StockItemStatus.Skipped})`] : []),
    ], sql` and `);
    const [rows, [{ n }]] = await Promise.all([
      this.db.execute(sql`select * from stock_batch_items where ${where} order by seq limit ${p.limit} offset ${p.offset}`).then((r) => rowsOf<Record<string, unknown>>(r)),
      this.db.execute(sql`select count(*)::int n from stock_batch_items where ${where}`).then((r) => rowsOf<{ n: number }>(r)),
    ]);
    return {
      list: rows.map((r) => ({
        seq: Number(r.seq), iccid: String(r.iccid), imsi: (r.imsi as string | null) ?? null, msisdn: (r.msisdn as string | null) ?? null, sn: (r.sn as string | null) ?? null,
        verdict: Number(r.verdict), status: Number(r.status),
        reason: ((lang === 'zh' ? (r.error_zh ?? r.reason_zh) : (r.error_en ?? r.reason_en)) as string | null) ?? null,
        doneAt: r.done_at ? iso(new Date(r.done_at as string)) : null,
      })),
      total: Number(n), current: p.current, pageSize: p.pageSize,
    };
  }
}
