import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { ErrorCode, Operator, dsim as api, type BodyOf, type Lang } from '@lynx/contract';
import type { Db } from '../../db/client.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import type { SessionContext } from '../../platform/context.ts';
import { pageOf } from '../../platform/paging.ts';
import { sendDownload } from '../../platform/files.ts';
import {
  checkSheetRows, looseName as norm, readImportUpload, sheetTemplateCsv, sheetTemplateXlsx, wrongRowsError, type Bilingual as B, type Cells,
  type SheetImportSpec,
} from '../../platform/spreadsheet.ts';
import { exec } from './switching.ts';

/**
 * Super SIM imports (2070000, staff; docs/super-sim.md "Import"): one row per super SIM with its SN and one ICCID per
 * operator (at least two). The member cards must already be on the platform (card import), of the column's operator,
 * of one tenant, and in no other super SIM. All or nothing: one wrong row and nothing is stored, every wrong row is
 * listed with its reason in both languages; a good file is stored in one transaction with its batch and audit row.
 */
const { DSIM_IMPORT_COLUMNS: COLUMNS, DSIM_IMPORT_MAX_ROWS: MAX_ROWS, DSIM_IMPORT_MAX_BYTES: MAX_BYTES, DSIM_IMPORT_REQUIRED } = api;
type Key = (typeof COLUMNS)[number]['key'];
const b = (zh: string, en: string): B => ({ zh, en });
const OPS = [Operator.ChinaMobile, Operator.ChinaUnicom, Operator.ChinaTelecom] as const;
const ICCID_KEYS = ['iccid1', 'iccid2', 'iccid3'] as const;
const OPERATOR_NAMES: Record<string, number> = {
  中国移动: 1, 移动: 1, chinamobile: 1, cmcc: 1, 中国联通: 2, 联通: 2, chinaunicom: 2, cucc: 2, 中国电信: 3, 电信: 3, chinatelecom: 3, ctcc: 3,
};
const YES = new Set(['是', 'yes', 'y', '1', 'true']);
const NO = new Set(['否', 'no', 'n', '0', 'false']);

export interface ParsedDsim { row: number; sn: string; members: { operatorId: number; iccid: string }[]; current: number; supplier: boolean }
export interface DsimRowError { row: number; sn: string | null; column: Key; reason: B }

const FILE: SheetImportSpec<Key> = {
  columns: COLUMNS, required: DSIM_IMPORT_REQUIRED, maxBytes: MAX_BYTES, maxRows: MAX_ROWS,
  codes: { missingColumns: ErrorCode.DsimImportMissingColumns, empty: ErrorCode.DsimImportEmpty },
  tooMany: (count) => new AppError(ErrorCode.DsimImportTooMany, { count, max: MAX_ROWS }),
};

const REASON = {
  required: b('必填', 'is required'),
  snFormat: b('应为 6-32 位字母或数字', 'must be 6-32 letters or digits'),
  iccidFormat: b('应为 19-20 位数字', 'must be 19-20 digits'),
  twoMembers: b('至少填写两个运营商的 ICCID', 'give the ICCIDs of at least two operators'),
  snRepeated: b('与文件中前面的行重复', 'repeats an earlier row of the file'),
  snExists: b('该 SN 已存在', 'this SN already exists'),
  iccidRepeated: b('在文件中出现多次', 'appears more than once in the file'),
  cardMissing: b('平台中没有这张卡，请先导入卡', 'no such card on the platform; import the card first'),
  wrongOperator: b('卡的运营商与该列不符', "the card's operator does not match the column"),
  taken: b('已属于其他超级 SIM', 'already belongs to another super SIM'),
  tenants: b('各运营商的卡须属于同一客户', 'the cards must belong to the same customer'),
  currentUnknown: b('应为有 ICCID 的运营商之一', 'must be one of the operators given an ICCID'),
  supplierValue: b('应为“是”或“否”', 'must be yes or no'),
};

/** The file's rows checked on their own (formats, repeats); the database checks follow in the transaction. */
export function checkDsimRows(cells: Cells[]): { rows: ParsedDsim[]; errors: DsimRowError[]; dataRows: number; missing: Key[] } {
  const seenSn = new Set<string>();
  const seenIccid = new Set<string>();
  return checkSheetRows(cells, COLUMNS, DSIM_IMPORT_REQUIRED, (get, row, errors: DsimRowError[]): ParsedDsim => {
    const sn = get('sn');
    const err = (column: Key, reason: B) => errors.push({ row, sn: sn || null, column, reason });
    if (!sn) err('sn', REASON.required);
    else if (!new RegExp(api.DSIM_SN_PATTERN).test(sn)) err('sn', REASON.snFormat);
    else if (seenSn.has(sn)) err('sn', REASON.snRepeated);
    else seenSn.add(sn);
    const members: ParsedDsim['members'] = [];
    ICCID_KEYS.forEach((k, j) => {
      const iccid = get(k);
      if (!iccid) return;
      if (!/^[0-9]{19,20}$/.test(iccid)) return err(k, REASON.iccidFormat);
      if (seenIccid.has(iccid)) return err(k, REASON.iccidRepeated);
      seenIccid.add(iccid);
      members.push({ operatorId: OPS[j], iccid });
    });
    if (members.length + errors.filter((e) => e.column.startsWith('iccid')).length < 2) err('iccid1', REASON.twoMembers);
    const currentText = get('current');
    let current = members[0]?.operatorId ?? 0;
    if (currentText) {
      const op = OPERATOR_NAMES[norm(currentText)];
      if (!op || !members.some((m) => m.operatorId === op)) err('current', REASON.currentUnknown);
      else current = op;
    }
    const supplierText = norm(get('supplier'));
    if (supplierText && !YES.has(supplierText) && !NO.has(supplierText)) err('supplier', REASON.supplierValue);
    return { row, sn, members, current, supplier: YES.has(supplierText) };
  });
}

