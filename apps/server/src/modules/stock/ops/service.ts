// Stock › Stock operations (11030000; docs/stock.md): validate first (a card-engine batch of type 20-23 in state
// "validated" with one item per ICCID and its verdict, nothing else changes), then confirm (the card batch engine runs
// it through the stock handler, handler.ts) or cancel; lists, detail and items with the failure reasons in the
// caller's language. Stock in also takes an xlsx / csv file. Operator staff only, on every call.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import {
  ErrorCode, Operator, StockBalanceType, StockMatchState, StockOpType, batch, carddata, stock as api, type BodyOf, type Lang,
} from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import type { Jobs } from '../../../platform/jobs.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { audit } from '../../../platform/audit.ts';
import type { Actor, SessionContext } from '../../../platform/context.ts';
import { iso, pageOf } from '../../../platform/paging.ts';
import { sendDownload } from '../../../platform/files.ts';
import {
  checkSheetRows, readImportUpload, sheetTemplateCsv, sheetTemplateXlsx, wrongRowsError, type Bilingual as B, type Cells, type SheetImportSpec,
} from '../../../platform/spreadsheet.ts';
import { storeValidatedBatch, type ValidatedItem } from '../../card/batch/handlers.ts';
import { BATCH_QUEUE } from '../../card/batch/runner.ts';
import { enqueueBatchFinished, rowsOf as eventRows, BATCH_EVENT_COLUMNS, type BatchEventRow } from '../../card/batch/events.ts';
import { checkTexts, countCapped, rowsOf, staffOnly, stockWhere } from '../items/service.ts';
import { inRowRefusal, opRefusal, type Refusal } from '../rules.ts';
import { STOCK_BATCH_TYPES, batchTypeOf, opTypeOf, type InPayload } from './handler.ts';
import { loadStates, refusalText } from './states.ts';

export { loadStates, refusalText };

const { BatchState, BatchVerdict, BatchItemStatus, BatchSource } = batch;
type ValidateBody = BodyOf<typeof api.validateStockOp>;
interface Item { iccid: string; payload: InPayload | null; refusal: Refusal | null }
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TYPES = sql.raw(STOCK_BATCH_TYPES.join(', '));

/** spec §9: at most 10,000 items per operation, refused with the card batch's text (20501). */
function checkOpSize(count: number | string): void {
  if (count === 0) throw new AppError(ErrorCode.StockSelectionEmpty);
  if (typeof count === 'string' || count > api.STOCK_BATCH_MAX) throw new AppError(ErrorCode.BatchTooMany, { count, max: api.STOCK_BATCH_MAX });
}

const paramsOf = (p: unknown) => {
  const { type: _type, ...rest } = (p ?? {}) as Record<string, unknown>;
  return rest;
};

const opOf = (r: Record<string, unknown>) => ({
  // params without the engine's type (its `type` is the batch type the runner dispatches on)
  batchId: String(r.batch_id), type: opTypeOf(Number(r.type)), state: Number(r.state), params: paramsOf(r.params),
  createdBy: String(r.created_by), total: Number(r.total_count), valid: Number(r.valid_count), invalid: Number(r.invalid_count),
  duplicates: Number(r.duplicate_count), succeeded: Number(r.succeeded_count), failed: Number(r.failed_count), processed: Number(r.processed_count),
  createdAt: iso(new Date(r.created_at as string))!, confirmedAt: r.confirmed_at ? iso(new Date(r.confirmed_at as string)) : null,
  finishedAt: r.finished_at ? iso(new Date(r.finished_at as string)) : null,
  fileName: ((r.source_detail as { fileName?: string } | null)?.fileName) ?? null,
});

// ---- stock in from a file ---------------------------------------------------------------------------------------

