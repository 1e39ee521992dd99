// Batch operations on cards: validation (cards from a selection, pasted ICCIDs, an uploaded file or the card
// list filters, each classified without changing anything), confirmation into a durable job, cancellation, and
// the lists behind the four batch screens. The job itself is card/batch/runner.ts. Design note: docs/batch.md.
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import ExcelJS from 'exceljs';
import { Value } from '@sinclair/typebox/value';
import { and, asc, count, desc, eq, gte, inArray, like, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { ErrorCode, batch, carddata, formatSize, type BodyOf, type Lang, businessDayStart, businessDayEnd } from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import { AppError, FieldError, notFound } from '../../../platform/errors.ts';
import { audit } from '../../../platform/audit.ts';
import { tenantFilter, tenantOf, type Actor, type SessionContext } from '../../../platform/context.ts';
import { contains, iso, pageOf, uuidPrefixRange } from '../../../platform/paging.ts';
import { readMultipart, sendDownload } from '../../../platform/files.ts';
import { readSheet, type Cells } from '../../../platform/spreadsheet.ts';
import { cards } from '../card-tables.ts';
import { CardListService } from '../list/list.ts';
import { cardBatchItems, cardBatches } from './tables.ts';
import { checkParams, Classifier, mayRun, mayView, reasonOf, type BatchOp, type Verdict } from './ops.ts';
import { downtimeFeeOf } from './downtime-fee.ts';
import { enqueueBatchFinished } from './events.ts';

const { BatchState, BatchSource, BatchVerdict, BatchItemStatus, BatchType, batchMaxOf } = batch;
type ValidateBody = BodyOf<typeof batch.validateBatch>;
type BatchRow = typeof cardBatches.$inferSelect;

/** cards read and classified per round trip while validating */
const CHUNK = 1000;
/** item rows per INSERT … SELECT FROM unnest(…) */
const INSERT_CHUNK = 5000;
/**
 * What reading an uploaded file may take. A file may list as many ICCIDs as a request (BATCH_REQUEST_MAX_ICCIDS),
 * so that "too many" is answered with the count; 20,000 ICCIDs with a sequence column inflate to 3.1 MB
 * (ExcelJS), and twice that is the most a batch file reads before refusing.
 */
const SHEET_LIMITS = {
  minColumns: 1,
  maxRows: batch.BATCH_REQUEST_MAX_ICCIDS + 100,
  maxUnpackedBytes: 8 * 1024 * 1024,
  /**
   * the template is one ICCID column, but the ICCID column is found by its title anywhere: a card list export
   * (25 columns) read back as a batch file, and a few columns of the uploader's own
   */
  maxColumns: 35,
  maxCellChars: 1000,
  maxSharedStrings: 200_000,
};
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function toSummary(b: BatchRow) {
  const detail = (b.sourceDetail ?? {}) as { fileName?: string };
  return {
    batchId: b.batchId, type: b.type, params: b.params as BatchOp & Record<string, unknown>, source: b.source, fileName: detail.fileName ?? null,
    state: b.state, createdBy: b.createdBy, totalCount: b.totalCount, validCount: b.validCount, invalidCount: b.invalidCount,
    alreadyCount: b.alreadyCount, duplicateCount: b.duplicateCount, succeededCount: b.succeededCount, failedCount: b.failedCount,
    processedCount: b.processedCount, createdAt: b.createdAt.toISOString(), confirmedAt: iso(b.confirmedAt), finishedAt: iso(b.finishedAt),
    cancelledAt: iso(b.cancelledAt),
  };
}

/** The ICCIDs given, trimmed, in order, each once; answers how many repeats were collapsed. */
export function uniqueIccids(values: Iterable<string | null | undefined>): { iccids: string[]; duplicates: number } {
  const seen = new Set<string>();
  let duplicates = 0;
  for (const v of values) {
    const s = v?.trim();
    if (!s) continue;
    if (seen.has(s)) duplicates++;
    else seen.add(s);
  }
  return { iccids: [...seen], duplicates };
}

/** The ICCID column of an uploaded sheet: the column titled ICCID, or a first column of ICCIDs without a title. */
export function iccidColumn(rows: Cells[]): string[] {
  const header = rows[0] ?? [];
  const at = header.findIndex((c) => c != null && c.trim().toLowerCase() === 'iccid');
  if (at >= 0) return rows.slice(1).map((r) => r[at] ?? '').filter(Boolean);
  if (header[0] && carddata.ICCID_RE.test(header[0])) return rows.map((r) => r[0] ?? '').filter(Boolean);
  throw new AppError(ErrorCode.BatchFileNoIccid);
}

/**
 * The header search: batches of the caller's tenant and of the types it may see, newest first, whose id starts with
 * the keyword (at least 4 hex digits: the short batch number the screens show) or whose file name contains it.
 */
export async function searchBatches(ex: Executor, actor: Actor, keyword: string, limit: number) {
  const allowed = BatchType.values.filter((t) => mayView(actor, t));
  if (!allowed.length) return [];
  const range = uuidPrefixRange(keyword);
  const named = sql`${cardBatches.sourceDetail} ->> 'fileName' ilike ${contains(keyword)}`;
  const rows = await ex
    .select()
    .from(cardBatches)
    .where(and(tenantFilter(actor, cardBatches), inArray(cardBatches.type, allowed),
      range ? or(named, and(gte(cardBatches.batchId, range[0]), lte(cardBatches.batchId, range[1]))) : named))
    .orderBy(desc(cardBatches.createdAt), desc(cardBatches.batchId))
    .limit(limit);
  return rows.map((b) => ({ batchId: b.batchId, type: b.type, state: b.state, fileName: toSummary(b).fileName, createdBy: b.createdBy, createdAt: b.createdAt.toISOString() }));
}

export class BatchService {
  private list: CardListService;

  constructor(
    private db: Db,
    private onConfirmed: (batchId: string) => Promise<void>,
  ) {
    this.list = new CardListService(db);
  }

  // ---- validation ------------------------------------------------------------------------------------------------

  /** From a selection, pasted ICCIDs or the card list filters. */
  async validate(b: ValidateBody, ctx: SessionContext) {
    const op = await checkParams(this.db, b.params, ctx.actor);
    const max = batchMaxOf(op.type);
    if (b.sourceKind === 'filter') {
      const filters = (b.filters ?? {}) as BodyOf<typeof carddata.getSimListPage>;
      const cond = this.list.where(filters, ctx.actor);
      const [{ n }] = await this.db.select({ n: count() }).from(cards).where(cond);
      if (Number(n) > max) throw new AppError(ErrorCode.BatchTooMany, { count: Number(n), max });
      if (Number(n) === 0) throw new AppError(ErrorCode.BatchEmpty);
      const rows = await this.db.select({ iccid: cards.iccid }).from(cards).where(cond).orderBy(asc(cards.iccid)).limit(max);
      return this.create(op, rows.map((r) => r.iccid), 0, { source: BatchSource.Filter, detail: { filters } }, ctx);
    }
    const { iccids, duplicates } = uniqueIccids(b.iccids ?? []);
    const source = b.sourceKind === 'paste' ? BatchSource.Pasted : BatchSource.Selection;
    return this.create(op, iccids, duplicates, { source, detail: null }, ctx);
  }

  /** From an uploaded xlsx / csv file with an ICCID column (field `file`) and the operation in field `params` (JSON). */
  async validateFile(req: FastifyRequest, ctx: SessionContext) {
    const { file, fields } = await readMultipart(req, batch.validateBatchFile);
    let params: unknown;
    try {
      params = JSON.parse(fields.params ?? '');
    } catch {
      throw new FieldError('params', { zh: '请选择操作类型和参数', en: 'choose the operation and its parameters' });
    }
    if (!Value.Check(batch.BatchParams, params)) {
      const first = [...Value.Errors(batch.BatchParams, params)][0];
      throw new FieldError(`params${(first?.path ?? '').replace(/\//g, '.')}`, { zh: '取值无效', en: 'has an invalid value' });
    }
    const op = await checkParams(this.db, params, ctx.actor);
    if (!file || file.buffer.length === 0) throw new AppError(ErrorCode.FileRequired, undefined, 400);
    if (file.buffer.length > batch.BATCH_FILE_MAX_BYTES) throw new AppError(ErrorCode.FileTooBig, { max: formatSize(batch.BATCH_FILE_MAX_BYTES) }, 400);
    const max = batchMaxOf(op.type);
    const rows = await readSheet(file, { ...SHEET_LIMITS, tooManyRows: () => new AppError(ErrorCode.BatchFileTooMany, { max }) });
    const { iccids, duplicates } = uniqueIccids(iccidColumn(rows));
    const detail = { fileName: file.filename.slice(0, 200), fileSize: file.buffer.length };
    return this.create(op, iccids, duplicates, { source: BatchSource.File, detail }, ctx);
  }

  /**
   * Classifies every card and stores the batch (state validated) with one item per card, all in one
   * transaction with its audit row. Cards outside the caller's tenant are "not found", never revealed.
   */
  private async create(op: BatchOp, iccids: string[], duplicates: number, src: { source: number; detail: unknown }, ctx: SessionContext) {
    const max = batchMaxOf(op.type);
    if (iccids.length > max) throw new AppError(ErrorCode.BatchTooMany, { count: iccids.length, max });
    if (iccids.length === 0) throw new AppError(ErrorCode.BatchEmpty);
    const batchId = crypto.randomUUID();
    const actor = ctx.actor;
    return this.db.transaction(async (tx) => {
      const classifier = await Classifier.create(tx, op, actor);
      const verdicts: Verdict[] = [];
      for (let i = 0; i < iccids.length; i += CHUNK) {
        const chunk = iccids.slice(i, i + CHUNK);
        const wellFormed = chunk.filter((s) => carddata.ICCID_RE.test(s));
        const rows = wellFormed.length
          ? await tx.select().from(cards).where(and(inArray(cards.iccid, wellFormed), tenantFilter(actor, { custId: cards.custId, rootCustId: cards.rootCustId })))
          : [];
        const byIccid = new Map(rows.map((r) => [r.iccid, r]));
        await classifier.prepare(tx, rows.map((r) => r.iccid), rows);
        for (const iccid of chunk) {
          const row = byIccid.get(iccid);
          if (!carddata.ICCID_RE.test(iccid)) verdicts.push({ verdict: BatchVerdict.Invalid, code: ErrorCode.BatchIccidInvalid });
          else if (!row) verdicts.push({ verdict: BatchVerdict.Invalid, code: ErrorCode.BatchCardNotFound });
          else verdicts.push(await classifier.classify(tx, row));
        }
      }
      const tally = (v: number) => verdicts.filter((x) => x.verdict === v).length;
      const [row] = await tx
        .insert(cardBatches)
        .values({
          batchId, type: op.type, params: op, source: src.source, sourceDetail: src.detail, state: BatchState.Validated,
          creatorAccountId: actor.accountId, createdBy: actor.loginName, ...tenantOf(actor), totalCount: iccids.length,
          validCount: tally(BatchVerdict.Valid), invalidCount: tally(BatchVerdict.Invalid), alreadyCount: tally(BatchVerdict.Already),
          duplicateCount: duplicates,
        })
        .returning();
      for (let i = 0; i < iccids.length; i += INSERT_CHUNK) {
        const part = iccids.slice(i, i + INSERT_CHUNK).map((iccid, k) => {
          const v = verdicts[i + k];
          const r = reasonOf(v);
          return { seq: i + k + 1, iccid: iccid.slice(0, 40), verdict: v.verdict, zh: r.zh, en: r.en, status: v.verdict === BatchVerdict.Valid ? BatchItemStatus.Pending : BatchItemStatus.Skipped };
        });
        const col = (f: (p: (typeof part)[number]) => unknown) => sql.param(part.map(f));
        await tx.execute(sql`
          insert into card_batch_items (batch_id, seq, iccid, verdict, reason_zh, reason_en, status)
          select ${batchId}::uuid, t.* from unnest(${col((p) => p.seq)}::int[], ${col((p) => p.iccid)}::text[], ${col((p) => p.verdict)}::smallint[],
            ${col((p) => p.zh)}::text[], ${col((p) => p.en)}::text[], ${col((p) => p.status)}::smallint[]) as t`);
      }
      const summary = toSummary(row);
      await audit(tx, ctx, { entity: 'cardBatch', entityId: batchId, after: { ...summary, action: 'validate' } });
      return summary;
    });
  }

  // ---- confirm / cancel ----------------------------------------------------------------------------------------------

  /**
   * The batch if the actor may see it (its tenant and a type the actor may run, or view: pool changes with the pool
   * page code), else 20005. `lock`: for a change, which needs the type's run code.
   */
  private async visible(ex: Executor, batchId: string, actor: Actor, lock = false): Promise<BatchRow> {
    if (!UUID_RE.test(batchId)) throw notFound();
    const q = ex
      .select()
      .from(cardBatches)
      .where(and(eq(cardBatches.batchId, batchId), tenantFilter(actor, cardBatches)));
    const [b] = lock ? await q.for('update') : await q;
    if (!b || !(lock ? mayRun(actor, b.type) : mayView(actor, b.type))) throw notFound();
    return b;
  }

  /** Validated → running: the durable job is queued once the transaction commits (the sweep queues it again if that is lost). */
  async confirm(batchId: string, ctx: SessionContext) {
    const summary = await this.db.transaction(async (tx) => {
      const b = await this.visible(tx, batchId, ctx.actor, true);
      if (b.state !== BatchState.Validated) throw new AppError(ErrorCode.BatchNotValidated);
      if (b.validCount === 0) throw new AppError(ErrorCode.BatchNothingValid);
      const now = new Date();
      const [after] = await tx
        .update(cardBatches)
        .set({ state: BatchState.Running, confirmedAt: now, heartbeatAt: now })
        .where(eq(cardBatches.batchId, batchId))
        .returning();
      await audit(tx, ctx, { entity: 'cardBatch', entityId: batchId, custId: b.custId, rootCustId: b.rootCustId, before: { state: b.state }, after: { state: after.state, action: 'confirm' } });
      return toSummary(after);
    });
    await this.onConfirmed(batchId);
    return summary;
  }

  async cancel(batchId: string, ctx: SessionContext) {
    return this.db.transaction(async (tx) => {
      const b = await this.visible(tx, batchId, ctx.actor, true);
      if (b.state !== BatchState.Validated) throw new AppError(ErrorCode.BatchNotCancellable);
      const [after] = await tx
        .update(cardBatches)
        .set({ state: BatchState.Cancelled, cancelledAt: new Date() })
        .where(eq(cardBatches.batchId, batchId))
        .returning();
      await audit(tx, ctx, { entity: 'cardBatch', entityId: batchId, custId: b.custId, rootCustId: b.rootCustId, before: { state: b.state }, after: { state: after.state, action: 'cancel' } });
      // a cancelled batch has reached its final state: batch.finished for its customer, in this transaction
      await enqueueBatchFinished(tx, [{
        batch_id: after.batchId, type: after.type, state: after.state, cust_id: after.custId, total_count: after.totalCount,
        succeeded_count: after.succeededCount, failed_count: after.failedCount, created_by: after.createdBy, finished_at: null, cancelled_at: after.cancelledAt,
      }]);
      return toSummary(after);
    });
  }

  // ---- lists ---------------------------------------------------------------------------------------------------------

  /** Batches of the caller's tenant, of the types the caller may see (optionally narrowed), newest first. */
  async page(q: BodyOf<typeof batch.getBatchPage>, actor: Actor) {
    const p = pageOf(q);
    const allowed = BatchType.values.filter((t) => mayView(actor, t) && (!q.types?.length || q.types.includes(t)));
    if (!allowed.length) return { list: [], total: 0, current: p.current, pageSize: p.pageSize };
    const w: SQL[] = [tenantFilter(actor, cardBatches), inArray(cardBatches.type, allowed)];
    if (q.state !== undefined) w.push(eq(cardBatches.state, q.state));
    // the pool change screens: the join / leave batches of one pool
    if (q.poolId !== undefined) w.push(sql`(${cardBatches.params} ->> 'poolId')::int = ${q.poolId}`);
    if (q.source !== undefined) w.push(eq(cardBatches.source, q.source));
    if (q.createdBy) w.push(eq(cardBatches.createdBy, q.createdBy));
    if (q.createdFrom) w.push(gte(cardBatches.createdAt, businessDayStart(q.createdFrom)));
    if (q.createdTo) w.push(lt(cardBatches.createdAt, businessDayEnd(q.createdTo)));
    const cond = and(...w);
    const [rows, [{ n }]] = await Promise.all([
      this.db.select().from(cardBatches).where(cond).orderBy(desc(cardBatches.createdAt), desc(cardBatches.batchId)).limit(p.limit).offset(p.offset),
      this.db.select({ n: count() }).from(cardBatches).where(cond),
    ]);
    return { list: rows.map(toSummary), total: Number(n), current: p.current, pageSize: p.pageSize };
  }

  async detail(batchId: string, actor: Actor) {
    return toSummary(await this.visible(this.db, batchId, actor));
  }

  /**
   * The downtime fee a deactivation batch starts, per plan of its cards. Any other batch starts none: it answers
   * `applies: false` with an empty list rather than an error, so a screen may ask about any batch it shows.
   */
  async shutDownFee(batchId: string, actor: Actor) {
    const b = await this.visible(this.db, batchId, actor);
    if (!batch.isDeactivation(toSummary(b))) return { applies: false, list: [], cards: 0, monthlyTotal: '0.00' };
    return { applies: true, ...(await downtimeFeeOf(this.db, batchId, actor)) };
  }

  /** Per-card rows; for a download task (whose reader's language the page does not know) both languages. */
  async itemPage(q: BodyOf<typeof batch.getBatchItemPage>, actor: Actor, lang: Lang | 'both') {
    await this.visible(this.db, q.batchId, actor);
    const p = pageOf(q);
    const w: SQL[] = [eq(cardBatchItems.batchId, q.batchId)];
    if (q.verdict !== undefined) w.push(eq(cardBatchItems.verdict, q.verdict));
    if (q.status !== undefined) w.push(eq(cardBatchItems.status, q.status));
    if (q.iccid) w.push(like(cardBatchItems.iccid, `${q.iccid}%`));
    const cond = and(...w);
    const [rows, [{ n }]] = await Promise.all([
      this.db.select().from(cardBatchItems).where(cond).orderBy(asc(cardBatchItems.seq)).limit(p.limit).offset(p.offset),
      this.db.select({ n: count() }).from(cardBatchItems).where(cond),
    ]);
    const text = (zh: string | null, en: string | null) => (zh == null ? null : lang === 'both' ? (zh === en ? zh : `${zh} / ${en}`) : lang === 'zh' ? zh : en);
    return {
      list: rows.map((r) => ({
        seq: r.seq, iccid: r.iccid, verdict: r.verdict, reason: text(r.reasonZh, r.reasonEn), status: r.status,
        error: text(r.errorZh, r.errorEn), doneAt: iso(r.doneAt),
      })),
      total: Number(n), current: p.current, pageSize: p.pageSize,
    };
  }

  // ---- template --------------------------------------------------------------------------------------------------

  async template(b: BodyOf<typeof batch.downloadBatchTemplate>, ctx: SessionContext, reply: FastifyReply) {
    const lang = b.templateLang ?? ctx.lang;
    const base = lang === 'zh' ? '批量操作模板' : 'batch-template';
    if (b.format === 'csv') {
      return sendDownload(reply, `${base}.csv`, '\ufeffICCID\r\n');
    }
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet(lang === 'zh' ? '卡清单' : 'Cards');
    // a 20-digit ICCID typed into a number cell loses digits in Excel: the column is text
    ws.columns = [{ header: 'ICCID', key: 'iccid', width: 26, style: { numFmt: '@' } }];
    ws.getRow(1).font = { bold: true };
    const notes = wb.addWorksheet(lang === 'zh' ? '填写说明' : 'How to fill in');
    for (const line of TEMPLATE_HELP[lang]) notes.addRow([line]);
    notes.getColumn(1).width = 100;
    return sendDownload(reply, `${base}.xlsx`, Buffer.from(await wb.xlsx.writeBuffer()));
  }
}

const TEMPLATE_HELP: Record<Lang, string[]> = {
  zh: [
    '在“卡清单”的 ICCID 列中每行填写一张卡的 ICCID（19-20 位数字），第 1 行为表头，请勿修改。',
    `每批最多 ${batch.BATCH_MAX_CARDS} 张卡，数据恢复每次最多 ${batch.DATA_RECOVERY_MAX_CARDS} 张；重复的 ICCID 会自动合并。`,
    '上传后系统先逐卡校验，显示可执行、无效和已处于目标状态的数量，确认后才会执行。',
  ],
  en: [
    'Write one ICCID (19-20 digits) per row in the ICCID column of the "Cards" sheet; row 1 is the header, keep it.',
    `At most ${batch.BATCH_MAX_CARDS} cards per batch, ${batch.DATA_RECOVERY_MAX_CARDS} per data recovery run; repeated ICCIDs are merged.`,
    'After the upload every card is checked first: the valid, invalid and already-in-state counts are shown, and nothing runs until you confirm.',
  ],
};
