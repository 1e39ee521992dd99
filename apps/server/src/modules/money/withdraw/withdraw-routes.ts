import type { FastifyInstance } from 'fastify';
import { ErrorCode, WithdrawRunTrigger, WithdrawState, withdraw as api } from '@lynx/contract';
import { bind } from '../../../platform/http.ts';
import { bindExport } from '../../../platform/exports.ts';
import type { AppDeps } from '../../../app.ts';
import type { RequestContext, SessionContext } from '../../../platform/context.ts';
import { AppError } from '../../../platform/errors.ts';
import { CalendarService } from './calendar-service.ts';
import { WITHDRAW_MONTHLY_CRON, WITHDRAW_MONTHLY_QUEUE, WITHDRAW_RUN_QUEUE, WithdrawService } from './withdraw-service.ts';

/**
 * Business › Withdrawals (issue 13) and the working-day calendar. A payout run (the monthly one at 09:00 on the
 * 10th, business zone, or one finance starts) is a pg-boss job: interrupted, it is retried, and the monthly job
 * also resumes any unfinished run before it starts its own; each withdrawal is paid exactly once.
 */
export function withdrawRoutes(app: FastifyInstance, deps: AppDeps) {
  const withdrawals = new WithdrawService(deps.db);
  const calendar = new CalendarService(deps.db);
  const ctxOf = (c: unknown) => c as SessionContext;

  bind(app, deps, api.getWithdrawListPage, (b, c) => withdrawals.list(b, ctxOf(c).actor));
  bind(app, deps, api.getWithdrawInfo, (b, c) => withdrawals.info(b.withdrawId, ctxOf(c).actor));
  bind(app, deps, api.getWithdrawApplyInfo, (_b, c) => withdrawals.applyInfo(ctxOf(c).actor));
  bind(app, deps, api.applyWithdraw, (b, c) => withdrawals.apply(b, ctxOf(c)));
  bind(app, deps, api.checkWithdraw, (b, c) => withdrawals.check(b, ctxOf(c)));
  bind(app, deps, api.getWithdrawRuns, (b, c) => withdrawals.runs(b, ctxOf(c).actor));
  bind(app, deps, api.retryWithdrawPayout, (b, c) => withdrawals.retryPayout(b.withdrawId, ctxOf(c)));
  bind(app, deps, api.runWithdrawPayouts, async (_b, c) => {
    try {
      const run = (await withdrawals.startRun(ctxOf(c), WithdrawRunTrigger.Manual))!;
      await deps.jobs.send(WITHDRAW_RUN_QUEUE, { runId: run.runId });
      return run;
    } catch (e) {
      // an unfinished run whose job was lost (its retries spent) is sent again; paying is idempotent per withdrawal
      if (e instanceof AppError && e.code === ErrorCode.WithdrawRunBusy) await deps.jobs.send(WITHDRAW_RUN_QUEUE, { runId: Number(e.params?.runId) });
      throw e;
    }
  });

  bindExport(app, deps, api.exportWithdraws, api.getWithdrawListPage);
  deps.exports.register(api.getWithdrawListPage, {
    title: { zh: '提现列表', en: 'Withdrawals' },
    filters: {
      state: { title: { zh: '状态', en: 'State' }, enum: WithdrawState },
      withdrawNo: { title: { zh: '提现单号', en: 'Number' } },
    },
    page: (f, actor) => withdrawals.list(f, actor),
    columns: [
      { key: 'withdrawNo', title: { zh: '提现单号', en: 'Number' } },
      { key: 'custName', title: { zh: '客户', en: 'Customer' } },
      { key: 'amount', title: { zh: '金额（元）', en: 'Amount (CNY)' }, type: 'money' },
      { key: 'accountName', title: { zh: '收款户名', en: 'Account name' } },
      { key: 'bankName', title: { zh: '开户银行', en: 'Bank' } },
      { key: 'bankAccount', title: { zh: '银行账号', en: 'Bank account' } },
      { key: 'state', title: { zh: '状态', en: 'State' }, enum: WithdrawState },
      { key: 'appliedBy', title: { zh: '申请人', en: 'Applied by' } },
      { key: 'appliedAt', title: { zh: '申请时间', en: 'Applied at' }, type: 'datetime' },
      { key: 'reviewedBy', title: { zh: '审核人', en: 'Reviewed by' } },
      { key: 'reviewedAt', title: { zh: '审核时间', en: 'Reviewed at' }, type: 'datetime' },
      { key: 'reviewReason', title: { zh: '审核说明', en: 'Review note' } },
      { key: 'expectedRunDay', title: { zh: '打款日', en: 'Payout run' } },
      { key: 'expectedArrivalDay', title: { zh: '预计到账日', en: 'Expected arrival' } },
      { key: 'paidAt', title: { zh: '打款时间', en: 'Paid at' }, type: 'datetime' },
      { key: 'payoutError', title: { zh: '打款失败原因', en: 'Payout failure' } },
      { key: 'remark', title: { zh: '备注', en: 'Note' } },
    ],
  });

  bind(app, deps, api.getCalendarDays, (b) => calendar.list(b.year));
  bind(app, deps, api.addCalendarDay, (b, c) => calendar.add(b, ctxOf(c)));
  bind(app, deps, api.updateCalendarDay, (b, c) => calendar.update(b, ctxOf(c)));
  bind(app, deps, api.deleteCalendarDay, (b, c) => calendar.remove(b.day, ctxOf(c)));

  deps.jobs.define(WITHDRAW_RUN_QUEUE, async (data: { runId?: number }) => {
    if (Number.isInteger(data?.runId)) await withdrawals.processRun(Number(data.runId));
  }, { retryLimit: 5, expireInSeconds: 30 * 60 });
  deps.jobs.define(WITHDRAW_MONTHLY_QUEUE, async () => {
    for (const runId of await withdrawals.unfinishedRuns()) await withdrawals.processRun(runId);
    const ctx: RequestContext = { actor: null, lang: 'zh', ip: '-', endpoint: `job:${WITHDRAW_MONTHLY_QUEUE}`, tokenHash: null, audited: false };
    const run = await withdrawals.startRun(ctx, WithdrawRunTrigger.Scheduled);
    if (run) await withdrawals.processRun(run.runId);
  }, { retryLimit: 5, expireInSeconds: 60 * 60 });
  deps.jobs.schedule(WITHDRAW_MONTHLY_QUEUE, WITHDRAW_MONTHLY_CRON);
}