const COLUMNS = api.STOCK_IN_COLUMNS;
type Key = (typeof COLUMNS)[number]['key'];
const b = (zh: string, en: string): B => ({ zh, en });
interface FileRow { row: number; iccid: string; imsi: string | null; msisdn: string | null; sn: string | null; location: string | null; balanceType: number | null }
interface FileRowErr { row: number; iccid: string | null; column: Key; reason: B }
const FILE: SheetImportSpec<Key> = {
  columns: COLUMNS, required: api.STOCK_IN_REQUIRED, maxBytes: api.STOCK_IN_FILE_MAX_BYTES, maxRows: api.STOCK_BATCH_MAX,
  codes: { missingColumns: ErrorCode.StockFileMissingColumns, empty: ErrorCode.StockFileEmpty },
  tooMany: (count) => new AppError(ErrorCode.BatchTooMany, { count, max: api.STOCK_BATCH_MAX }),
};
const REASON = {
  required: b('必填', 'is required'),
  iccid: b('应为 19-20 位数字', 'must be 19-20 digits'),
  imsi: b('应为 15 位数字', 'must be 15 digits'),
  msisdn: b('应为 5-15 位数字', 'must be 5-15 digits'),
  sn: b('最多 64 个字符', 'must be at most 64 characters'),
  location: b(`最多 ${api.STOCK_LOCATION_MAX} 个字符`, `must be at most ${api.STOCK_LOCATION_MAX} characters`),
  balance: b('应为“后付费”或“预付费”', 'must be "Postpaid" or "Prepaid"'),
};
/** a balance type cell: its label in either language, or its number */
const balanceOf = (s: string): number | null => {
  const v = StockBalanceType.values.find((x) => [String(x), StockBalanceType.label(x, 'zh'), StockBalanceType.label(x, 'en')].some((t) => t.toLowerCase() === s.toLowerCase()));
  return v ?? null;
};

/** The file's rows checked on their own (formats); a repeated ICCID is merged as when pasted (its first row counts). */
export function checkStockInRows(cells: Cells[]) {
  return checkSheetRows(cells, COLUMNS, api.STOCK_IN_REQUIRED, (get, row, errors: FileRowErr[]): FileRow => {
    const iccid = get('iccid');
    const err = (column: Key, reason: B) => errors.push({ row, iccid: iccid || null, column, reason });
    if (!iccid) err('iccid', REASON.required);
    else if (!carddata.ICCID_RE.test(iccid)) err('iccid', REASON.iccid);
    const imsi = get('imsi');
    if (imsi && !carddata.IMSI_RE.test(imsi)) err('imsi', REASON.imsi);
    const msisdn = get('msisdn');
    if (msisdn && !carddata.MSISDN_RE.test(msisdn)) err('msisdn', REASON.msisdn);
    const sn = get('sn');
    if ([...sn].length > 64) err('sn', REASON.sn);
    const location = get('location');
    if ([...location].length > api.STOCK_LOCATION_MAX) err('location', REASON.location);
    const bal = get('balanceType');
    const balanceType = bal ? balanceOf(bal) : null;
    if (bal && balanceType == null) err('balanceType', REASON.balance);
    return { row, iccid, imsi: imsi || null, msisdn: msisdn || null, sn: sn || null, location: location || null, balanceType };
  });
}

const HELP: Record<Lang, string[]> = {
  zh: [
    '每行一张入库的 SIM 卡，第 1 行为表头（中文或英文表头均可），请勿修改列名。请把各列设为文本格式，长数字才不会丢位。',
    'ICCID 必填（19-20 位数字）；IMSI（15 位数字）和 MSISDN（5-15 位数字）可以以后补充，但配卡前必须齐全；双卡/超级 SIM 的各张卡填写同一个 SN。',
    '库位和余额类型（后付费/预付费）可不填，不填时使用入库表单中的值；运营商和备注在表单中填写。',
    `一次最多 ${api.STOCK_BATCH_MAX} 行，重复的 ICCID 只保留第一行。格式有误的行会逐行列出，整个文件不校验；格式正确后系统先逐条校验（如已在库存中），确认后才会入库。`,
  ],
  en: [
    'One received SIM per row; row 1 is the header (Chinese or English titles), keep the titles. Format the columns as text so long numbers keep their digits.',
    'ICCID is required (19-20 digits); IMSI (15 digits) and MSISDN (5-15 digits) may come later but are needed before matching; the SIMs of one dual / super SIM share one SN.',
    'Location and balance type (Postpaid / Prepaid) may be left empty: the form\'s values apply. The operator and the remark are entered in the form.',
    `At most ${api.STOCK_BATCH_MAX} rows; a repeated ICCID keeps its first row. Rows with a wrong format are listed and the file is refused; otherwise every row is checked (e.g. already in stock) and nothing is received until you confirm.`,
  ],
};

