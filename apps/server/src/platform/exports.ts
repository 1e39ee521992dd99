import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { once } from 'node:events';
import type { FastifyReply } from 'fastify';
import ExcelJS from 'exceljs';
import { Value } from '@sinclair/typebox/value';
import { and, count, desc, eq } from 'drizzle-orm';
import {
  ErrorCode, ExportFormat, ExportState, formatDateTime, type Bilingual, type Endpoint, type EnumHelpers, type Lang,
  type system as api, type BodyOf,
} from '@lynx/contract';
import type { Db } from '../db/client.ts';
import { downloadTasks } from './tables.ts';
import { AppError, FieldError, notFound } from './errors.ts';
import { audit } from './audit.ts';
import type { Actor, SessionContext } from './context.ts';
import { iso, pageOf } from './paging.ts';
import type { Jobs } from './jobs.ts';

export interface ExportColumn {
  key: string;
  title: Bilingual;
  type?: 'text' | 'money' | 'datetime' | 'number';
  enum?: EnumHelpers<number>;
}

/** A file other than a table (e.g. a zip of images), written from the list's rows. */
export interface ExportFile {
  ext: string;
  contentType: string;
  /** writes the file; returns the number of items in it */
  write(file: string, rows: AsyncIterable<Record<string, unknown>>, lang: Lang): Promise<number>;
}

export interface ExportSpec<F = any> {
  title: Bilingual;
  /** write this file instead of an xlsx / csv table */
  file?: ExportFile;
  /** a permission code the export needs on top of the list's own (e.g. an export button code) */
  perm?: number;
  columns: ExportColumn[];
  /** one page of the list, with the same tenant rules as the screen */
  page: (filters: F, actor: Actor) => Promise<{ list: Record<string, unknown>[]; total: number }>;
}

const PAGE = 500;
export const EXPORT_QUEUE = 'export';

export type ActorLoader = (accountId: number) => Promise<Actor | null>;

/**
 * Download tasks: any registered list can be exported with its filters, as a job, to a streamed xlsx or
 * csv file. The rows come from the list's own service call, so tenant scoping is the screen's.
 */
export class ExportService {
  private specs = new Map<string, { endpoint: Endpoint; spec: ExportSpec }>();
  readonly dir: string;

  constructor(
    private db: Db,
    private jobs: Jobs,
    dataDir: string,
    private loadActor: ActorLoader,
  ) {
    this.dir = path.join(dataDir, 'files', 'exports');
    fs.mkdirSync(this.dir, { recursive: true });
    jobs.define(EXPORT_QUEUE, (data: { taskId: string }) => this.run(data.taskId), { retryLimit: 2, expireInSeconds: 3600 });
  }

  register<E extends Endpoint>(endpoint: E, spec: ExportSpec<BodyOf<E>>): void {
    this.specs.set(endpoint.name, { endpoint, spec });
  }

  sources(): string[] {
    return [...this.specs.keys()];
  }

