import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql, type SQL } from 'drizzle-orm';
import {
  BILL_LINES_COUNT_CAP, ChannelBillLineState as L, ChannelBillSource, ChannelBillState, ErrorCode, Operator, businessDay, channelbill, formatSize, operatebill,
  type BodyOf, type Lang,
} from '@lynx/contract';
import type { Db } from '../../../db/client.ts';
import { AppError, invalid, notFound } from '../../../platform/errors.ts';
import { audit } from '../../../platform/audit.ts';
import type { SessionContext } from '../../../platform/context.ts';
import { pageOf } from '../../../platform/paging.ts';
import { readMultipart, sendDownload } from '../../../platform/files.ts';
import { iccidBox } from '../../card/list/iccid-prefix.ts';
import { rowsOf } from '../bills/bill-sql.ts';
import { periodByKey, periodOfDay, shiftPeriodKey } from '../rating/periods.ts';
import { BUILT_IN_ACCOUNT_LABEL } from '../operator/operator-bill-fetch.ts';
import { columnTitle, templateCsv, templateXlsx } from './channel-bill-file.ts';

type Api = typeof channelbill;
const { CHANNEL_BILL_MAX_BYTES } = channelbill;
const { OperatorBillState } = operatebill;

const BILL_COLUMNS = sql.raw(`b.bill_id, b.period_key, b.period_from::text as period_from, b.period_to::text as period_to, b.operator_id, b.source_type,
  b.source_name, b.find_missing, b.state, b.file_name, b.file_size, b.remark, b.total_lines, b.lines_done, b.error_count, b.failure_zh, b.failure_en,
  b.channel_amount::text as channel_amount, b.created_by, b.created_at, b.reconciled_at,
  (select jsonb_build_object('operatorBillId', ob.operator_bill_id, 'operAccountId', ob.oper_account_id, 'accountName', ob.account_name, 'billRef', ob.bill_ref)
    from operator_bills ob where ob.operator_bill_id = b.operator_bill_id) as operator_bill,
  coalesce((select jsonb_object_agg(s.state, s.lines) from channel_bill_summaries s where s.bill_id = b.bill_id), '{}'::jsonb) as counts,
  (select coalesce(sum(s.channel_amount), 0)::numeric(16, 2)::text from channel_bill_summaries s where s.bill_id = b.bill_id and s.state in (${L.Differs}, ${L.MissingOnPlatform})) as disputed`);

const iso = (v: unknown) => (v == null ? null : new Date(v as string).toISOString());
const num = (v: unknown) => Number(v ?? 0);
const optNum = (v: unknown) => (v == null ? null : Number(v));
const money2 = (v: unknown) => Number(v ?? 0).toFixed(2);

interface OperatorBillLink {
  operatorBillId: number;
  operAccountId: number;
  accountName: string;
  billRef: string | null;
}

function billOut(r: Record<string, unknown>, lang: Lang) {
  const counts = (typeof r.counts === 'string' ? JSON.parse(r.counts) : r.counts) as Record<string, number>;
  return {
    billId: num(r.bill_id), periodKey: String(r.period_key), periodFrom: String(r.period_from), periodTo: String(r.period_to), operatorId: num(r.operator_id),
    sourceType: num(r.source_type), sourceName: String(r.source_name), findMissing: Boolean(r.find_missing), state: num(r.state), fileName: String(r.file_name),
    fileSize: num(r.file_size), remark: (r.remark as string | null) ?? null, totalLines: num(r.total_lines), linesDone: num(r.lines_done), errorCount: num(r.error_count),
    failure: ((lang === 'zh' ? r.failure_zh : r.failure_en) as string | null) ?? null,
    // numeric(16, 2) as text: exact
    channelAmount: String(r.channel_amount), disputedAmount: String(r.disputed),
    matched: num(counts[L.Matched]), differs: num(counts[L.Differs]), missingOnPlatform: num(counts[L.MissingOnPlatform]), missingInChannel: num(counts[L.MissingInChannel]),
    createdBy: String(r.created_by), createdAt: iso(r.created_at)!, reconciledAt: iso(r.reconciled_at),
    operatorBill: (typeof r.operator_bill === 'string' ? JSON.parse(r.operator_bill) : r.operator_bill ?? null) as OperatorBillLink | null,
  };
}
export type ChannelBillOut = ReturnType<typeof billOut>;

