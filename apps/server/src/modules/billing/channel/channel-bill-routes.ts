import type { FastifyInstance } from 'fastify';
import { ChannelBillLineState, channelbill as api, operatebill } from '@lynx/contract';
import { bind } from '../../../platform/http.ts';
import { bindExport, sizeColumns, type ExportColumn } from '../../../platform/exports.ts';
import { denied } from '../../../platform/errors.ts';
import { isStaff, type Actor } from '../../../platform/context.ts';
import type { AppDeps } from '../../../app.ts';
import { ChannelBillService } from './channel-bill-service.ts';
import { busyChannelBills, channelBillOwner, continueChannelBill } from './channel-bill-job.ts';

export const CHANNEL_BILL_QUEUE = 'channel-bill';

/** One turn of the job: the given bill, else every bill with work left. */
export async function continueChannelBills(deps: Pick<AppDeps, 'db' | 'files'>, billId?: number, log?: (err: unknown, billId: number) => void): Promise<void> {
  const owner = channelBillOwner();
  const ids = billId !== undefined ? [billId] : await busyChannelBills(deps.db);
  for (const id of ids) {
    try {
      await continueChannelBill(deps.db, deps.files.root, id, owner);
    } catch (err) {
      log?.(err, id);
    }
  }
}

/**
 * Billing › Channel bills (4050000, import 4050001; issue 14). Staff only: a bill from an operator or an upstream
 * channel covers the platform's cards of that operator, which no customer sees as a whole (docs/decisions.md).
 */
export function channelBillRoutes(app: FastifyInstance, deps: AppDeps) {
  const bills = new ChannelBillService(deps.db, deps.files.root);
  const staffOnly = (actor: Actor) => {
    if (!isStaff(actor)) throw denied();
  };
  const log = (err: unknown, billId: number) => app.log.error({ err, billId }, 'channel bill import failed');
  const kick = (billId: number) =>
    deps.jobs.send(CHANNEL_BILL_QUEUE, { billId }, { singletonKey: `channel-bill-${billId}` })
      .catch((err: unknown) => app.log.warn({ err, billId }, 'channel bill not kicked; the minute job takes it'));

  bind(app, deps, api.getChannelBillPage, (b, c) => (staffOnly(c.actor), bills.list(b, c.lang)));
  bind(app, deps, api.getChannelBillDetail, (b, c) => (staffOnly(c.actor), bills.detail(b.billId, c.lang)));
  bind(app, deps, api.getChannelBillLines, (b, c) => (staffOnly(c.actor), bills.lines(b, c.lang)));
  bind(app, deps, api.getChannelBillErrors, (b, c) => (staffOnly(c.actor), bills.errors(b, c.lang)));
  bind(app, deps, api.importChannelBill, async (_b, c, req) => {
    staffOnly(c.actor);
    const bill = await bills.create(req, c);
    await kick(bill.billId);
    return bill;
  });
  bind(app, deps, api.downloadChannelBillTemplate, (b, c, _req, reply) => (staffOnly(c.actor), bills.template(b, c, reply)));
  bind(app, deps, api.deleteChannelBill, (b, c) => (staffOnly(c.actor), bills.delete(b.billId, c)));
  // a fetched operating bill reconciled without a file: needs the operating bills (9030000) besides the import button
  bind(app, deps, api.reconcileOperatorBill, async (b, c) => {
    staffOnly(c.actor);
    if (!c.actor.permissions.has(operatebill.OperateBillPerm.Page)) throw denied();
    const bill = await bills.fromOperatorBill(b, c);
    await kick(bill.billId);
    return bill;
  });
  bind(app, deps, api.reconcileChannelBill, async (b, c) => {
    staffOnly(c.actor);
    const bill = await bills.reconcileAgain(b.billId, c);
    await kick(bill.billId);
    return bill;
  });

  // a million lines: read by key page after page and streamed into the file
  bindExport(app, deps, api.exportChannelBillLines, api.getChannelBillLines, staffOnly);
  const mb = (key: string, zh: string, en: string): ExportColumn[] => sizeColumns(key, { zh, en });
  deps.exports.register(api.getChannelBillLines, {
    title: { zh: '渠道账单明细', en: 'Channel bill lines' },
    filters: {
      billId: { title: { zh: '渠道账单', en: 'Channel bill' }, kind: 'shortId' },
      state: { title: { zh: '对账结果', en: 'Result' }, enum: ChannelBillLineState },
      after: { title: { zh: '', en: '' }, hidden: true },
    },
    page: (f, actor) => (staffOnly(actor), bills.exportPage(f, 'en', String(actor.accountId))),
    count: (f) => bills.exportCount(f, 'en'),
    columns: [
      { key: 'iccid', title: { zh: 'ICCID', en: 'ICCID' } },
      { key: 'lineNo', title: { zh: '文件行号', en: 'File line' }, type: 'number' },
      { key: 'state', title: { zh: '对账结果', en: 'Result' }, enum: ChannelBillLineState },
      ...mb('channelBytes', '渠道流量', 'Channel data'),
      ...mb('platformBytes', '平台流量', 'Platform data'),
      ...mb('diffBytes', '流量差异', 'Data difference'),
      { key: 'channelSms', title: { zh: '渠道短信', en: 'Channel SMS' }, type: 'number' },
      { key: 'platformSms', title: { zh: '平台短信', en: 'Platform SMS' }, type: 'number' },
      { key: 'diffSms', title: { zh: '短信差异', en: 'SMS difference' }, type: 'number' },
      { key: 'channelAmount', title: { zh: '渠道金额（元）', en: 'Channel amount (CNY)' }, type: 'money' },
    ],
  });

  deps.jobs.define(CHANNEL_BILL_QUEUE, async (data: { billId?: number }) => {
    await continueChannelBills(deps, Number.isInteger(data?.billId) ? Number(data.billId) : undefined, log);
  }, { retryLimit: 0, expireInSeconds: 60 * 60 });
  deps.jobs.schedule(CHANNEL_BILL_QUEUE, '* * * * *');
  // an import left by a stopped process goes on as soon as this one is up, not at the next minute
  deps.jobs.runAtStart(CHANNEL_BILL_QUEUE);
}