  async create(body: BodyOf<typeof api.createExportTask>, ctx: SessionContext) {
    const entry = this.specs.get(body.source);
    if (!entry) throw new AppError(ErrorCode.ExportNotExportable);
    const perm = entry.endpoint.perm;
    if (perm && !perm.some((p) => ctx.actor.permissions.has(p))) throw new AppError(ErrorCode.PermissionDenied);
    if (entry.spec.perm && !ctx.actor.permissions.has(entry.spec.perm)) throw new AppError(ErrorCode.PermissionDenied);
    const { current: _c, pageSize: _p, ...filters } = (body.filters ?? {}) as Record<string, unknown>;
    const probe = { ...filters, current: 1, pageSize: PAGE };
    if (!Value.Check(entry.endpoint.body, probe)) {
      const first = [...Value.Errors(entry.endpoint.body, probe)][0];
      const field = 'filters' + (first?.path ?? '').replace(/\//g, '.');
      throw new FieldError(field, { zh: '取值无效', en: first?.message ?? 'has an invalid value' });
    }
    const taskId = crypto.randomUUID();
    const format = body.format ?? ExportFormat.Xlsx;
    const a = ctx.actor;
    const task = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(downloadTasks)
        .values({
          taskId, taskName: entry.spec.title[ctx.lang], source: body.source, filters, format, state: ExportState.InProcess,
          lang: ctx.lang, ownerAccountId: a.accountId, loginName: a.loginName, custId: a.custId, rootCustId: a.rootCustId,
        })
        .returning();
      await audit(tx, ctx, { entity: 'downloadTask', entityId: taskId, after: row });
      return row;
    });
    await this.jobs.send(EXPORT_QUEUE, { taskId: task.taskId }, { singletonKey: task.taskId });
    return { taskId };
  }

  /** The job. Safe to run again: a finished task is left alone, a half-written file is rewritten. */
  async run(taskId: string): Promise<void> {
    const [task] = await this.db.select().from(downloadTasks).where(eq(downloadTasks.taskId, taskId));
    if (!task || task.state !== ExportState.InProcess) return;
    const finish = (values: Partial<typeof downloadTasks.$inferInsert>) =>
      this.db.update(downloadTasks).set({ ...values, finishedAt: new Date() }).where(eq(downloadTasks.taskId, taskId));
    const entry = this.specs.get(task.source);
    const actor = await this.loadActor(task.ownerAccountId);
    const perm = entry?.endpoint.perm;
    if (!entry || !actor || (perm && !perm.some((p) => actor.permissions.has(p))) || (entry.spec.perm && !actor.permissions.has(entry.spec.perm))) {
      await finish({ state: ExportState.Failed, error: 'permission' });
      return;
    }
    const custom = entry.spec.file;
    const ext = custom ? custom.ext : task.format === ExportFormat.Csv ? 'csv' : 'xlsx';
    const fileKey = `${taskId}.${ext}`;
    const file = path.join(this.dir, fileKey);
    try {
      const rows = this.rows(entry.spec, task.filters as Record<string, unknown>, actor);
      const lang = task.lang === 'zh' ? 'zh' : 'en';
      const n = custom
        ? await custom.write(file, rows, lang)
        : ext === 'csv' ? await writeCsv(file, entry.spec.columns, rows, lang) : await writeXlsx(file, entry.spec, rows, lang);
      const { size } = await fs.promises.stat(file);
      await finish({ state: ExportState.Succeeded, rowCount: n, fileSize: size, fileKey });
    } catch (err) {
      await fs.promises.rm(file, { force: true });
      await finish({ state: ExportState.Failed, error: String((err as Error).message ?? err).slice(0, 500) });
    }
  }

  private async *rows(spec: ExportSpec, filters: Record<string, unknown>, actor: Actor) {
    for (let current = 1; ; current++) {
      const page = await spec.page({ ...filters, current, pageSize: PAGE }, actor);
      for (const r of page.list) yield r;
      if (page.list.length < PAGE || current * PAGE >= page.total) return;
    }
  }

  async list(q: BodyOf<typeof api.getDownloadTaskListPage>, actor: Actor) {
    const p = pageOf(q);
    const cond = and(eq(downloadTasks.ownerAccountId, actor.accountId), q.state !== undefined ? eq(downloadTasks.state, q.state) : undefined);
    const [rows, [{ n }]] = await Promise.all([
      this.db.select().from(downloadTasks).where(cond).orderBy(desc(downloadTasks.createdAt)).limit(p.limit).offset(p.offset),
      this.db.select({ n: count() }).from(downloadTasks).where(cond),
    ]);
    return {
      list: rows.map((r) => ({
        taskId: r.taskId, taskName: r.taskName, source: r.source, format: r.format, state: r.state, rowCount: r.rowCount,
        fileSize: r.fileSize, error: r.error, loginName: r.loginName, createdAt: r.createdAt.toISOString(), finishedAt: iso(r.finishedAt),
      })),
      total: Number(n), current: p.current, pageSize: p.pageSize,
    };
  }

  /** Only the owner's tenant may download: staff tasks by staff, a customer's tasks by that customer. */
  async download(taskId: string, actor: Actor, reply: FastifyReply) {
    const [task] = await this.db.select().from(downloadTasks).where(eq(downloadTasks.taskId, taskId));
    if (!task || task.custId !== actor.custId || (task.custId === null && task.rootCustId !== actor.rootCustId)) throw notFound();
    if (task.state !== ExportState.Succeeded || !task.fileKey) throw new AppError(ErrorCode.ExportNotReady);
    const ext = path.extname(task.fileKey);
    const stamp = task.createdAt.toISOString().slice(0, 16).replace(/[-:T]/g, '');
    const name = `${task.taskName}-${stamp}${ext}`;
    reply
      .header('content-type', ext === '.csv' ? 'text/csv; charset=utf-8' : ext === '.zip' ? 'application/zip' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="export${ext}"; filename*=UTF-8''${encodeURIComponent(name)}`);
    return reply.send(fs.createReadStream(path.join(this.dir, task.fileKey)));
  }
}

function cell(col: ExportColumn, v: unknown, lang: Lang, forCsv: boolean): string | number | null {
  if (v == null || v === '') return null;
  if (col.enum) return col.enum.label(Number(v), lang);
  if (col.type === 'datetime') return formatDateTime(v as string, lang);
  if (col.type === 'money') return forCsv ? Number(v).toFixed(2) : Number(v);
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return lang === 'zh' ? (v ? '是' : '否') : v ? 'Yes' : 'No';
  return String(v);
}

async function writeXlsx(file: string, spec: ExportSpec, rows: AsyncIterable<Record<string, unknown>>, lang: Lang): Promise<number> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet(spec.title[lang].slice(0, 31));
  ws.columns = spec.columns.map((c) => ({
    header: c.title[lang], key: c.key, width: Math.max(12, c.title[lang].length * 2 + 4),
    style: c.type === 'money' ? { numFmt: '#,##0.00' } : {},
  }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  let n = 0;
  for await (const r of rows) {
    ws.addRow(Object.fromEntries(spec.columns.map((c) => [c.key, cell(c, r[c.key], lang, false)]))).commit();
    n++;
  }
  ws.commit();
  await wb.commit();
  return n;
}

const csvField = (v: string | number | null) => {
  if (v == null) return '';
  const s = String(v);
  // a leading = + - @ would run as a formula in a spreadsheet
  const safe = /^[=+\-@\t\r]/.test(s) && typeof v === 'string' ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

async function writeCsv(file: string, columns: ExportColumn[], rows: AsyncIterable<Record<string, unknown>>, lang: Lang): Promise<number> {
  const out = fs.createWriteStream(file);
  const write = async (line: string) => {
    if (!out.write(line)) await once(out, 'drain');
  };
  // BOM so spreadsheet programs read the Chinese headers as UTF-8
  await write('\uFEFF' + columns.map((c) => csvField(c.title[lang])).join(',') + '\r\n');
  let n = 0;
  for await (const r of rows) {
    await write(columns.map((c) => csvField(cell(c, r[c.key], lang, true))).join(',') + '\r\n');
    n++;
  }
  out.end();
  await once(out, 'finish');
  return n;
}