export class StockOpService {
  constructor(private db: Db, private jobs: Pick<Jobs, 'send'>, private log: { error: (obj: unknown, msg: string) => void }) {}

  async validate(body: ValidateBody, ctx: SessionContext) {
    staffOnly(ctx.actor);
    if (!StockOpType.has(body.type)) throw new AppError(ErrorCode.Validation, { field: 'type', reason: '-' }, 400, { field: 'type' });
    if (body.type === StockOpType.In) {
      const params = this.inParams(body, ctx);
      const rows = (body.rows ?? []).map((r) => ({ iccid: r.iccid.trim(), imsi: r.imsi?.trim() || null, msisdn: r.msisdn?.trim() || null, sn: r.sn?.trim() || null }));
      return this.stockIn(rows, params, { source: BatchSource.Pasted, detail: null }, ctx);
    }
    const params: Record<string, unknown> = {};
    let iccids: string[];
    let duplicates = 0;
    let source: number = BatchSource.Pasted;
    if (body.filter) {
      const where = stockWhere(body.filter);
      // the count first, before any item is read: over 10,000 is refused (spec §9)
      const n = await countCapped(this.db, where, api.STOCK_BATCH_MAX);
      checkOpSize(n > api.STOCK_BATCH_MAX ? await countCapped(this.db, where, api.STOCK_ROWS_MAX) : n);
      iccids = rowsOf<{ iccid: string }>(await this.db.execute(sql`select iccid from stock_items where ${where} order by iccid limit ${api.STOCK_BATCH_MAX}`)).map((r) => r.iccid);
      params.filter = body.filter;
      source = BatchSource.Filter;
    } else {
      const all = (body.iccids ?? []).map((s) => s.trim()).filter(Boolean);
      iccids = [...new Set(all)];
      duplicates = all.length - iccids.length;
    }
    checkOpSize(iccids.length);
    const states = await loadStates(this.db, iccids);
    const items = iccids.map((iccid): Item => {
      const s = states.get(iccid);
      return { iccid, payload: null, refusal: opRefusal(body.type, s?.item ?? null, s?.card ?? null) };
    });
    return this.store(body.type, params, items, duplicates, { source, detail: body.filter ? { filter: body.filter } : null }, ctx);
  }

  /** Stock in from an uploaded xlsx / csv file (field `file`) with the form's fields. */
  async validateFile(req: FastifyRequest, ctx: SessionContext) {
    staffOnly(ctx.actor);
    const { file, fields, checked } = await readImportUpload(req, api.validateStockInFile, FILE, ctx.lang, checkStockInRows);
    const params = this.inParams({
      operatorId: fields.operatorId ? Number(fields.operatorId) : undefined, location: fields.location, remark: fields.remark,
      balanceType: fields.balanceType ? Number(fields.balanceType) : undefined,
    }, ctx);
    if (checked.errors.length) {
      throw wrongRowsError(ErrorCode.StockFileInvalid, checked.errors, api.STOCK_IN_ERRORS_LISTED, COLUMNS, ctx.lang, (e) => ({ iccid: e.iccid }));
    }
    const detail = { fileName: file.filename.slice(0, 200), fileSize: file.buffer.length };
    return this.stockIn(checked.rows, params, { source: BatchSource.File, detail }, ctx);
  }

