import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { PayChannel, PayState, RechargeAuditState, pathOf, recharge as api } from '@lynx/contract';
import { bind } from '../../../platform/http.ts';
import { bindExport } from '../../../platform/exports.ts';
import type { AppDeps } from '../../../app.ts';
import type { RequestContext, SessionContext } from '../../../platform/context.ts';
import { audit } from '../../../platform/audit.ts';
import { notFound } from '../../../platform/errors.ts';
import { contentDisposition, readMultipart } from '../../../platform/files.ts';
import { FILE_CONTENT_SECURITY_POLICY } from '../../../platform/security-headers.ts';
import { PaymentRegistry } from '../../../payments/registry.ts';
import { PaymentSimulator, simulatorKey, type SimNotification } from '../../../payments/simulator.ts';
import { RechargeService } from './recharge-service.ts';
import { cashierRoutes, cashierUrl } from './recharge-cashier.ts';

export const RECHARGE_EXPIRE_QUEUE = 'recharge-expire';

/** The payment parts of a running app (tests reach the simulator's hooks through it). */
export interface Payments {
  registry: PaymentRegistry;
  simulator: PaymentSimulator;
  service: RechargeService;
}
const byApp = new WeakMap<FastifyInstance, Payments>();
export const paymentsOf = (app: FastifyInstance): Payments => {
  const p = byApp.get(app);
  if (!p) throw new Error('recharge routes are not installed');
  return p;
};

/**
 * Business › Recharge (issue 13, docs/payments.md): top-ups, public transfers and their review, refunds, exports,
 * the payment simulator (cashier page and signed notifications to the public notify endpoint) and the expiry job
 * that reconciles and closes unpaid online orders every minute.
 */
