import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, asc, count, desc, eq, gt, gte, ilike, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { CardState, ErrorCode, carddata, type BodyOf, type Lang, businessDayStart, businessDayEnd } from '@lynx/contract';
import type { Db, Executor, Tx } from '../../../db/client.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { audit } from '../../../platform/audit.ts';
import type { SessionContext } from '../../../platform/context.ts';
import { contains, orderOf, pageOf, uuidPrefixRange } from '../../../platform/paging.ts';
import { sendDownload } from '../../../platform/files.ts';
import { readImportUpload, type SheetImportSpec } from '../../../platform/spreadsheet.ts';
import { operators } from '../../account/tables.ts';
import { cardImportBatches, cardImportErrors } from '../card-tables.ts';
import { cardTypeNames, lockCardTypes } from '../catalog/card-types.ts';
import { REASON, cardTemplateCsv, cardTemplateXlsx, checkCardRows, columnTitle, type CardRowError, type ParsedCard } from './rows.ts';
import { refreshCardCycles } from '../../usage/cycle-columns.ts';

const { CARD_IMPORT_MAX_BYTES, CARD_IMPORT_MAX_ROWS, CARD_IMPORT_COLUMNS } = carddata;
/** rows per INSERT … SELECT FROM unnest(…): one round trip per chunk however wide */
const CHUNK = 5000;
/**
 * The card file and what reading it may take. 100,000 rows filled like the template (ExcelJS, shared strings) inflate
 * to 39.5 MB of XML: twice that is the most an import reads before refusing. Rows: the header, the data rows and
 * some blank ones, so that a file slightly over CARD_IMPORT_MAX_ROWS still gets the "too many" answer.
 */
const CARD_FILE: SheetImportSpec<carddata.CardImportColumn> = {
  columns: CARD_IMPORT_COLUMNS,
  required: CARD_IMPORT_COLUMNS.filter((c) => c.required).map((c) => c.key),
  maxBytes: CARD_IMPORT_MAX_BYTES,
  maxRows: CARD_IMPORT_MAX_ROWS,
  codes: { missingColumns: ErrorCode.CardImportMissingColumns, empty: ErrorCode.CardImportEmpty },
  tooMany: () => new AppError(ErrorCode.CardImportTooMany, { max: CARD_IMPORT_MAX_ROWS }),
  limits: {
    minColumns: CARD_IMPORT_COLUMNS.length,
    maxUnpackedBytes: 80 * 1024 * 1024,
    /** the template's columns and a few of the uploader's own */
    maxColumns: CARD_IMPORT_COLUMNS.length + 10,
    maxCellChars: 1000,
    /** the template has 3 texts per row that differ from row to row; 7 is plenty */
    maxSharedStrings: 700_000,
  },
};

type BatchRow = typeof cardImportBatches.$inferSelect;
const toBatch = (b: BatchRow) => ({
  batchId: b.batchId, fileName: b.fileName, fileSize: b.fileSize, remark: b.remark, totalRows: b.totalRows, successRows: b.successRows,
  failedRows: b.failedRows, createdBy: b.createdBy, createdAt: b.createdAt.toISOString(),
});
const bothTitles = (key: string) => {
  const zh = columnTitle(key, 'zh');
  const en = columnTitle(key, 'en');
  return zh === en ? zh : `${zh} / ${en}`;
};

/**
 * Card file imports (simEnter). Every row is checked; the valid rows are stored in one transaction with the
 * import record, the rows that are wrong or whose card already exists are stored as the import's errors.
 * A card that exists is never changed. New cards are in state 60 (start) in the platform stock: no customer.
 */
/** The header search (staff only): imports whose id starts with the keyword (4+ hex digits) or whose file name or remark contains it. */
export async function searchCardImports(ex: Executor, keyword: string, limit: number) {
  const range = uuidPrefixRange(keyword);
  const named = or(ilike(cardImportBatches.fileName, contains(keyword)), ilike(cardImportBatches.remark, contains(keyword)))!;
  const rows = await ex
    .select()
    .from(cardImportBatches)
    .where(range ? or(named, and(gte(cardImportBatches.batchId, range[0]), lte(cardImportBatches.batchId, range[1]))) : named)
    .orderBy(desc(cardImportBatches.createdAt))
    .limit(limit);
  return rows.map((r) => ({ batchId: r.batchId, fileName: r.fileName, remark: r.remark, successRows: r.successRows, createdAt: r.createdAt.toISOString() }));
}

export class CardImportService {
  constructor(private db: Db) {}

  async import(req: FastifyRequest, ctx: SessionContext) {
    const { file, fields, checked } = await readImportUpload(req, carddata.importCards, CARD_FILE, ctx.lang, async (cells) => {
      const [ops, types] = await Promise.all([this.db.select().from(operators), cardTypeNames(this.db)]);
      return checkCardRows(cells, ops, types);
    });
    const { rows, errors, dataRows } = checked;
    return this.store(rows, errors, dataRows, { fileName: file.filename.slice(0, 200), fileSize: file.buffer.length, remark: fields.remark?.trim() || null }, ctx);
  }

