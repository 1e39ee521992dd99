import type { FastifyInstance } from 'fastify';
import { and, asc, count, desc, eq, gte, ilike, inArray, lte, type SQL } from 'drizzle-orm';
import { CardChangeFailureState, CardChangeType, ErrorCode, OPEN_FAILURE_STATES, Operator, opconfig, type BodyOf } from '@lynx/contract';
import { bind } from '../../../platform/http.ts';
import type { AppDeps } from '../../../app.ts';
import { AppError, FieldError, notFound } from '../../../platform/errors.ts';
import { audit } from '../../../platform/audit.ts';
import type { Actor } from '../../../platform/context.ts';
import { contains, iso, orderOf, pageFrom, pageOf, totalOver } from '../../../platform/paging.ts';
import type { SecretBox } from './secrets.ts';
import { cardChangeAttempts, cardChangeFailures, operatorAccounts } from './tables.ts';
import { gatewayOfAccount, sendCardChange, type CardChangeRequest } from './service.ts';
import { staffOnly } from './access.ts';

type Row = typeof cardChangeFailures.$inferSelect;

const view = (r: Row, accountName: string | null) => ({
  failureId: r.failureId, msisdn: r.msisdn, iccid: r.iccid, operatorId: r.operatorId, operAccountId: r.operAccountId, operAccountName: accountName,
  changeType: r.changeType, request: r.request, failureCode: r.failureCode, failureReason: r.failureReason, attempts: r.attempts, state: r.state,
  remark: r.remark, handledBy: r.handledBy, handledAt: iso(r.handledAt), lastAttemptAt: r.lastAttemptAt.toISOString(), createdAt: r.createdAt.toISOString(),
});

/** The stored request as the gateway call it describes. */
const requestOf = (r: Row): CardChangeRequest => {
  const q = r.request;
  switch (r.changeType) {
    case CardChangeType.CardState: return { changeType: CardChangeType.CardState, targetState: Number(q.targetState) };
    case CardChangeType.Zone: {
      const op = q.op === 'permit' || q.op === 'release' ? q.op : 'block';
      const kind = q.kind === 'region' || q.kind === 'network' ? q.kind : 'zone';
      return { changeType: CardChangeType.Zone, op, kind, targetId: Number(q.targetId) };
    }
    case CardChangeType.NetworkReset: return { changeType: CardChangeType.NetworkReset };
    default: return { changeType: CardChangeType.Plan, planCode: String(q.planCode ?? ''), effective: q.effective === 'now' ? 'now' : 'nextCycle' };
  }
};

