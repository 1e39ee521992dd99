import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Value } from '@sinclair/typebox/value';
import { and, count, desc, eq, gte, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import {
  EXPORT_DIRECT_MAX_ROWS, formatDateTime, system as systemApi, ErrorCode, ExportFormat, ExportState, type Bilingual, type SizeUnit, type Endpoint,
  type EnumHelpers, type Lang, type system as api, type BodyOf,
} from '@lynx/contract';
import type { Db } from '../db/client.ts';
import { downloadTasks } from './tables.ts';
import { AppError, FieldError, notFound } from './errors.ts';
import { audit } from './audit.ts';
import type { Actor, SessionContext } from './context.ts';
import { iso, pageOf } from './paging.ts';
import type { Jobs } from './jobs.ts';
import { sendDownload } from './files.ts';
import { writeCsv, writeXlsx } from './export-writers.ts';
import { describeFilters, type FilterField, type FilterFields } from './export-filters.ts';
import { bind, type HttpDeps } from './http.ts';

export interface ExportColumn {
  key: string;
  title: Bilingual;
  /** 'size': the value (stored in `unit`) as people read it, '10 GB'; 'bilingual': a { zh, en } value, the export's language */
  type?: 'text' | 'money' | 'datetime' | 'number' | 'size' | 'bilingual';
  /** the unit a 'size' value is stored in; bytes when absent */
  unit?: SizeUnit;
  enum?: EnumHelpers<number>;
}

const RAW_UNIT: Record<SizeUnit, Bilingual> = {
  B: { zh: '字节', en: 'bytes' }, KB: { zh: 'KB', en: 'KB' }, MB: { zh: 'MB', en: 'MB' },
  GB: { zh: 'GB', en: 'GB' }, TB: { zh: 'TB', en: 'TB' }, PB: { zh: 'PB', en: 'PB' },
};

/**
 * A data size as two columns: the stored number, titled with its unit, for a program or a formula to read, and
 * the same value scaled for a person ('10 GB', as the console shows it).
 */
export function sizeColumns(key: string, title: Bilingual, unit: SizeUnit = 'B'): ExportColumn[] {
  const raw = RAW_UNIT[unit];
  return [
    { key, title: { zh: `${title.zh}（${raw.zh}）`, en: `${title.en} (${raw.en})` }, type: 'number' },
    { key, title, type: 'size', unit },
  ];
}

/**
 * The usage counters of a usage row, as every usage export shows them: data (raw bytes and a readable size), SMS,
 * voice in minutes (`voiceMinutes`: see voiceMinutes()) and sessions.
 */
export function usageCounterColumns(): ExportColumn[] {
  return [
    ...sizeColumns('bytes', { zh: '流量', en: 'Data' }),
    { key: 'sms', title: { zh: '短信（条）', en: 'SMS' }, type: 'number' },
    { key: 'voiceMinutes', title: { zh: '语音（分钟）', en: 'Voice (minutes)' }, type: 'number' },
    { key: 'sessions', title: { zh: '会话数', en: 'Sessions' }, type: 'number' },
  ];
}

/** Voice seconds as the exports' minutes, to one decimal. */
export const voiceMinutes = (seconds: number): number => Math.round(seconds / 6) / 10;

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
  /**
   * How many rows the export will have, when `page` does not count them (e.g. it reads by key): enough to tell
   * "up to directMaxRows" from "more", so a count may stop after directMaxRows + 1.
   */
  count?: (filters: F, actor: Actor) => Promise<number>;
  /** the export's own filters in words (state enums and the like); common keys are described by export-filters.ts */
  filters?: FilterFields;
  /** rows up to which the file is written during the call (EXPORT_DIRECT_MAX_ROWS; 0: always a download task) */
  directMaxRows?: number;
}

const PAGE = 500;
/** The filter keys of a list in the order its request declares them (the order its search form shows them in). */
const filterOrder = (e: Endpoint) => Object.keys((e.body as unknown as { properties?: Record<string, unknown> }).properties ?? {});
export const EXPORT_QUEUE = 'export';

export type ActorLoader = (accountId: number) => Promise<Actor | null>;

/**
 * Download tasks: any registered list can be exported with its filters, as a job, to a streamed xlsx or
 * csv file. The rows come from the list's own service call, so tenant scoping is the screen's.
 */