/** A line's key as `after`: its ICCID (the partition's primary key is (bill_id, iccid)). */
const AFTER_RE = /^[0-9A-Za-z]{1,20}$/;

const iccidFilter = (iccid: string): SQL => iccidBox(sql.raw('l.iccid'), iccid);

/**
 * Channel bills (4050000): the list, a bill with its summary per line state, its lines by key, a failed import's
 * errors, the upload that starts an import, delete and reconcile again. Staff only (routes check it); every bill is
 * the platform's, so there is no customer scope inside.
 */
export class ChannelBillService {
  /** the export's position per task and page (it reads its pages in order; see exportPage) */
  private exportCursor = new Map<string, string>();

  constructor(
    private db: Db,
    private filesRoot: string,
  ) {}

  async list(q: BodyOf<Api['getChannelBillPage']>, lang: Lang) {
    const p = pageOf(q);
    const w: SQL[] = [sql`true`];
    if (q.periodKey) w.push(sql`b.period_key = ${q.periodKey}`);
    if (q.operatorId) w.push(sql`b.operator_id = ${q.operatorId}`);
    if (q.state) w.push(sql`b.state = ${q.state}`);
    if (q.sourceName) w.push(sql`strpos(lower(b.source_name), lower(${q.sourceName})) > 0`);
    const cond = sql.join(w, sql` and `);
    const [rows, [{ n }]] = await Promise.all([
      this.db.execute(sql`select ${BILL_COLUMNS} from channel_bills b where ${cond} order by b.period_key desc, b.bill_id desc limit ${p.limit} offset ${p.offset}`).then((r) => rowsOf<Record<string, unknown>>(r)),
      this.db.execute(sql`select count(*) as n from channel_bills b where ${cond}`).then((r) => rowsOf<{ n: string }>(r)),
    ]);
    return { list: rows.map((r) => billOut(r, lang)), total: Number(n), current: p.current, pageSize: p.pageSize };
  }

  async bill(billId: number, lang: Lang): Promise<ChannelBillOut> {
    const [r] = rowsOf<Record<string, unknown>>(await this.db.execute(sql`select ${BILL_COLUMNS} from channel_bills b where b.bill_id = ${billId}`));
    if (!r) throw notFound();
    return billOut(r, lang);
  }

  async detail(billId: number, lang: Lang) {
    const bill = await this.bill(billId, lang);
    const rows = rowsOf<Record<string, unknown>>(await this.db.execute(sql`select state, lines, channel_bytes, platform_bytes, channel_sms, platform_sms,
      channel_amount::text as channel_amount from channel_bill_summaries where bill_id = ${billId} order by state`));
    return {
      bill,
      summaries: rows.map((r) => ({
        state: num(r.state), lines: num(r.lines), channelBytes: num(r.channel_bytes), platformBytes: num(r.platform_bytes), channelSms: num(r.channel_sms),
        platformSms: num(r.platform_sms), channelAmount: String(r.channel_amount),
      })),
    };
  }

