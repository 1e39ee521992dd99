import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, count, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import { ErrorCode, OperatorGoodsStatus, formatSize, netconfig, type BodyOf } from '@lynx/contract';
import type { Db } from '../../../db/client.ts';
import { AppError, FieldError, notFound } from '../../../platform/errors.ts';
import { audit } from '../../../platform/audit.ts';
import type { SessionContext } from '../../../platform/context.ts';
import { contains, orderOf, pageFrom, pageOf, totalOver } from '../../../platform/paging.ts';
import { readMultipart, sendDownload } from '../../../platform/files.ts';
import { readSheet } from '../../../platform/spreadsheet.ts';
import { operators } from '../../account/tables.ts';
import { operatorGoods } from './tables.ts';
import { checkRows, importColumnTitle, templateCsv, templateXlsx, type RowError } from './import.ts';

const { GOODS_IMPORT_COLUMNS, IMPORT_MAX_BYTES, IMPORT_MAX_ROWS } = netconfig;
type GoodsRow = typeof operatorGoods.$inferSelect;
type Filters = Pick<BodyOf<typeof netconfig.getOperatorGoodsList>, 'goodsCode' | 'goodsName' | 'operatorId' | 'goodsType' | 'status'>;

const toGoods = (r: GoodsRow) => ({
  goodsId: r.goodsId, goodsCode: r.goodsCode, goodsName: r.goodsName, operatorId: r.operatorId, goodsType: r.goodsType, quota: r.quota,
  quotaUnit: r.quotaUnit, quotaBase: r.quotaBase, validityDays: r.validityDays, price: r.price, status: r.status,
  createdBy: r.createdBy, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(),
});

/**
 * What reading an uploaded plan file may take. IMPORT_MAX_ROWS rows with long codes and names inflate to 3.5 MB of
 * XML (ExcelJS): twice that, rounded up, is the most an import reads before refusing. Rows: header and data
 * rows plus some blank ones, so that a file slightly over IMPORT_MAX_ROWS still gets the "too many" answer below.
 */
const SHEET_LIMITS = {
  minColumns: GOODS_IMPORT_COLUMNS.length,
  maxRows: IMPORT_MAX_ROWS + 100,
  tooManyRows: () => new AppError(ErrorCode.OperatorGoodsImportTooMany, { max: IMPORT_MAX_ROWS }),
  maxUnpackedBytes: 8 * 1024 * 1024,
  /** the template's columns and a few of the uploader's own */
  maxColumns: GOODS_IMPORT_COLUMNS.length + 10,
  maxCellChars: 1000,
  maxSharedStrings: 100_000,
};

/** The operators' own rate plans, imported from their files; switched on/off and deleted by staff. */
export class OperatorGoodsService {
  constructor(private db: Db) {}

  private where(q: Filters): SQL | undefined {
    const where: SQL[] = [];
    if (q.goodsCode) where.push(ilike(operatorGoods.goodsCode, contains(q.goodsCode)));
    if (q.goodsName) where.push(ilike(operatorGoods.goodsName, contains(q.goodsName)));
    if (q.operatorId !== undefined) where.push(eq(operatorGoods.operatorId, q.operatorId));
    if (q.goodsType !== undefined) where.push(eq(operatorGoods.goodsType, q.goodsType));
    if (q.status !== undefined) where.push(eq(operatorGoods.status, q.status));
    return where.length ? and(...where) : undefined;
  }

  async list(q: BodyOf<typeof netconfig.getOperatorGoodsList>) {
    const p = pageOf(q);
    const cond = this.where(q);
    const { rows, total } = await pageFrom(
      await this.db
        .select({ g: operatorGoods, total: totalOver() })
        .from(operatorGoods)
        .where(cond)
        .orderBy(...orderOf(q, { goodsCode: operatorGoods.goodsCode, price: operatorGoods.price, createdAt: operatorGoods.createdAt }, [desc(operatorGoods.goodsId)]))
        .limit(p.limit)
        .offset(p.offset),
      p,
      async () => Number((await this.db.select({ n: count() }).from(operatorGoods).where(cond))[0].n),
    );
    return { list: rows.map((r) => toGoods(r.g)), total, current: p.current, pageSize: p.pageSize };
  }

  /**
   * The list other modules use to pick an operator package. Spec §7: operator package list calls force
   * status 1 — whatever status the caller sends, only plans switched on are returned.
   */
  async packageOptions(q: BodyOf<typeof netconfig.getOperatorPackageList>) {
    const rows = await this.db
      .select()
      .from(operatorGoods)
      .where(this.where({ ...q, status: OperatorGoodsStatus.On }))
      .orderBy(operatorGoods.operatorId, operatorGoods.goodsType, operatorGoods.quotaBase, operatorGoods.goodsCode)
      .limit(500);
    return rows.map((r) => ({
      goodsId: r.goodsId, goodsCode: r.goodsCode, goodsName: r.goodsName, operatorId: r.operatorId, goodsType: r.goodsType, quota: r.quota,
      quotaUnit: r.quotaUnit, quotaBase: r.quotaBase, validityDays: r.validityDays, price: r.price, status: r.status,
    }));
  }

