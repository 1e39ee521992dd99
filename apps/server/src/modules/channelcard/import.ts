import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql, type SQL } from 'drizzle-orm';
import { ErrorCode, channelcard as api, type BodyOf, type Lang } from '@lynx/contract';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { tenantFilter, type Actor, type SessionContext } from '../../platform/context.ts';
import { pageOf } from '../../platform/paging.ts';
import { sendDownload } from '../../platform/files.ts';
import {
  checkSheetRows, readImportUpload, sheetTemplateCsv, sheetTemplateXlsx, wrongRowsError, type Bilingual as B, type Cells, type SheetImportSpec,
} from '../../platform/spreadsheet.ts';
import { exec } from '../dsim/switching.ts';

/**
 * Channel card imports (16010000; import 16010001, staff; docs/channel-cards.md "Import"): one row per card with its
 * ICCID, channel and monthly cost, under one sales order. The cards must already be on the platform (card import),
 * not yet channel cards, and all of one first-level customer. All or nothing: one wrong row and nothing is stored,
 * every wrong row is listed with its reason in the reader's language.
 */
const { CHANNEL_CARD_IMPORT_COLUMNS: COLUMNS, CHANNEL_CARD_IMPORT_MAX_ROWS: MAX_ROWS, CHANNEL_CARD_IMPORT_MAX_BYTES: MAX_BYTES, CHANNEL_CARD_IMPORT_REQUIRED: REQUIRED } = api;
type Key = (typeof COLUMNS)[number]['key'];
const b = (zh: string, en: string): B => ({ zh, en });
/** at most 10 integer digits and 2 decimals (numeric(12, 2)) */
const COST = /^\d{1,10}(\.\d{1,2})?$/;

export interface ParsedChannelCard { row: number; iccid: string; channel: string; cost: string }
export interface ChannelCardRowErr { row: number; iccid: string | null; column: Key; reason: B }

const FILE: SheetImportSpec<Key> = {
  columns: COLUMNS, required: REQUIRED, maxBytes: MAX_BYTES, maxRows: MAX_ROWS,
  codes: { missingColumns: ErrorCode.ChannelCardImportMissingColumns, empty: ErrorCode.ChannelCardImportEmpty },
  tooMany: (count) => new AppError(ErrorCode.ChannelCardImportTooMany, { count, max: MAX_ROWS }),
};

const REASON = {
  required: b('必填', 'is required'),
  iccidFormat: b('应为 19-20 位数字', 'must be 19-20 digits'),
  iccidRepeated: b('在文件中出现多次', 'appears more than once in the file'),
  channelLong: b(`不能超过 ${api.CHANNEL_NAME_MAX} 个字符`, `must be at most ${api.CHANNEL_NAME_MAX} characters`),
  costFormat: b('应为不小于 0 的金额，最多两位小数', 'must be an amount of at least 0 with at most two decimals'),
  cardMissing: b('平台中没有这张卡，请先导入卡', 'no such card on the platform; import the card first'),
  taken: b('已是渠道卡', 'is already a channel card'),
  tenants: b('一个文件中的卡须属于同一个一级客户', 'the cards of one file must belong to one first-level customer'),
};

/** The file's rows checked on their own (formats, repeats); the database checks follow in the transaction. */
export function checkChannelCardRows(cells: Cells[]): { rows: ParsedChannelCard[]; errors: ChannelCardRowErr[]; dataRows: number; missing: Key[] } {
  const seen = new Set<string>();
  return checkSheetRows(cells, COLUMNS, REQUIRED, (get, row, errors: ChannelCardRowErr[]): ParsedChannelCard => {
    const iccid = get('iccid');
    const err = (column: Key, reason: B) => errors.push({ row, iccid: iccid || null, column, reason });
    if (!iccid) err('iccid', REASON.required);
    else if (!/^[0-9]{19,20}$/.test(iccid)) err('iccid', REASON.iccidFormat);
    else if (seen.has(iccid)) err('iccid', REASON.iccidRepeated);
    else seen.add(iccid);
    const channel = get('channel');
    if (!channel) err('channel', REASON.required);
    else if ([...channel].length > api.CHANNEL_NAME_MAX) err('channel', REASON.channelLong);
    const cost = get('cost');
    if (!cost) err('cost', REASON.required);
    else if (!COST.test(cost)) err('cost', REASON.costFormat);
    return { row, iccid, channel, cost };
  });
}