  async template(q: BodyOf<typeof api.downloadStockInTemplate>, ctx: SessionContext, reply: FastifyReply) {
    staffOnly(ctx.actor);
    const lang = q.templateLang ?? ctx.lang;
    const base = lang === 'zh' ? '入库模板' : 'stock-in-template';
    const example = (k: Key) => (k === 'balanceType' ? StockBalanceType.label(StockBalanceType.Postpaid, lang) : COLUMNS.find((c) => c.key === k)!.example);
    if (q.format === 'csv') return sendDownload(reply, `${base}.csv`, sheetTemplateCsv(COLUMNS, lang, example));
    const sheet = lang === 'zh' ? '入库' : 'Stock in';
    return sendDownload(reply, `${base}.xlsx`, await sheetTemplateXlsx(COLUMNS, lang, example, { sheet, width: 24, help: HELP[lang] }));
  }

  /** The stock-in form's fields, checked and normalised (the batch's params). */
  private inParams(f: { operatorId?: number; location?: string; remark?: string; balanceType?: number }, _ctx: SessionContext) {
    if (!f.operatorId || !Operator.has(f.operatorId)) throw new AppError(ErrorCode.StockOperatorRequired, undefined, 200, { field: 'operatorId' });
    const location = f.location?.trim() ?? '';
    const remark = f.remark?.trim() ?? '';
    checkTexts(location, remark);
    return { operatorId: f.operatorId, location, remark, balanceType: f.balanceType && StockBalanceType.has(f.balanceType) ? f.balanceType : 1 };
  }

  /** Received rows: repeats merged (the first row counts), formats checked, ICCIDs already in stock invalid. */
  private async stockIn(
    rows: { iccid: string; imsi: string | null; msisdn: string | null; sn: string | null; location?: string | null; balanceType?: number | null }[],
    params: Record<string, unknown>, src: { source: number; detail: unknown }, ctx: SessionContext,
  ) {
    const seen = new Map<string, Item>();
    let duplicates = 0;
    for (const r of rows) {
      if (!r.iccid) continue;
      if (seen.has(r.iccid)) { duplicates++; continue; }
      const payload: InPayload = { imsi: r.imsi, msisdn: r.msisdn, sn: r.sn, ...(r.location ? { location: r.location } : {}), ...(r.balanceType ? { balanceType: r.balanceType } : {}) };
      seen.set(r.iccid, { iccid: r.iccid, payload, refusal: inRowRefusal(r) });
    }
    const items = [...seen.values()];
    checkOpSize(items.length);
    const exists = new Set(rowsOf<{ iccid: string }>(await this.db.execute(sql`
      select iccid from stock_items where iccid = any(${sql.param(items.map((i) => i.iccid))}::text[])`)).map((r) => r.iccid));
    for (const i of items) if (!i.refusal && exists.has(i.iccid)) i.refusal = { code: ErrorCode.StockAlreadyInStock };
    return this.store(StockOpType.In, params, items, duplicates, src, ctx);
  }

  /** The batch (state validated) with its items, through the card batch engine's store. */
  private async store(op: number, params: Record<string, unknown>, items: Item[], duplicates: number, src: { source: number; detail: unknown }, ctx: SessionContext) {
    const validated: ValidatedItem[] = items.map((i) => ({
      iccid: i.iccid, verdict: i.refusal ? BatchVerdict.Invalid : BatchVerdict.Valid,
      reason: i.refusal ? { zh: refusalText(i.refusal, 'zh'), en: refusalText(i.refusal, 'en') } : null, payload: i.payload as Record<string, unknown> | null,
    }));
    const row = await this.db.transaction((tx) => storeValidatedBatch(tx, ctx, {
      type: batchTypeOf(op), params: { ...params, type: batchTypeOf(op) }, source: src.source, sourceDetail: src.detail, duplicateCount: duplicates, items: validated,
    }));
    return { batchId: row.batchId, total: row.totalCount, valid: row.validCount, invalid: row.invalidCount, duplicates: row.duplicateCount };
  }