export function failureRoutes(app: FastifyInstance, deps: AppDeps, box: SecretBox) {
  const { db } = deps;

  const page = async (q: BodyOf<typeof opconfig.getCardChangeFailurePage>, actor: Actor) => {
    staffOnly(actor);
    const p = pageOf(q);
    const where: SQL[] = [];
    if (q.msisdn) where.push(ilike(cardChangeFailures.msisdn, contains(q.msisdn)));
    if (q.iccid) where.push(ilike(cardChangeFailures.iccid, contains(q.iccid)));
    if (q.operatorId !== undefined) where.push(eq(cardChangeFailures.operatorId, q.operatorId));
    if (q.changeType !== undefined) where.push(eq(cardChangeFailures.changeType, q.changeType));
    if (q.state !== undefined) where.push(eq(cardChangeFailures.state, q.state));
    if (q.startDate) where.push(gte(cardChangeFailures.createdAt, new Date(q.startDate)));
    if (q.endDate) where.push(lte(cardChangeFailures.createdAt, new Date(q.endDate)));
    const cond = where.length ? and(...where) : undefined;
    const { rows, total } = await pageFrom(
      await db
        .select({ f: cardChangeFailures, accountName: operatorAccounts.accountName, total: totalOver() })
        .from(cardChangeFailures)
        .leftJoin(operatorAccounts, eq(operatorAccounts.operAccountId, cardChangeFailures.operAccountId))
        .where(cond)
        .orderBy(...orderOf(q, { createdAt: cardChangeFailures.createdAt, lastAttemptAt: cardChangeFailures.lastAttemptAt }, [desc(cardChangeFailures.failureId)]))
        .limit(p.limit)
        .offset(p.offset),
      p,
      async () => Number((await db.select({ n: count() }).from(cardChangeFailures).where(cond))[0].n),
    );
    return { list: rows.map((r) => view(r.f, r.accountName)), total, current: p.current, pageSize: p.pageSize };
  };
  bind(app, deps, opconfig.getCardChangeFailurePage, (q, ctx) => page(q, ctx.actor));

  bind(app, deps, opconfig.getCardChangeFailuresByMsisdn, async (b, ctx) => {
    staffOnly(ctx.actor);
    const rows = await db
      .select({ f: cardChangeFailures, accountName: operatorAccounts.accountName })
      .from(cardChangeFailures)
      .leftJoin(operatorAccounts, eq(operatorAccounts.operAccountId, cardChangeFailures.operAccountId))
      .where(eq(cardChangeFailures.msisdn, b.msisdn))
      .orderBy(desc(cardChangeFailures.failureId))
      .limit(200);
    if (!rows.length) throw notFound();
    const attempts = await db
      .select()
      .from(cardChangeAttempts)
      .where(inArray(cardChangeAttempts.failureId, rows.map((r) => r.f.failureId)))
      .orderBy(asc(cardChangeAttempts.failureId), asc(cardChangeAttempts.attemptNo));
    return rows.map((r) => ({
      ...view(r.f, r.accountName),
      attemptList: attempts
        .filter((a) => a.failureId === r.f.failureId)
        .map((a) => ({ attemptNo: a.attemptNo, ok: a.ok, message: a.message, latencyMs: a.latencyMs, triggeredBy: a.triggeredBy, attemptedAt: a.attemptedAt.toISOString() })),
    }));
  });

  const lockOpen = async (tx: Parameters<Parameters<typeof db.transaction>[0]>[0], failureId: number) => {
    const [r] = await tx.select().from(cardChangeFailures).where(eq(cardChangeFailures.failureId, failureId)).for('update');
    if (!r) throw notFound();
    if (!OPEN_FAILURE_STATES.includes(r.state)) throw new AppError(ErrorCode.FailureClosed);
    return r;
  };

  bind(app, deps, opconfig.handleCardChangeFailure, async (b, ctx) => {
    staffOnly(ctx.actor);
    const remark = b.remark.trim();
    if (!remark) throw new FieldError('remark', { zh: '必填', en: 'is required' });
    await db.transaction(async (tx) => {
      const before = await lockOpen(tx, b.failureId);
      const [after] = await tx
        .update(cardChangeFailures)
        .set({ state: CardChangeFailureState.Handled, remark, handledBy: ctx.actor.loginName, handledAt: new Date() })
        .where(eq(cardChangeFailures.failureId, b.failureId))
        .returning();
      await audit(tx, ctx, { entity: 'cardChangeFailure', entityId: b.failureId, before: view(before, null), after: view(after, null), custId: before.custId, rootCustId: before.rootCustId });
    });
    return null;
  });

  bind(app, deps, opconfig.retryCardChangeFailure, async (b, ctx) => {
    staffOnly(ctx.actor);
    // the operator is called outside the transaction (it may take a while); the record is then updated
    // only if nobody else closed it meanwhile
    const [rec] = await db.select().from(cardChangeFailures).where(eq(cardChangeFailures.failureId, b.failureId));
    if (!rec) throw notFound();
    if (!OPEN_FAILURE_STATES.includes(rec.state)) throw new AppError(ErrorCode.FailureClosed);
    const [account] = rec.operAccountId == null ? [] : await db.select().from(operatorAccounts).where(eq(operatorAccounts.operAccountId, rec.operAccountId));
    if (!account) throw new AppError(ErrorCode.FailureAccountGone);
    const gateway = gatewayOfAccount(box, account);
    if (!gateway) throw new AppError(ErrorCode.GatewayAdapterUnavailable, { adapter: account.adapter });
    const result = await sendCardChange(gateway, rec, requestOf(rec));
    const message = result.ok ? `accepted: ${result.data.requestId}` : `${result.code}: ${result.message}`;
    const state = result.ok ? CardChangeFailureState.RetriedOk : CardChangeFailureState.RetryFailed;
    return db.transaction(async (tx) => {
      const before = await lockOpen(tx, b.failureId);
      const attemptNo = before.attempts + 1;
      const now = new Date();
      const [after] = await tx
        .update(cardChangeFailures)
        .set({
          state, attempts: attemptNo, lastAttemptAt: now,
          ...(!result.ok && { failureCode: result.code, failureReason: result.message }),
        })
        .where(eq(cardChangeFailures.failureId, b.failureId))
        .returning();
      await tx.insert(cardChangeAttempts).values({
        failureId: b.failureId, attemptNo, ok: result.ok, message, latencyMs: result.latencyMs, triggeredBy: ctx.actor.loginName, attemptedAt: now,
      });
      await audit(tx, ctx, {
        entity: 'cardChangeFailure.retry', entityId: b.failureId, before: view(before, account.accountName), after: { ...view(after, account.accountName), result: message },
        custId: before.custId, rootCustId: before.rootCustId,
      });
      return { ok: result.ok, state, message };
    });
  });

  deps.exports.register(opconfig.getCardChangeFailurePage, {
    title: { zh: '换卡失败记录', en: 'Card change failures' },
    filters: {
      changeType: { title: { zh: '变更类型', en: 'Change type' }, enum: CardChangeType },
      state: { title: { zh: '处理状态', en: 'State' }, enum: CardChangeFailureState },
    },
    page: async (q, actor) => {
      const r = await page(q, actor);
      return { total: r.total, list: r.list.map((f) => ({ ...f, request: Object.entries(f.request).map(([k, v]) => `${k}=${v}`).join('; ') })) };
    },
    columns: [
      { key: 'msisdn', title: { zh: 'MSISDN', en: 'MSISDN' } },
      { key: 'iccid', title: { zh: 'ICCID', en: 'ICCID' } },
      { key: 'operatorId', title: { zh: '运营商', en: 'Operator' }, enum: Operator },
      { key: 'operAccountName', title: { zh: '接入账号', en: 'Operator account' } },
      { key: 'changeType', title: { zh: '变更类型', en: 'Change type' }, enum: CardChangeType },
      { key: 'request', title: { zh: '请求内容', en: 'Request' } },
      { key: 'failureReason', title: { zh: '失败原因', en: 'Failure reason' } },
      { key: 'attempts', title: { zh: '尝试次数', en: 'Attempts' }, type: 'number' },
      { key: 'state', title: { zh: '状态', en: 'State' }, enum: CardChangeFailureState },
      { key: 'handledBy', title: { zh: '处理人', en: 'Handled by' } },
      { key: 'handledAt', title: { zh: '处理时间', en: 'Handled at' }, type: 'datetime' },
      { key: 'createdAt', title: { zh: '失败时间', en: 'Failed at' }, type: 'datetime' },
    ],
  });
}