  /** All rows or none: any bad row refuses the whole file with every problem listed (20254). */
  async import(req: FastifyRequest, ctx: SessionContext) {
    const { file } = await readMultipart(req, netconfig.importOperatorGoods);
    if (!file || file.buffer.length === 0) throw new AppError(ErrorCode.FileRequired, undefined, 400);
    if (file.buffer.length > IMPORT_MAX_BYTES) throw new AppError(ErrorCode.FileTooBig, { max: formatSize(IMPORT_MAX_BYTES) }, 400);
    const cells = await readSheet(file, SHEET_LIMITS);
    const lang = ctx.lang;
    const ops = await this.db.select().from(operators);
    const { rows, errors, dataRows } = checkRows(cells, ops, lang);
    if (!errors.length && dataRows === 0) throw new AppError(ErrorCode.OperatorGoodsImportEmpty);
    if (dataRows > IMPORT_MAX_ROWS) throw new AppError(ErrorCode.OperatorGoodsImportTooMany, { max: IMPORT_MAX_ROWS });

    return this.db.transaction(async (tx) => {
      // one import at a time, so two files cannot both pass the "code already imported" check
      await tx.execute(sql`select pg_advisory_xact_lock(7310803)`);
      const all: RowError[] = [...errors];
      if (rows.length) {
        const existing = await tx
          .select({ operatorId: operatorGoods.operatorId, code: sql<string>`lower(${operatorGoods.goodsCode})` })
          .from(operatorGoods)
          .where(inArray(sql`lower(${operatorGoods.goodsCode})`, [...new Set(rows.map((r) => r.goodsCode.toLowerCase()))]));
        const taken = new Set(existing.map((e) => `${e.operatorId}:${e.code}`));
        for (const r of rows) {
          if (taken.has(`${r.operatorId}:${r.goodsCode.toLowerCase()}`)) {
            all.push({
              row: r.row, column: importColumnTitle('goodsCode', lang),
              reason: lang === 'zh' ? '该运营商下已存在此套餐编码' : 'this operator already has a plan with this code',
            });
          }
        }
      }
      if (all.length) {
        all.sort((a, b) => a.row - b.row);
        throw new AppError(ErrorCode.OperatorGoodsImportInvalid, { count: all.length }, 200, { errors: all, total: dataRows });
      }
      const importBatch = crypto.randomUUID();
      const inserted = [];
      for (let i = 0; i < rows.length; i += 500) {
        inserted.push(
          ...(await tx
            .insert(operatorGoods)
            .values(
              rows.slice(i, i + 500).map((r) => ({
                goodsCode: r.goodsCode, goodsName: r.goodsName, operatorId: r.operatorId, goodsType: r.goodsType, quota: r.quota,
                quotaUnit: r.quotaUnit, quotaBase: r.quotaBase, validityDays: r.validityDays, price: r.price, status: OperatorGoodsStatus.On,
                importBatch, createdBy: ctx.actor.loginName,
              })),
            )
            .returning({ goodsId: operatorGoods.goodsId, goodsCode: operatorGoods.goodsCode, operatorId: operatorGoods.operatorId })),
        );
      }
      await audit(tx, ctx, {
        entity: 'operatorGoodsImport', entityId: importBatch, custId: null, rootCustId: null,
        after: { fileName: file.filename, size: file.buffer.length, imported: inserted.length, goods: inserted },
      });
      return { imported: inserted.length };
    });
  }

  async switchStatus(b: BodyOf<typeof netconfig.switchOperatorGoods>, ctx: SessionContext) {
    if (!OperatorGoodsStatus.has(b.status)) throw new FieldError('status', { zh: '取值无效', en: 'has an invalid value' });
    await this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(operatorGoods).where(eq(operatorGoods.goodsId, b.goodsId)).for('update');
      if (!before) throw notFound();
      const [after] = await tx.update(operatorGoods).set({ status: b.status, updatedAt: new Date() }).where(eq(operatorGoods.goodsId, b.goodsId)).returning();
      await audit(tx, ctx, { entity: 'operatorGoods', entityId: b.goodsId, before, after, custId: null, rootCustId: null });
    });
  }

  async delete(goodsIds: number[], ctx: SessionContext) {
    return this.db.transaction(async (tx) => {
      const rows = await tx.delete(operatorGoods).where(inArray(operatorGoods.goodsId, [...new Set(goodsIds)])).returning();
      if (!rows.length) throw notFound();
      for (const r of rows) await audit(tx, ctx, { entity: 'operatorGoods', entityId: r.goodsId, before: r, custId: null, rootCustId: null });
      return { deleted: rows.length };
    });
  }

  async template(b: BodyOf<typeof netconfig.downloadOperatorGoodsTemplate>, ctx: SessionContext, reply: FastifyReply) {
    const lang = b.templateLang ?? ctx.lang;
    const format = b.format;
    const base = lang === 'zh' ? '运营商套餐导入模板' : 'operator-plan-import-template';
    if (format === 'csv') {
      return sendDownload(reply, `${base}.csv`, templateCsv(lang));
    }
    return sendDownload(reply, `${base}.xlsx`, await templateXlsx(lang));
  }
}