  /** A stock batch row, locked for a change; 20005 for any other batch. */
  private async row(ex: Executor, batchId: string, lock = false) {
    if (!UUID_RE.test(batchId)) throw notFound();
    const [r] = rowsOf<Record<string, unknown>>(await ex.execute(sql`
      select * from card_batches where batch_id = ${batchId}::uuid and type in (${TYPES}) ${lock ? sql`for update` : sql``}`));
    if (!r) throw notFound();
    return r;
  }

  /** Validated → running, then the engine's job. A match claims its items ("matching") here, so two batches never match one item. */
  async confirm(batchId: string, ctx: SessionContext) {
    staffOnly(ctx.actor);
    await this.db.transaction(async (tx) => {
      const b = await this.row(tx, batchId, true);
      if (Number(b.state) !== BatchState.Validated) throw new AppError(ErrorCode.StockBatchNotValidated);
      if (Number(b.valid_count) === 0) throw new AppError(ErrorCode.StockBatchNothingValid);
      await tx.execute(sql`update card_batches set state = ${BatchState.Running}, confirmed_at = now(), heartbeat_at = now() where batch_id = ${batchId}::uuid`);
      if (opTypeOf(Number(b.type)) === StockOpType.Match) {
        const r = { code: ErrorCode.StockNotMatchable, zh: { state: StockMatchState.label(StockMatchState.Matching, 'zh') }, en: { state: StockMatchState.label(StockMatchState.Matching, 'en') } };
        // claim the items still not matched; those another operation claimed or changed since validation fail now
        const claimed = new Set(rowsOf<{ iccid: string }>(await tx.execute(sql`
          update stock_items s set match_state = ${StockMatchState.Matching}, updated_at = now()
          from card_batch_items i
          where i.batch_id = ${batchId}::uuid and i.status = ${BatchItemStatus.Pending} and s.iccid = i.iccid and s.match_state = ${StockMatchState.NotMatched}
          returning s.iccid`)).map((x) => x.iccid));
        const pending = rowsOf<{ seq: number; iccid: string }>(await tx.execute(sql`
          select seq, iccid from card_batch_items where batch_id = ${batchId}::uuid and status = ${BatchItemStatus.Pending}`));
        const lost = pending.filter((p) => !claimed.has(p.iccid)).map((p) => Number(p.seq));
        if (lost.length) {
          await tx.execute(sql`
            update card_batch_items set status = ${BatchItemStatus.Failed}, error_zh = ${refusalText(r, 'zh')}, error_en = ${refusalText(r, 'en')}, done_at = now()
            where batch_id = ${batchId}::uuid and seq = any(${sql.param(lost)}::int[])`);
        }
      }
      await audit(tx, ctx, { entity: 'cardBatch', entityId: batchId, custId: null, rootCustId: null, before: { state: BatchState.Validated }, after: { state: BatchState.Running, action: 'confirm' } });
    });
    // once committed; a lost message is queued again by the engine's sweep (a running batch without heartbeat)
    await this.jobs.send(BATCH_QUEUE, { batchId }).catch((err) => this.log.error({ err, batchId }, 'stock batch job not queued; the sweep will queue it'));
    return { batchId, state: BatchState.Running };
  }

  async cancel(batchId: string, ctx: SessionContext) {
    staffOnly(ctx.actor);
    await this.db.transaction(async (tx) => {
      const b = await this.row(tx, batchId, true);
      if (Number(b.state) !== BatchState.Validated) throw new AppError(ErrorCode.StockBatchNotValidated);
      const done = await tx.execute(sql`update card_batches set state = ${BatchState.Cancelled}, cancelled_at = now() where batch_id = ${batchId}::uuid returning ${BATCH_EVENT_COLUMNS}`);
      await audit(tx, ctx, { entity: 'cardBatch', entityId: batchId, custId: null, rootCustId: null, before: { state: BatchState.Validated }, after: { state: BatchState.Cancelled, action: 'cancel' } });
      await enqueueBatchFinished(tx, eventRows<BatchEventRow>(done));
    });
    return { batchId, state: BatchState.Cancelled };
  }