  /** One page of a bill's lines along the key of its partition: the same cost at the first card and the last. */
  async lines(q: BodyOf<Api['getChannelBillLines']>, lang: Lang, opts: { total?: boolean } = {}) {
    const bill = await this.bill(q.billId, lang);
    const pageSize = q.pageSize ?? 20;
    const where: SQL[] = [sql`l.bill_id = ${q.billId}`];
    if (q.iccid) where.push(iccidFilter(q.iccid));
    if (q.state !== undefined) where.push(sql`l.state = ${q.state}`);
    const filtered = sql.join(where, sql` and `);
    if (q.after !== undefined && !AFTER_RE.test(q.after)) {
      throw invalid('after', { zh: '分页位置无效，请从第一页重新查询', en: 'is not a page position; start again from the first page' });
    }
    const cond = q.after ? sql`${filtered} and l.iccid > ${q.after}` : filtered;
    const offset = !q.after && q.current && q.current > 1 ? (q.current - 1) * pageSize : 0;
    const rows = rowsOf<Record<string, unknown>>(await this.db.execute(sql`select l.iccid, l.line_no, l.state, l.channel_bytes, l.platform_bytes, l.channel_sms,
      l.platform_sms, l.channel_amount::text as channel_amount from channel_bill_lines l where ${cond} order by l.iccid limit ${pageSize + 1} offset ${offset}`));
    const more = rows.length > pageSize;
    const list = (more ? rows.slice(0, pageSize) : rows).map((r) => {
      const ch = optNum(r.channel_bytes);
      const pl = optNum(r.platform_bytes);
      const chSms = optNum(r.channel_sms);
      const plSms = optNum(r.platform_sms);
      return {
        iccid: String(r.iccid), lineNo: optNum(r.line_no), state: num(r.state), channelBytes: ch, platformBytes: pl,
        diffBytes: ch !== null && pl !== null ? ch - pl : null, channelSms: chSms, platformSms: plSms,
        diffSms: chSms !== null && plSms !== null ? chSms - plSms : null, channelAmount: r.channel_amount == null ? null : money2(r.channel_amount),
      };
    });
    let total = -1;
    let totalCapped = false;
    if (opts.total !== false) {
      if (!q.iccid && bill.state === ChannelBillState.Reconciled) {
        const byState: Record<number, number> = { [L.Matched]: bill.matched, [L.Differs]: bill.differs, [L.MissingOnPlatform]: bill.missingOnPlatform, [L.MissingInChannel]: bill.missingInChannel, [L.Pending]: 0 };
        total = q.state === undefined ? Object.values(byState).reduce((a, b) => a + b, 0) : byState[q.state];
      } else {
        // counted up to the cap: a short ICCID prefix can match most of a million lines
        const n = Number(rowsOf<{ n: string }>(await this.db.execute(sql`select count(*) as n from (select 1 from channel_bill_lines l where ${filtered}
          limit ${BILL_LINES_COUNT_CAP + 1}) x`))[0].n);
        totalCapped = n > BILL_LINES_COUNT_CAP;
        total = totalCapped ? BILL_LINES_COUNT_CAP : n;
      }
    }
    return { list, total, totalCapped, pageSize, next: more ? list[list.length - 1].iccid : null };
  }

  /** A page of the export, which walks pages by number: each continues from where the one before ended (by key). */
  async exportPage(f: BodyOf<Api['getChannelBillLines']>, lang: Lang, taskKey: string) {
    const current = f.current ?? 1;
    const pageSize = f.pageSize ?? 500;
    const key = (n: number) => `${taskKey}|${f.billId}|${f.state ?? ''}|${f.iccid ?? ''}|${n}`;
    const after = current > 1 ? this.exportCursor.get(key(current - 1)) : undefined;
    if (after) this.exportCursor.delete(key(current - 1));
    const page = await this.lines({ ...f, after, current: after ? undefined : current, pageSize }, lang, { total: false });
    if (page.next) {
      if (this.exportCursor.size > 1000) this.exportCursor.clear();
      this.exportCursor.set(key(current), page.next);
    }
    return { list: page.list, total: page.next ? Number.MAX_SAFE_INTEGER : (current - 1) * pageSize + page.list.length };
  }

  async exportCount(f: BodyOf<Api['getChannelBillLines']>, lang: Lang): Promise<number> {
    return (await this.lines({ ...f, pageSize: 1 }, lang)).total;
  }

  async errors(q: BodyOf<Api['getChannelBillErrors']>, lang: Lang | 'both') {
    await this.bill(q.billId, 'en');
    const p = pageOf(q);
    const [rows, [{ n }]] = await Promise.all([
      this.db.execute(sql`select line_no, column_name, iccid, reason_zh, reason_en from channel_bill_errors where bill_id = ${q.billId}
        order by line_no, column_name limit ${p.limit} offset ${p.offset}`).then((r) => rowsOf<Record<string, unknown>>(r)),
      this.db.execute(sql`select count(*) as n from channel_bill_errors where bill_id = ${q.billId}`).then((r) => rowsOf<{ n: string }>(r)),
    ]);
    const title = (k: string) => (lang === 'both' ? `${columnTitle(k, 'zh')} / ${columnTitle(k, 'en')}` : columnTitle(k, lang));
    return {
      list: rows.map((r) => ({
        lineNo: num(r.line_no), iccid: (r.iccid as string | null) ?? null, column: title(String(r.column_name)),
        reason: lang === 'both' ? `${r.reason_zh} / ${r.reason_en}` : String(lang === 'zh' ? r.reason_zh : r.reason_en),
      })),
      total: Number(n), current: p.current, pageSize: p.pageSize,
    };
  }

