import type { FastifyInstance } from 'fastify';
import { and, count, desc, eq, gt, ilike, lte, or, sql, type SQL } from 'drizzle-orm';
import { notice, ErrorCode, NoticeState, SendMode, type BodyOf } from '@lynx/contract';
import { bind } from '../../platform/http.ts';
import type { AppDeps } from '../../app.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { pageOf, contains } from '../../platform/paging.ts';
import type { SessionContext } from '../../platform/context.ts';
import { notifications } from './tables.ts';

type Row = typeof notifications.$inferSelect;

const stateOf = (r: Row, now = Date.now()) =>
  r.endDate.getTime() <= now ? NoticeState.Ended : r.sendTime.getTime() > now ? NoticeState.Pending : NoticeState.Active;

const toNotice = (r: Row) => ({
  id: r.id, content: r.content, englishContent: r.englishContent, sendMode: r.sendMode, sendTime: r.sendTime.toISOString(),
  endDate: r.endDate.toISOString(), state: stateOf(r), createdBy: r.createdBy, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(),
});

/** Announcements by operator staff; the newest one whose end date is in the future shows in every header. */
export function noticeRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;

  const window = (body: BodyOf<typeof notice.saveNotification>) => {
    const sendTime = body.sendMode === SendMode.Timed && body.sendTime ? new Date(body.sendTime) : new Date();
    if (body.sendMode === SendMode.Timed && !body.sendTime) {
      throw new AppError(ErrorCode.Validation, { field: 'sendTime', reason: 'required' }, 400, { field: 'sendTime' });
    }
    const endDate = new Date(body.endDate);
    if (endDate.getTime() <= sendTime.getTime()) throw new AppError(ErrorCode.EndBeforeSend);
    return { sendTime, endDate };
  };

  bind(app, deps, notice.getNotificationListPage, async (q) => {
    const p = pageOf(q);
    const now = new Date();
    const where: SQL[] = [];
    if (q.keyword) {
      const k = contains(q.keyword);
      where.push(or(ilike(notifications.content, k), ilike(notifications.englishContent, k))!);
    }
    if (q.state === NoticeState.Ended) where.push(lte(notifications.endDate, now));
    if (q.state === NoticeState.Pending) where.push(and(gt(notifications.endDate, now), gt(notifications.sendTime, now))!);
    if (q.state === NoticeState.Active) where.push(and(gt(notifications.endDate, now), lte(notifications.sendTime, now))!);
    const cond = where.length ? and(...where) : undefined;
    const [rows, [{ n }]] = await Promise.all([
      db.select().from(notifications).where(cond).orderBy(desc(notifications.id)).limit(p.limit).offset(p.offset),
      db.select({ n: count() }).from(notifications).where(cond),
    ]);
    return { list: rows.map(toNotice), total: Number(n), current: p.current, pageSize: p.pageSize };
  });

  bind(app, deps, notice.saveNotification, async (body, ctx: SessionContext) => {
    const w = window(body);
    return db.transaction(async (tx) => {
      const [row] = await tx
        .insert(notifications)
        .values({ content: body.content.trim(), englishContent: body.englishContent.trim(), sendMode: body.sendMode, ...w, createdBy: ctx.actor.loginName })
        .returning();
      await audit(tx, ctx, { entity: 'notification', entityId: row.id, after: row, custId: null, rootCustId: null });
      return { id: row.id };
    });
  });

  bind(app, deps, notice.updateNotification, async (body, ctx) => {
    const w = window(body);
    await db.transaction(async (tx) => {
      const [before] = await tx.select().from(notifications).where(eq(notifications.id, body.id));
      if (!before) throw notFound();
      const [after] = await tx
        .update(notifications)
        .set({ content: body.content.trim(), englishContent: body.englishContent.trim(), sendMode: body.sendMode, ...w, updatedAt: new Date() })
        .where(eq(notifications.id, body.id))
        .returning();
      await audit(tx, ctx, { entity: 'notification', entityId: body.id, before, after, custId: null, rootCustId: null });
    });
    return null;
  });

  bind(app, deps, notice.deleteNotification, async (body, ctx) => {
    await db.transaction(async (tx) => {
      const [before] = await tx.delete(notifications).where(eq(notifications.id, body.id)).returning();
      if (!before) throw notFound();
      await audit(tx, ctx, { entity: 'notification', entityId: body.id, before, custId: null, rootCustId: null });
    });
    return null;
  });

  bind(app, deps, notice.getNewestNotification, async () => {
    const [row] = await db
      .select()
      .from(notifications)
      .where(and(gt(notifications.endDate, sql`now()`), lte(notifications.sendTime, sql`now()`)))
      .orderBy(desc(notifications.sendTime), desc(notifications.id))
      .limit(1);
    return row ? { id: row.id, content: row.content, englishContent: row.englishContent, endDate: row.endDate.toISOString() } : null;
  });
}