export function rechargeRoutes(app: FastifyInstance, deps: AppDeps) {
  const registry = new PaymentRegistry();
  const simulator = new PaymentSimulator(deps.db, simulatorKey(deps.config.paymentSimKey, deps.config.dataDir), cashierUrl);
  // the simulator calls the notify endpoint as a channel would: over HTTP (here in-process), signed
  simulator.deliver = async (body: SimNotification) => {
    const res = await app.inject({ method: 'POST', url: `${pathOf(api.simulatorNotify)}?lang=en`, payload: body, remoteAddress: '127.0.0.1' });
    return { status: res.statusCode, body: res.json() as unknown };
  };
  registry.install(simulator);
  const recharges = new RechargeService(deps.db, registry);
  byApp.set(app, { registry, simulator, service: recharges });
  const ctxOf = (c: unknown) => c as SessionContext;

  bind(app, deps, api.getRechargePage, (b, c) => recharges.list(b, ctxOf(c).actor));
  bind(app, deps, api.getRechargeDetail, (b, c) => recharges.detail(b.rechargeId, ctxOf(c).actor));
  bind(app, deps, api.getReviewSummary, (_b, c) => recharges.reviewSummary(ctxOf(c).actor));
  bind(app, deps, api.getPayChannels, async (_b, c) => registry.list(ctxOf(c).lang));
  bind(app, deps, api.saveRecharge, (b, c) => recharges.createOnline(b, ctxOf(c)));
  bind(app, deps, api.closeRecharge, (b, c) => recharges.close(b.rechargeId, ctxOf(c)));
  bind(app, deps, api.checkSerialNumber, async (b) => ({ used: await recharges.serialUsed(deps.db, b.serialNo.trim()) }));
  bind(app, deps, api.savePublicRecharge, (b, c) => recharges.createPublic(b, ctxOf(c)));
  bind(app, deps, api.reviewRecharge, (b, c) => recharges.review(b, ctxOf(c)));
  bind(app, deps, api.refundRecharge, (b, c) => recharges.refund(b, ctxOf(c), ctxOf(c).lang));
  bind(app, deps, api.simulatorNotify, (b, c) => recharges.notify('simulator', b as Record<string, unknown>, c as RequestContext));

  bind(app, deps, api.uploadProof, async (_b, c, req) => {
    const ctx = ctxOf(c);
    const { file } = await readMultipart(req, api.uploadProof);
    deps.files.check('paymentProof', file);
    return deps.db.transaction(async (tx) => {
      const row = await deps.files.save(tx, 'paymentProof', file, ctx.actor, { custId: ctx.actor.custId, rootCustId: ctx.actor.rootCustId });
      await audit(tx, ctx, { entity: 'paymentProof', entityId: row.fileId, after: { fileId: row.fileId, name: row.originalName, size: row.size } });
      return { fileId: row.fileId };
    });
  });

  bind(app, deps, api.downloadProof, async (b, c, _req, reply) => {
    const fileId = await recharges.proofOf(Number(b.rechargeId), ctxOf(c).actor);
    const row = await deps.files.get(fileId);
    if (!row) throw notFound();
    return reply
      .header('content-type', row.mimeType)
      .header('content-disposition', contentDisposition('attachment', row.originalName))
      .header('content-security-policy', FILE_CONTENT_SECURITY_POLICY)
      .header('cache-control', 'private, no-store')
      .send(fs.createReadStream(deps.files.pathOf(row.storageKey)));
  });

  cashierRoutes(app, simulator);

  bindExport(app, deps, api.exportRecharges, api.getRechargePage);
  deps.exports.register(api.getRechargePage, {
    title: { zh: '充值记录', en: 'Top-ups' },
    filters: {
      channel: { title: { zh: '支付渠道', en: 'Channel' }, enum: PayChannel },
      payState: { title: { zh: '支付状态', en: 'Payment state' }, enum: PayState },
      auditState: { title: { zh: '审核状态', en: 'Review' }, enum: RechargeAuditState },
      serialNo: { title: { zh: '流水号', en: 'Serial number' } },
      rechargeNo: { title: { zh: '充值单号', en: 'Top-up number' } },
      overdue: { title: { zh: '仅逾期未审核', en: 'Overdue reviews only' }, kind: 'bool' },
    },
    page: (f, actor) => recharges.list(f, actor),
    columns: [
      { key: 'rechargeNo', title: { zh: '充值单号', en: 'Number' } },
      { key: 'custName', title: { zh: '客户', en: 'Customer' } },
      { key: 'channel', title: { zh: '支付渠道', en: 'Channel' }, enum: PayChannel },
      { key: 'amount', title: { zh: '金额（元）', en: 'Amount (CNY)' }, type: 'money' },
      { key: 'refunded', title: { zh: '已退款（元）', en: 'Refunded (CNY)' }, type: 'money' },
      { key: 'payState', title: { zh: '支付状态', en: 'Payment state' }, enum: PayState },
      { key: 'auditState', title: { zh: '审核状态', en: 'Review' }, enum: RechargeAuditState },
      { key: 'dueAt', title: { zh: '审核截止', en: 'Review due' }, type: 'datetime' },
      { key: 'serialNo', title: { zh: '流水号', en: 'Serial number' } },
      { key: 'transferDate', title: { zh: '转账日期', en: 'Transfer date' } },
      { key: 'tradeNo', title: { zh: '渠道交易号', en: 'Channel trade number' } },
      { key: 'note', title: { zh: '备注', en: 'Note' } },
      { key: 'reviewReason', title: { zh: '审核意见', en: 'Review note' } },
      { key: 'reviewedBy', title: { zh: '审核人', en: 'Reviewed by' } },
      { key: 'createdBy', title: { zh: '创建人', en: 'Created by' } },
      { key: 'createdAt', title: { zh: '创建时间', en: 'Created' }, type: 'datetime' },
      { key: 'paidAt', title: { zh: '到账时间', en: 'Paid at' }, type: 'datetime' },
    ],
  });

  deps.jobs.define(RECHARGE_EXPIRE_QUEUE, async () => {
    await recharges.reconcilePending();
  }, { retryLimit: 0, expireInSeconds: 5 * 60 });
  deps.jobs.schedule(RECHARGE_EXPIRE_QUEUE, '* * * * *');
}