  /**
   * The upload: checks the request (operator, a period that has ended, no live bill of the same issuer and period),
   * stores the file and the bill in state Importing. The caller kicks the job.
   */
  async create(req: FastifyRequest, ctx: SessionContext, now = new Date()): Promise<ChannelBillOut> {
    const { file, fields } = await readMultipart(req, channelbill.importChannelBill);
    if (!file || file.buffer.length === 0) throw new AppError(ErrorCode.FileRequired, undefined, 400);
    if (file.buffer.length > CHANNEL_BILL_MAX_BYTES) throw new AppError(ErrorCode.FileTooBig, { max: formatSize(CHANNEL_BILL_MAX_BYTES) }, 400);
    const ext = path.extname(file.filename).toLowerCase();
    if (ext !== '.csv' && ext !== '.xlsx') throw new AppError(ErrorCode.FileType, undefined, 400);
    const operatorId = Number(fields.operatorId);
    const periodKey = fields.periodKey;
    const [op] = rowsOf<{ operator_id: number; billing_day: number }>(await this.db.execute(sql`select operator_id, billing_day from operators where operator_id = ${operatorId}`));
    if (!op) throw new AppError(ErrorCode.ChannelBillOperatorUnknown);
    const period = periodByKey(periodKey, Number(op.billing_day));
    // a period still running has usage still to come: its bill cannot be reconciled yet
    const today = businessDay(now.getTime());
    if (periodOfDay(today, Number(op.billing_day)).key <= periodKey) {
      throw new AppError(ErrorCode.ChannelBillPeriodOpen, { period: periodKey, lastDay: period.lastDay });
    }
    const sourceName = fields.sourceName.trim();
    if (!sourceName) throw invalid('sourceName', { zh: '不能为空', en: 'must not be blank' });
    const remark = fields.remark?.trim() || null;
    const storageKey = path.posix.join('channel-bills', periodKey, `${crypto.randomUUID()}${ext}`);
    await fs.mkdir(path.dirname(path.join(this.filesRoot, storageKey)), { recursive: true });
    await fs.writeFile(path.join(this.filesRoot, storageKey), file.buffer);
    try {
      const billId = await this.db.transaction(async (tx) => {
        const [live] = rowsOf<{ bill_id: number }>(await tx.execute(sql`select bill_id from channel_bills where operator_id = ${operatorId} and period_key = ${periodKey}
          and lower(source_name) = lower(${sourceName}) and state <> ${ChannelBillState.Failed}`));
        if (live) {
          throw new AppError(ErrorCode.ChannelBillExists, { operator: Operator.label(operatorId, ctx.lang) ?? String(operatorId), period: periodKey, source: sourceName, billId: Number(live.bill_id) });
        }
        const [row] = rowsOf<{ bill_id: number }>(await tx.execute(sql`insert into channel_bills (period_key, operator_id, period_from, period_to, source_type,
          source_name, find_missing, file_name, file_size, storage_key, remark, created_by)
          values (${periodKey}, ${operatorId}, ${period.firstDay}::date, ${period.lastDay}::date, ${Number(fields.sourceType)}, ${sourceName}, ${fields.findMissing !== '0'},
            ${file.filename.slice(0, 200)}, ${file.buffer.length}, ${storageKey}, ${remark}, ${ctx.actor.loginName})
          returning bill_id`));
        await audit(tx, ctx, {
          entity: 'channelBill', entityId: row.bill_id, custId: null, rootCustId: null,
          after: { periodKey, operatorId, sourceType: Number(fields.sourceType), sourceName, fileName: file.filename, fileSize: file.buffer.length },
        });
        return Number(row.bill_id);
      });
      return this.bill(billId, ctx.lang);
    } catch (err) {
      await fs.rm(path.join(this.filesRoot, storageKey), { force: true });
      throw err;
    }
  }