  async page(q: BodyOf<typeof api.getStockOpPage>, actor: Actor) {
    staffOnly(actor);
    const p = pageOf(q);
    const where = sql.join([
      q.type !== undefined ? sql`type = ${batchTypeOf(q.type)}` : sql`type in (${TYPES})`,
      ...(q.state !== undefined ? [sql`state = ${q.state}`] : []),
    ], sql` and `);
    const [rows, [{ n }]] = await Promise.all([
      this.db.execute(sql`select * from card_batches where ${where} order by created_at desc, batch_id desc limit ${p.limit} offset ${p.offset}`).then((r) => rowsOf<Record<string, unknown>>(r)),
      this.db.execute(sql`select count(*)::int n from card_batches where ${where}`).then((r) => rowsOf<{ n: number }>(r)),
    ]);
    return { list: rows.map(opOf), total: Number(n), current: p.current, pageSize: p.pageSize };
  }

  async detail(batchId: string, actor: Actor) {
    staffOnly(actor);
    return opOf(await this.row(this.db, batchId));
  }

  async items(q: BodyOf<typeof api.getStockOpItemPage>, actor: Actor, lang: Lang) {
    await this.detail(q.batchId, actor);
    const p = pageOf(q);
    const where = sql.join([
      sql`batch_id = ${q.batchId}::uuid`,
      ...(q.status !== undefined ? [sql`status = ${q.status}`] : []),
      ...(q.failedOnly ? [sql`status in (${BatchItemStatus.Failed}, ${BatchItemStatus.Skipped})`] : []),
    ], sql` and `);
    const [rows, [{ n }]] = await Promise.all([
      this.db.execute(sql`select * from card_batch_items where ${where} order by seq limit ${p.limit} offset ${p.offset}`).then((r) => rowsOf<Record<string, unknown>>(r)),
      this.db.execute(sql`select count(*)::int n from card_batch_items where ${where}`).then((r) => rowsOf<{ n: number }>(r)),
    ]);
    return {
      list: rows.map((r) => {
        const pay = (r.payload ?? {}) as InPayload;
        return {
          seq: Number(r.seq), iccid: String(r.iccid), imsi: pay.imsi ?? null, msisdn: pay.msisdn ?? null, sn: pay.sn ?? null,
          verdict: Number(r.verdict), status: Number(r.status),
          reason: ((lang === 'zh' ? (r.error_zh ?? r.reason_zh) : (r.error_en ?? r.reason_en)) as string | null) ?? null,
          doneAt: r.done_at ? iso(new Date(r.done_at as string)) : null,
        };
      }),
      total: Number(n), current: p.current, pageSize: p.pageSize,
    };
  }

  /**
   * Every minute: items a match claimed ("matching") whose batch no longer runs them (its creator lost the right, so
   * the engine failed its pending items without the handler) go back to "not matched". Claims of the last minutes are
   * left alone (a confirm in flight).
   */
  async releaseClaims(): Promise<void> {
    await this.db.execute(sql`
      with back as (
        update stock_items s set match_state = ${StockMatchState.NotMatched}, updated_at = now()
        where s.match_state = ${StockMatchState.Matching} and s.updated_at < now() - interval '5 minutes'
          and s.iccid not in (select i.iccid from card_batches b join card_batch_items i on i.batch_id = b.batch_id
            where b.type = ${batchTypeOf(StockOpType.Match)} and b.state = ${BatchState.Running} and i.status = ${BatchItemStatus.Pending})
        returning s.iccid
      )
      insert into stock_changes (iccid, change_id, kind, login_name, after)
      select iccid, gen_random_uuid(), 7, '-', jsonb_build_object('matchState', ${StockMatchState.NotMatched}::int) from back`);
  }
}