const importTenant = (actor: Actor): SQL => tenantFilter(actor, { custId: sql.raw('b.cust_id'), rootCustId: sql.raw('b.root_cust_id') });

export const importOut = (r: Record<string, unknown>) => ({
  batchId: String(r.batch_id), salesOrder: String(r.sales_order), fileName: String(r.file_name), fileSize: Number(r.file_size),
  remark: (r.remark as string | null) ?? null, cardCount: Number(r.card_count), custId: r.cust_id == null ? null : Number(r.cust_id),
  custName: (r.cust_name as string | null) ?? null, createdBy: String(r.created_by), createdAt: new Date(r.created_at as string).toISOString(),
});

export class ChannelCardImportService {
  constructor(private db: Db) {}

  async import(req: FastifyRequest, ctx: SessionContext) {
    const { file, fields, checked } = await readImportUpload(req, api.importChannelCards, FILE, ctx.lang, checkChannelCardRows);
    return this.store(checked.rows, checked.errors, {
      salesOrder: fields.salesOrder.trim(), fileName: file.filename.slice(0, 200), fileSize: file.buffer.length, remark: fields.remark?.trim() || null,
    }, ctx);
  }

  /** The database checks and the insert in one transaction (imports one at a time); any wrong row refuses the file. */
  async store(rows: ParsedChannelCard[], fileErrors: ChannelCardRowErr[], meta: { salesOrder: string; fileName: string; fileSize: number; remark: string | null }, ctx: SessionContext) {
    const batchId = crypto.randomUUID();
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(7316001)`);
      const errors = [...fileErrors];
      const cards = new Map((await exec<{ iccid: string; cust_id: number | null; root_cust_id: number | null; taken: boolean }>(tx, sql`
        select k.iccid, k.cust_id, k.root_cust_id, (c.iccid is not null) as taken from cards k left join channel_cards c on c.iccid = k.iccid
        where k.iccid = any(${sql.param(rows.map((r) => r.iccid))}::text[])`)).map((c) => [c.iccid, c]));
      let root: number | null | undefined;
      for (const r of rows) {
        const c = cards.get(r.iccid);
        const err = (column: Key, reason: B) => errors.push({ row: r.row, iccid: r.iccid, column, reason });
        if (!c) err('iccid', REASON.cardMissing);
        else if (c.taken) err('iccid', REASON.taken);
        else if (root === undefined) root = c.root_cust_id;
        else if (c.root_cust_id !== root) err('iccid', REASON.tenants);
      }
      if (errors.length) throw wrongRowsError(ErrorCode.ChannelCardImportInvalid, errors, api.CHANNEL_CARD_IMPORT_ERRORS_LISTED, COLUMNS, ctx.lang, (e) => ({ iccid: e.iccid }));
      const rootCustId = root ?? null;
      const [batch] = await exec(tx, sql`insert into channel_card_imports (batch_id, sales_order, file_name, file_size, remark, card_count, cust_id, root_cust_id, created_by)
        values (${batchId}::uuid, ${meta.salesOrder}, ${meta.fileName}, ${meta.fileSize}, ${meta.remark}, ${rows.length}, ${rootCustId}, ${rootCustId}, ${ctx.actor.loginName}) returning *`);
      const col = <T>(f: (r: ParsedChannelCard) => T) => sql.param(rows.map(f));
      // each card keeps its own customer (a second-level customer's card stays its); the root is the file's
      await tx.execute(sql`insert into channel_cards (iccid, channel_name, sales_order, monthly_cost, batch_id, cust_id, root_cust_id)
        select t.iccid, t.channel, ${meta.salesOrder}, t.cost, ${batchId}::uuid, k.cust_id, k.root_cust_id
        from unnest(${col((r) => r.iccid)}::text[], ${col((r) => r.channel)}::text[], ${col((r) => r.cost)}::numeric[]) as t (iccid, channel, cost)
        join cards k on k.iccid = t.iccid`);
      const out = importOut(batch);
      await audit(tx, ctx, { entity: 'channelCardImport', entityId: batchId, custId: rootCustId, rootCustId, after: { ...out, firstIccid: rows[0]?.iccid, lastIccid: rows.at(-1)?.iccid } });
      return out;
    });
  }

  async page(q: BodyOf<typeof api.getChannelCardImportPage>, actor: Actor) {
    const p = pageOf(q);
    const w: SQL[] = [importTenant(actor)];
    if (q.salesOrder) w.push(sql`b.sales_order = ${q.salesOrder.trim()}`);
    const where = sql.join(w, sql` and `);
    const [rows, [{ total }]] = await Promise.all([
      exec(this.db, sql`select b.*, cu.cust_name from channel_card_imports b left join customers cu on cu.cust_id = b.cust_id where ${where}
        order by b.created_at desc, b.batch_id limit ${p.limit} offset ${p.offset}`),
      exec<{ total: string }>(this.db, sql`select count(*) as total from channel_card_imports b where ${where}`),
    ]);
    return { list: rows.map(importOut), total: Number(total), current: p.current, pageSize: p.pageSize };
  }

  async template(q: BodyOf<typeof api.downloadChannelCardTemplate>, ctx: SessionContext, reply: FastifyReply) {
    const lang = q.templateLang ?? ctx.lang;
    const base = lang === 'zh' ? '渠道卡导入模板' : 'channel-card-import-template';
    const example = (k: Key) => (k === 'channel' && lang === 'en' ? 'South China IoT channel' : COLUMNS.find((c) => c.key === k)!.example);
    if (q.format === 'csv') return sendDownload(reply, `${base}.csv`, sheetTemplateCsv(COLUMNS, lang, example));
    const sheet = lang === 'zh' ? '渠道卡导入' : 'Channel card import';
    return sendDownload(reply, `${base}.xlsx`, await sheetTemplateXlsx(COLUMNS, lang, example, { sheet, width: 26, help: HELP[lang] }));
  }
}

const HELP: Record<Lang, string[]> = {
  zh: [
    '每行一张渠道卡，第 1 行为表头（中文或英文表头均可），请勿修改列名。ICCID 列请设为文本格式。',
    'ICCID 为 19-20 位数字，须为平台中已有的卡（先在“导入信息”导入卡），且尚不是渠道卡；一个文件中的卡须属于同一个一级客户。',
    `渠道为上游渠道名称（最多 ${api.CHANNEL_NAME_MAX} 个字符）；月成本为渠道按月每卡收取的金额（元，最多两位小数）。`,
    `一次最多 ${MAX_ROWS} 行。全部行正确才会导入；任何一行有误，都不导入，并逐行列出错误。`,
  ],
  en: [
    'One channel card per row; row 1 is the header (Chinese or English titles), do not rename the columns. Format the ICCID column as text.',
    'ICCID: 19-20 digits, a card already on the platform (import cards first) that is not a channel card yet; the cards of one file belong to one first-level customer.',
    `Channel: the upstream channel's name (at most ${api.CHANNEL_NAME_MAX} characters); Monthly cost: what the channel charges per card and month (CNY, at most two decimals).`,
    `At most ${MAX_ROWS} rows per file. All rows or nothing: if any row is wrong, nothing is imported and every wrong row is listed.`,
  ],
};