  /** Deletes a bill: its lines' partition dropped, its row, errors and summaries removed; refused while it is busy. */
  async delete(billId: number, ctx: SessionContext): Promise<null> {
    const storageKey = await this.db.transaction(async (tx) => {
      const [b] = rowsOf<Record<string, unknown>>(await tx.execute(sql`select bill_id, state, period_key, operator_id, source_name, storage_key, total_lines
        from channel_bills where bill_id = ${billId} for update`));
      if (!b) throw notFound();
      if (Number(b.state) === ChannelBillState.Importing || Number(b.state) === ChannelBillState.Reconciling) throw new AppError(ErrorCode.ChannelBillBusy);
      await tx.execute(sql.raw(`drop table if exists channel_bill_lines_b${Number(billId)}`));
      await tx.execute(sql`delete from channel_bills where bill_id = ${billId}`);
      await audit(tx, ctx, {
        entity: 'channelBill', entityId: billId, custId: null, rootCustId: null,
        before: { periodKey: b.period_key, operatorId: b.operator_id, sourceName: b.source_name, state: b.state, totalLines: Number(b.total_lines) },
      });
      return String(b.storage_key);
    });
    // a bill from an operating bill has no file
    if (storageKey) await fs.rm(path.join(this.filesRoot, storageKey), { force: true }).catch(() => null);
    return null;
  }

  /**
   * A channel bill from a fetched or confirmed operating bill, without a file (docs/channel-bills.md "From an operating
   * bill"): the bill row and its lines (one INSERT … SELECT from the operator bill's per-card charges) in one
   * transaction, in state Reconciling; the caller kicks the job, which reconciles it as it does an imported bill. The
   * operator bill's row is locked meanwhile, so a re-fetch cannot replace its cards halfway and two calls cannot both
   * make a bill (the second sees the first's).
   */
  async fromOperatorBill(b: BodyOf<Api['reconcileOperatorBill']>, ctx: SessionContext): Promise<ChannelBillOut> {
    const lang = ctx.lang;
    const billId = await this.db.transaction(async (tx) => {
      // the operating bill's header (billing/operator owns it; read here under the lock that keeps it still)
      const [ob] = rowsOf<Record<string, unknown>>(await tx.execute(sql`select operator_bill_id, operator_id, oper_account_id, account_name, period_key,
        period_from::text as period_from, period_to::text as period_to, state, bill_ref, cards from operator_bills where operator_bill_id = ${b.operatorBillId} for update`));
      if (!ob) throw notFound();
      const account = Number(ob.oper_account_id) === 0 ? BUILT_IN_ACCOUNT_LABEL[lang] : String(ob.account_name);
      const periodKey = String(ob.period_key);
      const operatorId = Number(ob.operator_id);
      const state = Number(ob.state);
      if (state !== OperatorBillState.Fetched && state !== OperatorBillState.Confirmed) {
        throw new AppError(ErrorCode.ChannelBillOperatorBillNotFetched, { account, period: periodKey, state: OperatorBillState.label(state, lang) ?? String(state) });
      }
      if (Number(ob.cards) === 0) throw new AppError(ErrorCode.ChannelBillOperatorBillEmpty, { account, period: periodKey });
      const [linked] = rowsOf<{ bill_id: number }>(await tx.execute(sql`select bill_id from channel_bills where operator_bill_id = ${b.operatorBillId}`));
      if (linked) {
        const id = Number(linked.bill_id);
        throw new AppError(ErrorCode.ChannelBillOperatorBillLinked, { account, period: periodKey, billId: id }, 200, { billId: id });
      }
      // the issuer's rule of the file import: one live bill per operator, period and issuer (a file of the same bill)
      const sourceName = String(ob.account_name);
      const [live] = rowsOf<{ bill_id: number }>(await tx.execute(sql`select bill_id from channel_bills where operator_id = ${operatorId} and period_key = ${periodKey}
        and lower(source_name) = lower(${sourceName}) and state <> ${ChannelBillState.Failed}`));
      if (live) {
        const id = Number(live.bill_id);
        throw new AppError(ErrorCode.ChannelBillExists, { operator: Operator.label(operatorId, lang) ?? String(operatorId), period: periodKey, source: sourceName, billId: id }, 200, { billId: id });
      }
      const remark = b.remark?.trim() || null;
      const [row] = rowsOf<{ bill_id: number }>(await tx.execute(sql`insert into channel_bills (period_key, operator_id, period_from, period_to, source_type,
          source_name, find_missing, state, file_name, file_size, storage_key, remark, created_by, operator_bill_id, imported_at)
        values (${periodKey}, ${operatorId}, ${String(ob.period_from)}::date, ${String(ob.period_to)}::date, ${ChannelBillSource.Operator}, ${sourceName}, true,
          ${ChannelBillState.Reconciling}, ${String(ob.bill_ref ?? `operator-bill-${b.operatorBillId}`)}, 0, '', ${remark}, ${ctx.actor.loginName}, ${b.operatorBillId}, now())
        returning bill_id`));
      const id = Number(row.bill_id);
      await tx.execute(sql`select channel_bill_lines_ensure_partition(${id}::bigint)`);
      // the carrier's measured data in bytes (what a file's KB or MB column becomes), its SMS count and its charge tax
      // excluded; billed_mb is the carrier's rounding for the price, not usage. Line numbers: the bill's ICCID order.
      const [copied] = rowsOf<{ n: string; amount: string }>(await tx.execute(sql`with ins as (
          insert into channel_bill_lines (bill_id, iccid, line_no, channel_bytes, channel_sms, channel_amount)
          select ${id}, c.iccid, row_number() over (order by c.iccid), c.data_bytes, c.sms, c.amount
          from operator_bill_cards c where c.period_key = ${periodKey} and c.operator_bill_id = ${b.operatorBillId}
          returning channel_amount
        ) select count(*) as n, coalesce(sum(channel_amount), 0)::text as amount from ins`));
      await tx.execute(sql`update channel_bills set total_lines = ${Number(copied.n)}, lines_done = ${Number(copied.n)}, channel_amount = ${copied.amount}::numeric
        where bill_id = ${id}`);
      await audit(tx, ctx, {
        entity: 'channelBill', entityId: id, custId: null, rootCustId: null,
        after: { operatorBillId: b.operatorBillId, periodKey, operatorId, sourceType: ChannelBillSource.Operator, sourceName, lines: Number(copied.n), channelAmount: copied.amount },
      });
      return id;
    });
    return this.bill(billId, lang);
  }