  /** The database part of an import (also used by the benchmark and the demo seed). */
  async store(rows: ParsedCard[], fileErrors: CardRowError[], dataRows: number, meta: { fileName: string; fileSize: number; remark: string | null }, ctx: SessionContext) {
    const batchId = crypto.randomUUID();
    return this.db.transaction(async (tx) => {
      // imports one at a time: the "number already used" checks below then see every earlier import
      await tx.execute(sql`select pg_advisory_xact_lock(7310905)`);
      // the card types the rows name stay until this import commits; a type deleted since the file was read fails its rows
      const liveTypes = await lockCardTypes(tx, [...new Set(rows.map((r) => r.cardTypeId).filter((v): v is number => v !== null))]);
      await tx.insert(cardImportBatches).values({
        batchId, fileName: meta.fileName, fileSize: meta.fileSize, remark: meta.remark, totalRows: dataRows, successRows: 0, failedRows: 0,
        createdBy: ctx.actor.loginName,
      });
      const errors = [...fileErrors];
      const typeGone = rows.filter((r) => r.cardTypeId !== null && !liveTypes.has(r.cardTypeId));
      for (const r of typeGone) errors.push({ row: r.row, iccid: r.iccid, msisdn: r.msisdn, imsi: r.imsi, column: 'cardType', reason: REASON.unknownCardType });
      if (typeGone.length) rows = rows.filter((r) => r.cardTypeId === null || liveTypes.has(r.cardTypeId));
      let imported = 0;
      let firstIccid: string | null = null;
      let lastIccid: string | null = null;
      for (let i = 0; i < rows.length; i += CHUNK) {
        const chunk = rows.slice(i, i + CHUNK);
        const fresh = await this.withoutTaken(tx, chunk, errors);
        if (!fresh.length) continue;
        const inserted = await this.insertCards(tx, fresh, batchId);
        // a card created by someone else since the check is still never overwritten: reported as existing
        for (const r of fresh) {
          if (!inserted.has(r.iccid)) errors.push({ row: r.row, iccid: r.iccid, msisdn: r.msisdn, imsi: r.imsi, column: 'iccid', reason: REASON.exists });
          else {
            imported++;
            if (firstIccid === null || r.iccid < firstIccid) firstIccid = r.iccid;
            if (lastIccid === null || r.iccid > lastIccid) lastIccid = r.iccid;
          }
        }
      }
      errors.sort((a, b) => a.row - b.row);
      await this.insertErrors(tx, batchId, errors);
      const failedRows = new Set(errors.map((e) => e.row)).size;
      const [batch] = await tx
        .update(cardImportBatches)
        .set({ successRows: imported, failedRows })
        .where(eq(cardImportBatches.batchId, batchId))
        .returning();
      await audit(tx, ctx, {
        entity: 'cardImport', entityId: batchId, custId: null, rootCustId: null,
        after: { ...toBatch(batch), firstIccid, lastIccid, state: CardState.Start },
      });
      return toBatch(batch);
    });
  }

  /** Rows whose ICCID, MSISDN or IMSI belongs to a card already stored are reported, the rest returned. */
  private async withoutTaken(tx: Tx, chunk: ParsedCard[], errors: CardRowError[]) {
    const res = (await tx.execute(sql`
      select iccid, msisdn, imsi from cards
      where iccid = any(${sql.param(chunk.map((r) => r.iccid))}::text[])
         or msisdn = any(${sql.param(chunk.map((r) => r.msisdn))}::text[])
         or imsi = any(${sql.param(chunk.map((r) => r.imsi))}::text[])`)) as unknown as { rows: { iccid: string; msisdn: string | null; imsi: string | null }[] };
    if (!res.rows.length) return chunk;
    const byIccid = new Set<string>();
    const byMsisdn = new Map<string, string>();
    const byImsi = new Map<string, string>();
    for (const c of res.rows) {
      byIccid.add(c.iccid);
      if (c.msisdn) byMsisdn.set(c.msisdn, c.iccid);
      if (c.imsi) byImsi.set(c.imsi, c.iccid);
    }
    const fresh: ParsedCard[] = [];
    for (const r of chunk) {
      const err = (column: 'iccid' | 'msisdn' | 'imsi', reason: { zh: string; en: string }) =>
        errors.push({ row: r.row, iccid: r.iccid, msisdn: r.msisdn, imsi: r.imsi, column, reason });
      if (byIccid.has(r.iccid)) {
        err('iccid', REASON.exists);
        continue;
      }
      const m = byMsisdn.get(r.msisdn);
      const s = byImsi.get(r.imsi);
      if (m) err('msisdn', { zh: `已被卡 ${m} 使用`, en: `is already used by card ${m}` });
      if (s) err('imsi', { zh: `已被卡 ${s} 使用`, en: `is already used by card ${s}` });
      if (!m && !s) fresh.push(r);
    }
    return fresh;
  }

