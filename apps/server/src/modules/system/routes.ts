import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { and, count, desc, eq, gte, ilike, lte, type SQL, type Column } from 'drizzle-orm';
import { system, BehaviorAction, type BodyOf } from '@lynx/contract';
import { bind } from '../../platform/http.ts';
import type { AppDeps } from '../../app.ts';
import { apiLog, auditLog, behaviorLog, files } from '../../platform/tables.ts';
import { canSeeTenant, tenantFilter, type Actor } from '../../platform/context.ts';
import { orderOf, pageOf, contains } from '../../platform/paging.ts';
import { notFound } from '../../platform/errors.ts';
import { contentDisposition, INLINE_IMAGE_TYPES, publicFileUrl, privateFileUrl, readMultipart } from '../../platform/files.ts';
import { FILE_CONTENT_SECURITY_POLICY } from '../../platform/security-headers.ts';
import { audit } from '../../platform/audit.ts';
import { registerExportNames } from './export-names.ts';

const range = (col: Column, q: { startDate?: string; endDate?: string }): SQL[] => [
  ...(q.startDate ? [gte(col, new Date(q.startDate))] : []),
  ...(q.endDate ? [lte(col, new Date(q.endDate))] : []),
];

/** Logs kept by the platform, download tasks and file upload/download. */
export function systemRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;

  const behaviorPage = async (q: BodyOf<typeof system.getBehaviorLogListPage>, actor: Actor) => {
    const p = pageOf(q);
    const cond = and(
      tenantFilter(actor, behaviorLog),
      ...range(behaviorLog.createdAt, q),
      q.loginName ? ilike(behaviorLog.loginName, contains(q.loginName)) : undefined,
      q.action !== undefined ? eq(behaviorLog.action, q.action) : undefined,
    );
    const [rows, [{ n }]] = await Promise.all([
      db.select().from(behaviorLog).where(cond)
        .orderBy(...orderOf(q, { createdAt: behaviorLog.createdAt, loginName: behaviorLog.loginName }, [desc(behaviorLog.id)]))
        .limit(p.limit).offset(p.offset),
      db.select({ n: count() }).from(behaviorLog).where(cond),
    ]);
    return {
      list: rows.map((r) => ({ id: r.id, loginName: r.loginName, action: r.action, target: r.target, detail: r.detail, ip: r.ip, custId: r.custId, createdAt: r.createdAt.toISOString() })),
      total: Number(n), current: p.current, pageSize: p.pageSize,
    };
  };

  const apiPage = async (q: BodyOf<typeof system.getApiLogListPage>, actor: Actor) => {
    const p = pageOf(q);
    const cond = and(
      tenantFilter(actor, apiLog),
      ...range(apiLog.createdAt, q),
      q.loginName ? ilike(apiLog.loginName, contains(q.loginName)) : undefined,
      q.path ? ilike(apiLog.path, contains(q.path)) : undefined,
      q.status !== undefined ? eq(apiLog.status, q.status) : undefined,
    );
    const [rows, [{ n }]] = await Promise.all([
      db.select().from(apiLog).where(cond)
        .orderBy(...orderOf(q, { createdAt: apiLog.createdAt, durationMs: apiLog.durationMs, status: apiLog.status }, [desc(apiLog.createdAt)]))
        .limit(p.limit).offset(p.offset),
      db.select({ n: count() }).from(apiLog).where(cond),
    ]);
    return {
      list: rows.map((r) => ({ id: r.id, loginName: r.loginName, method: r.method, path: r.path, status: r.status, errorCode: r.errorCode, durationMs: r.durationMs, ip: r.ip, custId: r.custId, createdAt: r.createdAt.toISOString() })),
      total: Number(n), current: p.current, pageSize: p.pageSize,
    };
  };

  bind(app, deps, system.getBehaviorLogListPage, (q, ctx) => behaviorPage(q, ctx.actor));
  bind(app, deps, system.getApiLogListPage, async (q, ctx) => {
    await deps.apiLog.flush();
    return apiPage(q, ctx.actor);
  });
  bind(app, deps, system.getAuditListPage, async (q, ctx) => {
    const p = pageOf(q);
    const cond = and(
      tenantFilter(ctx.actor, auditLog),
      ...range(auditLog.createdAt, q),
      q.entity ? eq(auditLog.entity, q.entity) : undefined,
      q.entityId ? eq(auditLog.entityId, q.entityId) : undefined,
      q.loginName ? ilike(auditLog.loginName, contains(q.loginName)) : undefined,
    );
    const [rows, [{ n }]] = await Promise.all([
      db.select().from(auditLog).where(cond).orderBy(desc(auditLog.createdAt)).limit(p.limit).offset(p.offset),
      db.select({ n: count() }).from(auditLog).where(cond),
    ]);
    return {
      list: rows.map((r) => ({ id: r.id, loginName: r.loginName, endpoint: r.endpoint, entity: r.entity, entityId: r.entityId, before: r.before, after: r.after, custId: r.custId, createdAt: r.createdAt.toISOString() })),
      total: Number(n), current: p.current, pageSize: p.pageSize,
    };
  });

  deps.exports.register(system.getBehaviorLogListPage, {
    title: { zh: '用户行为日志', en: 'User behaviour log' },
    filters: {
      action: { title: { zh: '行为', en: 'Action' }, enum: BehaviorAction },
    },
    page: behaviorPage,
    columns: [
      { key: 'createdAt', title: { zh: '时间', en: 'Time' }, type: 'datetime' },
      { key: 'loginName', title: { zh: '登录名', en: 'Login name' } },
      { key: 'action', title: { zh: '行为', en: 'Action' }, enum: BehaviorAction },
      { key: 'target', title: { zh: '对象', en: 'Target' } },
      { key: 'detail', title: { zh: '说明', en: 'Detail' } },
      { key: 'ip', title: { zh: 'IP', en: 'IP' } },
    ],
  });
  deps.exports.register(system.getApiLogListPage, {
    title: { zh: 'API 请求日志', en: 'API request log' },
    filters: {
      path: { title: { zh: '路径', en: 'Path' } },
      status: { title: { zh: 'HTTP 状态', en: 'HTTP status' } },
    },
    page: apiPage,
    columns: [
      { key: 'createdAt', title: { zh: '时间', en: 'Time' }, type: 'datetime' },
      { key: 'loginName', title: { zh: '登录名', en: 'Login name' } },
      { key: 'method', title: { zh: '方法', en: 'Method' } },
      { key: 'path', title: { zh: '路径', en: 'Path' } },
      { key: 'status', title: { zh: 'HTTP 状态', en: 'HTTP status' }, type: 'number' },
      { key: 'errorCode', title: { zh: '错误码', en: 'Error code' }, type: 'number' },
      { key: 'durationMs', title: { zh: '耗时 (ms)', en: 'Duration (ms)' }, type: 'number' },
      { key: 'ip', title: { zh: 'IP', en: 'IP' } },
    ],
  });

  registerExportNames(deps);
  bind(app, deps, system.getDownloadTaskListPage, (q, ctx) => deps.exports.list(q, ctx.actor, ctx.lang));
  bind(app, deps, system.getDownloadBadge, (_q, ctx) => deps.exports.badge(ctx.actor, ctx.lang));
  bind(app, deps, system.createExportTask, (b, ctx) => deps.exports.create(b, ctx));
  bind(app, deps, system.downloadExportFile, (q, ctx, _req, reply) => deps.exports.download(q.taskId, ctx.actor, reply, ctx.lang));

  bind(app, deps, system.uploadFile, async (_b, ctx, req) => {
    const raw = await readMultipart(req, system.uploadFile);
    // the schema has checked it: paymentProof or contentImage
    const use = raw.fields.use as BodyOf<typeof system.uploadFile>['use'];
    deps.files.check(use, raw.file);
    return db.transaction(async (tx) => {
      const row = await deps.files.save(tx, use, raw.file!, ctx.actor, { custId: ctx.actor.custId, rootCustId: ctx.actor.rootCustId });
      await audit(tx, ctx, { entity: 'file', entityId: row.fileId, after: row });
      return { fileId: row.fileId, url: privateFileUrl(row.fileId), size: row.size, mimeType: row.mimeType };
    });
  });

  /**
   * An uploaded file goes out under its sniffed type with nosniff (helmet) and a policy under which nothing in it
   * runs even when opened on its own. Logos are shown by <img> and may stay inline when their type is a plain
   * image; every other file is an attachment under its original name.
   */
  const send = (row: typeof files.$inferSelect, reply: import('fastify').FastifyReply, display: 'inline' | 'attachment') => {
    const inline = display === 'inline' && INLINE_IMAGE_TYPES.includes(row.mimeType);
    return reply
      .header('content-type', INLINE_IMAGE_TYPES.includes(row.mimeType) ? row.mimeType : 'application/octet-stream')
      .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', row.originalName))
      .header('content-security-policy', FILE_CONTENT_SECURITY_POLICY)
      .header('cache-control', 'private, max-age=86400')
      .send(fs.createReadStream(deps.files.pathOf(row.storageKey)));
  };

  bind(app, deps, system.getPublicFile, async (q, _ctx, _req, reply) => {
    const row = await deps.files.get(q.fileId);
    if (!row || (row.use !== 'logo' && row.use !== 'platformLogo')) throw notFound();
    return send(row, reply, 'inline');
  });
  bind(app, deps, system.getFile, async (q, ctx, _req, reply) => {
    const row = await deps.files.get(q.fileId);
    if (!row || !canSeeTenant(ctx.actor, row)) throw notFound();
    return send(row, reply, 'attachment');
  });
  return { publicFileUrl };
}