  /** Puts a reconciled bill back to Reconciling (the job reconciles it again against the usage as it is now). */
  async reconcileAgain(billId: number, ctx: SessionContext): Promise<ChannelBillOut> {
    await this.db.transaction(async (tx) => {
      const [b] = rowsOf<{ state: number }>(await tx.execute(sql`select state from channel_bills where bill_id = ${billId} for update`));
      if (!b) throw notFound();
      if (Number(b.state) === ChannelBillState.Failed) throw new AppError(ErrorCode.ChannelBillImportFailed);
      if (Number(b.state) !== ChannelBillState.Reconciled) throw new AppError(ErrorCode.ChannelBillBusy);
      await tx.execute(sql`update channel_bills set state = ${ChannelBillState.Reconciling}, lease_owner = null, lease_until = null, updated_at = now() where bill_id = ${billId}`);
      await audit(tx, ctx, { entity: 'channelBill', entityId: billId, custId: null, rootCustId: null, after: { reconcile: true } });
    });
    return this.bill(billId, ctx.lang);
  }

  async template(b: BodyOf<Api['downloadChannelBillTemplate']>, ctx: SessionContext, reply: FastifyReply, now = new Date()) {
    const lang = b.templateLang ?? ctx.lang;
    const base = lang === 'zh' ? '渠道账单模板' : 'channel-bill-template';
    // the example lines carry the last closed natural month (business time)
    const period = shiftPeriodKey(periodOfDay(businessDay(now.getTime()), 1).key, -1);
    if (b.format === 'csv') return sendDownload(reply, `${base}.csv`, templateCsv(lang, period));
    return sendDownload(reply, `${base}.xlsx`, await templateXlsx(lang, period));
  }
}