  private async insertCards(tx: Tx, rows: ParsedCard[], batchId: string): Promise<Set<string>> {
    const col = <K extends keyof ParsedCard>(k: K) => sql.param(rows.map((r) => r[k]));
    const res = (await tx.execute(sql`
      insert into cards (iccid, msisdn, imsi, operator_id, card_type_id, batch_no, batch_id, state)
      select t.iccid, t.msisdn, t.imsi, t.operator_id, t.card_type_id, t.batch_no, ${batchId}::uuid, ${CardState.Start}::smallint
      from unnest(${col('iccid')}::text[], ${col('msisdn')}::text[], ${col('imsi')}::text[], ${col('operatorId')}::smallint[],
        ${col('cardTypeId')}::int[], ${col('batchNo')}::text[])
        as t (iccid, msisdn, imsi, operator_id, card_type_id, batch_no)
      on conflict (iccid) do nothing
      returning iccid`)) as unknown as { rows: { iccid: string }[] };
    // the new cards' cycle usage and quota columns (no plan yet: the operator's billing period, no quota)
    await refreshCardCycles(tx, res.rows.map((r) => r.iccid), new Date());
    return new Set(res.rows.map((r) => r.iccid));
  }

  private async insertErrors(tx: Tx, batchId: string, errors: CardRowError[]) {
    for (let i = 0; i < errors.length; i += CHUNK) {
      const chunk = errors.slice(i, i + CHUNK);
      const col = (f: (e: CardRowError) => string | number | null) => sql.param(chunk.map(f));
      await tx.execute(sql`
        insert into card_import_errors (batch_id, row_no, iccid, msisdn, imsi, column_name, reason_zh, reason_en)
        select ${batchId}::uuid, t.* from unnest(${col((e) => e.row)}::int[], ${col((e) => e.iccid)}::text[], ${col((e) => e.msisdn)}::text[],
          ${col((e) => e.imsi)}::text[], ${col((e) => e.column)}::text[], ${col((e) => e.reason.zh)}::text[], ${col((e) => e.reason.en)}::text[]) as t
        on conflict do nothing`);
    }
  }

  async page(q: BodyOf<typeof carddata.getCardImportPage>) {
    const p = pageOf(q);
    const w: SQL[] = [];
    if (q.fileName) w.push(ilike(cardImportBatches.fileName, contains(q.fileName)));
    if (q.createdFrom) w.push(gte(cardImportBatches.createdAt, businessDayStart(q.createdFrom)));
    if (q.createdTo) w.push(lt(cardImportBatches.createdAt, businessDayEnd(q.createdTo)));
    if (q.withErrors) w.push(gt(cardImportBatches.failedRows, 0));
    const cond = w.length ? and(...w) : undefined;
    const [rows, [{ n }]] = await Promise.all([
      this.db
        .select()
        .from(cardImportBatches)
        .where(cond)
        .orderBy(...orderOf(q, { createdAt: cardImportBatches.createdAt, totalRows: cardImportBatches.totalRows }, [desc(cardImportBatches.createdAt)]))
        .limit(p.limit)
        .offset(p.offset),
      this.db.select({ n: count() }).from(cardImportBatches).where(cond),
    ]);
    return { list: rows.map(toBatch), total: Number(n), current: p.current, pageSize: p.pageSize };
  }

  async detail(batchId: string) {
    const [b] = await this.db.select().from(cardImportBatches).where(eq(cardImportBatches.batchId, batchId));
    if (!b) throw notFound();
    return toBatch(b);
  }

  /** The failed rows; for a download task (whose reader's language the page does not know) both languages. */
  async errorPage(q: BodyOf<typeof carddata.getCardImportErrorPage>, lang: Lang | 'both') {
    const p = pageOf(q);
    const cond = eq(cardImportErrors.batchId, q.batchId);
    const [rows, [{ n }]] = await Promise.all([
      this.db.select().from(cardImportErrors).where(cond).orderBy(asc(cardImportErrors.rowNo), sql`array_position(${sql.param(CARD_IMPORT_COLUMNS.map((c) => c.key))}::text[], ${cardImportErrors.columnName})`).limit(p.limit).offset(p.offset),
      this.db.select({ n: count() }).from(cardImportErrors).where(cond),
    ]);
    return {
      list: rows.map((r) => ({
        row: r.rowNo, iccid: r.iccid, msisdn: r.msisdn, imsi: r.imsi,
        column: lang === 'both' ? bothTitles(r.columnName) : columnTitle(r.columnName, lang),
        reason: lang === 'both' ? `${r.reasonZh} / ${r.reasonEn}` : lang === 'zh' ? r.reasonZh : r.reasonEn,
      })),
      total: Number(n), current: p.current, pageSize: p.pageSize,
    };
  }

  async template(b: BodyOf<typeof carddata.downloadCardImportTemplate>, ctx: SessionContext, reply: FastifyReply) {
    const lang = b.templateLang ?? ctx.lang;
    const base = lang === 'zh' ? '卡导入模板' : 'card-import-template';
    if (b.format === 'csv') {
      return sendDownload(reply, `${base}.csv`, cardTemplateCsv(lang));
    }
    return sendDownload(reply, `${base}.xlsx`, await cardTemplateXlsx(lang));
  }
}
