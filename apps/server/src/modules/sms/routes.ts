import type { FastifyInstance } from 'fastify';
import { sms as api } from '@lynx/contract';
import { bind } from '../../platform/http.ts';
import { bindExport } from '../../platform/exports.ts';
import type { SessionContext } from '../../platform/context.ts';
import type { Jobs } from '../../platform/jobs.ts';
import type { AppDeps } from '../../app.ts';
import { SmsService } from './service.ts';
import { pollSmsReports, SMS_REPORTS_QUEUE } from './reports.ts';
import { runMoFeeds, SMS_MO_QUEUE } from './mo-feed.ts';

const { SmsStatus, SmsDirection, SmsSource, SmsEncoding } = api;

/** Asks for delivery reports a few seconds after a submission (the minute schedule finds them anyway). */
export const smsReportKick = (jobs: Pick<Jobs, 'send'> | undefined) => () => {
  void jobs?.send(SMS_REPORTS_QUEUE, {}, { startAfter: 6, singletonKey: 'sms-reports-kick', singletonSeconds: 5 }).catch(() => {});
};

/**
 * Card › SMS (/card/sms/list, 2020000, issue 15, docs/sms.md): the list, a message's detail, the export; the delivery
 * report job (every minute, and a few seconds after a send) and the mobile-originated feed (every 5 minutes, with the
 * usage feed: CMP_USAGE_FEED_MINUTES=0 turns both off). Sending is the card detail's call (core/sms/cmpp/single,
 * 2010006) and the batch engine's type 9 (2030003).
 */
export function smsRoutes(app: FastifyInstance, deps: AppDeps) {
  const service = new SmsService(deps, smsReportKick(deps.jobs));
  const s = (c: unknown) => c as SessionContext;

  bind(app, deps, api.getSmsListPage, (b, ctx) => service.page(b, s(ctx).actor));
  bind(app, deps, api.getSmsDetail, (b, ctx) => service.detail(b, s(ctx).actor));
  bindExport(app, deps, api.exportSmsList, api.getSmsListPage);

  deps.exports.register(api.getSmsListPage, {
    title: { zh: '短信列表', en: 'SMS list' },
    filters: {
      iccid: { title: { zh: 'ICCID', en: 'ICCID' } },
      msisdn: { title: { zh: 'MSISDN', en: 'MSISDN' } },
      createdFrom: { title: { zh: '日期', en: 'Date' }, kind: 'date', to: 'createdTo' },
      createdTo: { title: { zh: '', en: '' }, hidden: true },
      after: { title: { zh: '', en: '' }, hidden: true },
      batchId: { title: { zh: '批次', en: 'Batch' }, kind: 'shortId' },
      direction: { title: { zh: '方向', en: 'Direction' }, enum: SmsDirection },
      status: { title: { zh: '状态', en: 'State' }, enum: SmsStatus },
      source: { title: { zh: '来源', en: 'Source' }, enum: SmsSource },
    },
    // the screen's own tenant rule, for the task's owner, read by key page after page (no OFFSET past the first
    // pages) until a short page; the list's own count (capped after 10,000) tells a direct export from a task
    page: (f, actor) => service.exportPage(f, actor),
    count: async (f, actor) => {
      const first = await service.page({ ...f, current: 1, pageSize: 1 }, actor);
      return first.totalCapped ? Number.POSITIVE_INFINITY : first.total;
    },
    columns: [
      { key: 'createdAt', title: { zh: '时间', en: 'Time' }, type: 'datetime' },
      { key: 'iccid', title: { zh: 'ICCID', en: 'ICCID' } },
      { key: 'msisdn', title: { zh: 'MSISDN', en: 'MSISDN' } },
      { key: 'direction', title: { zh: '方向', en: 'Direction' }, enum: SmsDirection },
      { key: 'content', title: { zh: '内容', en: 'Content' } },
      { key: 'encoding', title: { zh: '编码', en: 'Encoding' }, enum: SmsEncoding },
      { key: 'status', title: { zh: '状态', en: 'State' }, enum: SmsStatus },
      { key: 'source', title: { zh: '来源', en: 'Source' }, enum: SmsSource },
      { key: 'messageId', title: { zh: '运营商消息 ID', en: 'Operator message ID' } },
      { key: 'submittedAt', title: { zh: '提交时间', en: 'Submitted at' }, type: 'datetime' },
      { key: 'reportCode', title: { zh: '状态报告', en: 'Delivery report' } },
      { key: 'reportAt', title: { zh: '报告时间', en: 'Reported at' }, type: 'datetime' },
      { key: 'failReason', title: { zh: '失败原因', en: 'Failure' } },
      { key: 'createdBy', title: { zh: '发送人', en: 'Sent by' } },
    ],
  });

  deps.jobs.define(SMS_REPORTS_QUEUE, async () => {
    const r = await pollSmsReports(deps);
    if (r.delivered || r.failed || r.resubmitted) app.log.info({ sms: r }, 'sms delivery reports');
  }, { retryLimit: 0, expireInSeconds: 120 });
  deps.jobs.schedule(SMS_REPORTS_QUEUE, '* * * * *');

  deps.jobs.define(SMS_MO_QUEUE, async () => {
    for (const r of await runMoFeeds(deps)) {
      if (r.error) app.log.warn({ operatorId: r.operatorId, error: r.error }, 'sms mobile-originated feed failed; the next run retries');
    }
  }, { retryLimit: 0, expireInSeconds: 600 });
  deps.jobs.schedule(SMS_MO_QUEUE, deps.config.usageFeedMinutes > 0 ? '*/5 * * * *' : null);
}