const batchOut = (r: Record<string, unknown>) => ({
  batchId: String(r.batch_id), fileName: String(r.file_name), fileSize: Number(r.file_size), remark: (r.remark as string | null) ?? null,
  simCount: Number(r.sim_count), cardCount: Number(r.card_count), createdBy: String(r.created_by), createdAt: new Date(r.created_at as string).toISOString(),
});

export class DsimImportService {
  constructor(private db: Db) {}

  async import(req: FastifyRequest, ctx: SessionContext) {
    const { file, fields, checked } = await readImportUpload(req, api.importDsims, FILE, ctx.lang, checkDsimRows);
    return this.store(checked.rows, checked.errors, { fileName: file.filename.slice(0, 200), fileSize: file.buffer.length, remark: fields.remark?.trim() || null }, ctx);
  }

  /** The database checks and the insert, in one transaction (imports one at a time); any wrong row refuses the file. */
  async store(rows: ParsedDsim[], fileErrors: DsimRowError[], meta: { fileName: string; fileSize: number; remark: string | null }, ctx: SessionContext) {
    const batchId = crypto.randomUUID();
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(7310916)`);
      const errors = [...fileErrors];
      const iccids = rows.flatMap((r) => r.members.map((m) => m.iccid));
      const cards = new Map((await exec<{ iccid: string; operator_id: number; cust_id: number | null; root_cust_id: number | null; sn: string | null }>(tx, sql`
        select k.iccid, k.operator_id, k.cust_id, k.root_cust_id, m.sn from cards k left join dsim_members m on m.iccid = k.iccid
        where k.iccid = any(${sql.param(iccids)}::text[])`)).map((c) => [c.iccid, c]));
      const existing = new Set((await exec<{ sn: string }>(tx, sql`select sn from dsims where sn = any(${sql.param(rows.map((r) => r.sn))}::text[])`)).map((r) => r.sn));
      const owners = new Map<string, { custId: number | null; rootCustId: number | null }>();
      for (const r of rows) {
        const err = (column: Key, reason: B) => errors.push({ row: r.row, sn: r.sn, column, reason });
        if (existing.has(r.sn)) err('sn', REASON.snExists);
        const tenants = new Set<string>();
        for (const m of r.members) {
          const column = ICCID_KEYS[OPS.indexOf(m.operatorId as (typeof OPS)[number])];
          const c = cards.get(m.iccid);
          if (!c) err(column, REASON.cardMissing);
          else if (Number(c.operator_id) !== m.operatorId) err(column, REASON.wrongOperator);
          else if (c.sn) err(column, REASON.taken);
          else tenants.add(`${c.cust_id ?? ''}/${c.root_cust_id ?? ''}`);
        }
        if (tenants.size > 1) err('iccid1', REASON.tenants);
        const c0 = cards.get(r.members[0].iccid);
        owners.set(r.sn, { custId: c0?.cust_id ?? null, rootCustId: c0?.root_cust_id ?? null });
      }
      if (errors.length) throw wrongRowsError(ErrorCode.DsimImportInvalid, errors, api.DSIM_IMPORT_ERRORS_LISTED, COLUMNS, ctx.lang, (e) => ({ sn: e.sn }));
      const cardCount = iccids.length;
      const [batch] = await exec(tx, sql`insert into dsim_import_batches (batch_id, file_name, file_size, remark, sim_count, card_count, created_by)
        values (${batchId}::uuid, ${meta.fileName}, ${meta.fileSize}, ${meta.remark}, ${rows.length}, ${cardCount}, ${ctx.actor.loginName}) returning *`);
      const col = <T>(f: (r: ParsedDsim) => T) => sql.param(rows.map(f));
      await tx.execute(sql`insert into dsims (sn, is_supplier, cust_id, root_cust_id, current_operator_id, batch_id)
        select t.sn, t.sup, t.cust, t.root, t.cur, ${batchId}::uuid
        from unnest(${col((r) => r.sn)}::text[], ${col((r) => r.supplier)}::boolean[], ${col((r) => owners.get(r.sn)!.custId)}::int[],
          ${col((r) => owners.get(r.sn)!.rootCustId)}::int[], ${col((r) => r.current)}::smallint[]) as t (sn, sup, cust, root, cur)`);
      const members = rows.flatMap((r) => r.members.map((m) => ({ sn: r.sn, ...m })));
      await tx.execute(sql`insert into dsim_members (sn, operator_id, iccid)
        select * from unnest(${sql.param(members.map((m) => m.sn))}::text[], ${sql.param(members.map((m) => m.operatorId))}::smallint[],
          ${sql.param(members.map((m) => m.iccid))}::text[])`);
      const out = batchOut(batch);
      await audit(tx, ctx, { entity: 'dsimImport', entityId: batchId, custId: null, rootCustId: null, after: { ...out, firstSn: rows[0]?.sn, lastSn: rows.at(-1)?.sn } });
      return out;
    });
  }

  async page(q: BodyOf<typeof api.getDsimImportPage>) {
    const p = pageOf(q);
    const [rows, [{ total }]] = await Promise.all([
      exec(this.db, sql`select * from dsim_import_batches order by created_at desc, batch_id limit ${p.limit} offset ${p.offset}`),
      exec<{ total: string }>(this.db, sql`select count(*) as total from dsim_import_batches`),
    ]);
    return { list: rows.map(batchOut), total: Number(total), current: p.current, pageSize: p.pageSize };
  }

  async detail(batchId: string) {
    const [r] = await exec(this.db, sql`select * from dsim_import_batches where batch_id = ${batchId}::uuid`);
    if (!r) throw notFound();
    return batchOut(r);
  }

  /** The batch's SNs and their ICCIDs per operator (one row per member), SN order. */
  async items(q: BodyOf<typeof api.getDsimImportItemPage>) {
    await this.detail(q.batchId);
    const p = pageOf(q);
    const sn = q.snNumber?.trim();
    const where = sql`d.batch_id = ${q.batchId}::uuid${sn ? sql` and strpos(upper(d.sn), upper(${sn})) > 0` : sql``}`;
    const [rows, [{ total }]] = await Promise.all([
      exec(this.db, sql`select m.sn, d.is_supplier, m.operator_id, m.iccid from dsims d join dsim_members m on m.sn = d.sn where ${where}
        order by m.sn, m.operator_id limit ${p.limit} offset ${p.offset}`),
      exec<{ total: string }>(this.db, sql`select count(*) as total from dsims d join dsim_members m on m.sn = d.sn where ${where}`),
    ]);
    return { list: rows.map((r) => ({ sn: String(r.sn), isSupplierCard: Boolean(r.is_supplier), operatorId: Number(r.operator_id), iccid: String(r.iccid) })), total: Number(total), current: p.current, pageSize: p.pageSize };
  }

  async template(q: BodyOf<typeof api.downloadDsimImportTemplate>, ctx: SessionContext, reply: FastifyReply) {
    const lang = q.templateLang ?? ctx.lang;
    const base = lang === 'zh' ? '超级SIM导入模板' : 'super-sim-import-template';
    const example = (k: Key) => (k === 'current' && lang === 'en' ? 'China Mobile' : k === 'supplier' && lang === 'en' ? 'no' : COLUMNS.find((c) => c.key === k)!.example);
    if (q.format === 'csv') return sendDownload(reply, `${base}.csv`, sheetTemplateCsv(COLUMNS, lang, example));
    const sheet = lang === 'zh' ? '超级SIM导入' : 'Super SIM import';
    return sendDownload(reply, `${base}.xlsx`, await sheetTemplateXlsx(COLUMNS, lang, example, { sheet, width: 24, help: HELP[lang] }));
  }
}

const HELP: Record<Lang, string[]> = {
  zh: [
    '每行一张超级 SIM，第 1 行为表头（中文或英文表头均可），请勿修改列名。',
    'SN 为 6-32 位字母或数字；每个运营商一列 ICCID（19-20 位数字），至少填写两个运营商。请将这些列设为文本格式。',
    '各 ICCID 须为平台中已有的卡（先在“导入信息”导入卡），运营商与列一致，属于同一客户，且不属于其他超级 SIM。',
    '初始运营商可不填（默认第一个填写的运营商）；供应商卡填“是”或“否”，可不填（默认否）。',
    `一次最多 ${MAX_ROWS} 行。全部行正确才会导入；任何一行有误，都不导入，并逐行列出错误。`,
  ],
  en: [
    'One super SIM per row; row 1 is the header (Chinese or English titles), do not rename the columns.',
    'SN: 6-32 letters or digits; one ICCID column per operator (19-20 digits), at least two operators. Format these columns as text.',
    'Each ICCID must be a card already on the platform (import cards first), of the column\'s operator, of one customer, and in no other super SIM.',
    'Initial operator is optional (default: the first operator given); Supplier card is yes or no, optional (default no).',
    `At most ${MAX_ROWS} rows per file. All rows or nothing: if any row is wrong, nothing is imported and every wrong row is listed.`,
  ],
};