export class ExportService {
  private specs = new Map<string, { endpoint: Endpoint; spec: ExportSpec }>();
  private keyFields: FilterFields = {};
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

  /** Names for a filter key used by many lists (customer, plan, pool…), registered by the module that owns them. */
  describeKey(keys: string[], field: FilterField): void {
    for (const k of keys) this.keyFields[k] = field;
  }

  /** The field descriptions an export's filters are read with (for the coverage test). */
  filterFieldsOf(source: string): { own: FilterFields | undefined; registered: FilterFields } | null {
    const entry = this.specs.get(source);
    return entry ? { own: entry.spec.filters, registered: this.keyFields } : null;
  }

  /**
   * Creates an export of a list with its filters. Up to the export's direct limit (10,000 rows) the file is written
   * now and the answer says `direct` (the console downloads it right away); a bigger export is queued as a job.
   */
  async create(body: BodyOf<typeof api.createExportTask>, ctx: SessionContext): Promise<{ taskId: string; direct: boolean }> {
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
    const a = ctx.actor;
    const limit = entry.spec.directMaxRows ?? EXPORT_DIRECT_MAX_ROWS;
    const [words, rows] = await Promise.all([
      describeFilters(filters, entry.spec.filters, this.keyFields, a, filterOrder(entry.endpoint)),
      limit > 0 ? this.rowCount(entry.spec, filters, a) : Promise.resolve(Number.POSITIVE_INFINITY),
    ]);
    const direct = rows <= limit;
    const taskId = crypto.randomUUID();
    const format = body.format ?? ExportFormat.Xlsx;
    const title = entry.spec.title;
    const task = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(downloadTasks)
        .values({
          taskId, taskName: title[ctx.lang], titleZh: title.zh, titleEn: title.en, filtersZh: words.zh, filtersEn: words.en, direct,
          source: body.source, filters, format, state: ExportState.InProcess,
          lang: ctx.lang, ownerAccountId: a.accountId, loginName: a.loginName, custId: a.custId, rootCustId: a.rootCustId,
        })
        .returning();
      await audit(tx, ctx, { entity: 'downloadTask', entityId: taskId, after: row });
      return row;
    });
    if (!direct) {
      await this.jobs.send(EXPORT_QUEUE, { taskId: task.taskId }, { singletonKey: task.taskId });
      return { taskId, direct: false };
    }
    await this.run(taskId);
    // a direct export that failed is shown like a failed task (reason in the list, a notice from the header badge)
    const [done] = await this.db.select({ state: downloadTasks.state }).from(downloadTasks).where(eq(downloadTasks.taskId, taskId));
    return { taskId, direct: done?.state === ExportState.Succeeded };
  }

  /** Rows of an export, counted only as far as telling a direct export from a task needs. */
  private async rowCount(spec: ExportSpec, filters: Record<string, unknown>, actor: Actor): Promise<number> {
    if (spec.count) return spec.count(filters, actor);
    const first = (await spec.page({ ...filters, current: 1, pageSize: 1 }, actor)) as { total: number; totalCapped?: boolean };
    return first.totalCapped ? Number.POSITIVE_INFINITY : first.total;
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

  private describeStored(r: typeof downloadTasks.$inferSelect, actor: Actor) {
    const entry = this.specs.get(r.source);
    return describeFilters(r.filters as Record<string, unknown>, entry?.spec.filters, this.keyFields, actor, entry ? filterOrder(entry.endpoint) : []);
  }

  /** The title of a task in a language: stored in both since issue 12; older tasks take the export's registered title. */
  private titleOf(r: typeof downloadTasks.$inferSelect, lang: Lang): string {
    const stored = lang === 'en' ? r.titleEn : r.titleZh;
    return stored ?? this.specs.get(r.source)?.spec.title[lang] ?? r.taskName;
  }

  async list(q: BodyOf<typeof api.getDownloadTaskListPage>, actor: Actor, lang: Lang) {
    const p = pageOf(q);
    const cond = and(eq(downloadTasks.ownerAccountId, actor.accountId), q.state !== undefined ? eq(downloadTasks.state, q.state) : undefined);
    const [rows, [{ n }]] = await Promise.all([
      this.db.select().from(downloadTasks).where(cond).orderBy(desc(downloadTasks.createdAt)).limit(p.limit).offset(p.offset),
      this.db.select({ n: count() }).from(downloadTasks).where(cond),
    ]);
    const list = await Promise.all(rows.map(async (r) => {
      const stored = lang === 'en' ? r.filtersEn : r.filtersZh;
      // tasks from before issue 12 kept only the raw filters: described now, with the owner's names
      const words = stored ?? (await this.describeStored(r, actor))[lang];
      return {
        taskId: r.taskId, taskName: this.titleOf(r, lang), filtersText: words, source: r.source, format: r.format, state: r.state, rowCount: r.rowCount,
        fileSize: r.fileSize, error: r.error, loginName: r.loginName, createdAt: r.createdAt.toISOString(), finishedAt: iso(r.finishedAt),
        downloadedAt: iso(r.downloadedAt), direct: r.direct,
      };
    }));
    return { list, total: Number(n), current: p.current, pageSize: p.pageSize };
  }

  /**
   * The header badge: the owner's tasks ready and not downloaded, those in process, and the ones that finished in the
   * last minutes (the console tells the user once when one becomes ready). Two index reads on the badge index.
   */
  async badge(actor: Actor, lang: Lang) {
    const mine = and(eq(downloadTasks.ownerAccountId, actor.accountId), isNull(downloadTasks.downloadedAt));
    const since = new Date(Date.now() - systemApi.DOWNLOAD_NOTICE_MINUTES * 60_000);
    const [counts, recent] = await Promise.all([
      this.db.select({ state: downloadTasks.state, n: count() }).from(downloadTasks)
        .where(and(mine, inArray(downloadTasks.state, [ExportState.InProcess, ExportState.Succeeded]))).groupBy(downloadTasks.state),
      this.db.select().from(downloadTasks)
        .where(and(mine, isNotNull(downloadTasks.finishedAt), gte(downloadTasks.finishedAt, since), eq(downloadTasks.direct, false)))
        .orderBy(desc(downloadTasks.finishedAt)).limit(5),
    ]);
    const n = (state: number) => Number(counts.find((c) => c.state === state)?.n ?? 0);
    return {
      ready: n(ExportState.Succeeded), inProcess: n(ExportState.InProcess),
      recent: recent.map((r) => ({ taskId: r.taskId, taskName: this.titleOf(r, lang), state: r.state, finishedAt: r.finishedAt!.toISOString() })),
    };
  }

  /** Only the owner's tenant may download: staff tasks by staff, a customer's tasks by that customer. */
  async download(taskId: string, actor: Actor, reply: FastifyReply, lang: Lang) {
    const [task] = await this.db.select().from(downloadTasks).where(eq(downloadTasks.taskId, taskId));
    if (!task || task.custId !== actor.custId || (task.custId === null && task.rootCustId !== actor.rootCustId)) throw notFound();
    if (task.state !== ExportState.Succeeded || !task.fileKey) throw new AppError(ErrorCode.ExportNotReady);
    // the owner's first download clears the task from the header badge (a read receipt, like a last login: not audited)
    if (!task.downloadedAt && task.ownerAccountId === actor.accountId) {
      await this.db.update(downloadTasks).set({ downloadedAt: sql`now()` }).where(and(eq(downloadTasks.taskId, taskId), isNull(downloadTasks.downloadedAt)));
    }
    const ext = path.extname(task.fileKey);
    // the file is named by when it was asked for, on the business clock (202611201530)
    const stamp = formatDateTime(task.createdAt).slice(0, 16).replace(/[-: ]/g, '');
    const name = `${this.titleOf(task, lang)}-${stamp}${ext}`;
    return sendDownload(reply, name, fs.createReadStream(path.join(this.dir, task.fileKey)));
  }
}


/**
 * A list's export endpoint: its body is the list's filters plus `format`, and it becomes a download task of `source`
 * (or a direct download when small). `guard` refuses a caller before any task exists (e.g. staff-only lists).
 */
export function bindExport<E extends Endpoint>(
  app: FastifyInstance, deps: Pick<HttpDeps, 'sessions' | 'strictAudit'> & { exports: ExportService }, wrapper: E, source: Endpoint,
  guard: (actor: Actor) => void = () => {},
): void {
  bind(app, deps, wrapper, async (b, rawCtx) => {
    const ctx = rawCtx as SessionContext;
    guard(ctx.actor);
    const { format, ...filters } = b as { format?: number } & Record<string, unknown>;
    return deps.exports.create({ source: source.name, filters, format }, ctx);
  });
}
