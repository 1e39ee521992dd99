import type { FastifyInstance } from 'fastify';
import { Operator, operatebill as api } from '@lynx/contract';
import { bind } from '../../../platform/http.ts';
import { bindExport, sizeColumns, type ExportColumn } from '../../../platform/exports.ts';
import { denied } from '../../../platform/errors.ts';
import { isStaff, type Actor, type SessionContext } from '../../../platform/context.ts';
import type { AppDeps } from '../../../app.ts';
import { OperatorBillService } from './operator-bill-service.ts';
import { BUILT_IN_ACCOUNT_LABEL, runOperatorBillFetch } from './operator-bill-fetch.ts';

export const OPERATOR_BILL_QUEUE = 'operator-bill';

const money = (key: string, zh: string, en: string): ExportColumn => ({ key, title: { zh: `${zh}（元）`, en: `${en} (CNY)` }, type: 'money' });
const staffOnly = (actor: Actor) => {
  if (!isStaff(actor)) throw denied();
};

/**
 * Financial › Operating bills (9030000, issue 14): the carriers' bills per operator account and period against our
 * revenue, re-fetch, confirm and export; the customer bill detail's operator section. Staff only. The fetch job runs
 * every ten minutes (and at start, and at once after a re-fetch): it makes the bills of newly closed periods and
 * fetches, resumes or retries every bill whose turn it is.
 */
export function operatorBillRoutes(app: FastifyInstance, deps: AppDeps) {
  const bills = new OperatorBillService(deps.db);
  const ctxOf = (c: unknown) => c as SessionContext;

  bind(app, deps, api.getOperatorBillListPage, (b, c) => bills.list(b, ctxOf(c).actor));
  bind(app, deps, api.getOperatorBillDetail, (b, c) => bills.detail(b.operatorBillId, ctxOf(c).actor));
  bind(app, deps, api.getOperatorBillAccounts, (_b, c) => bills.accounts(ctxOf(c).actor));
  bind(app, deps, api.getBillOperatorCost, (b, c) => bills.billCost(b.billId, ctxOf(c).actor));
  bind(app, deps, api.confirmOperatorBill, (b, c) => bills.confirm(b.operatorBillId, ctxOf(c)));
  bind(app, deps, api.refetchOperatorBill, async (b, c) => {
    const row = await bills.refetch(b, ctxOf(c));
    // the bill is pending from here on: a failed kick leaves it to the job's next turn
    await deps.jobs.send(OPERATOR_BILL_QUEUE, { operatorBillId: row.operatorBillId }, { singletonKey: `operator-bill-${row.operatorBillId}` })
      .catch((err: unknown) => app.log.warn({ err }, 'operator bill fetch not kicked; the job takes it'));
    return row;
  });

  bindExport(app, deps, api.exportOperatorBills, api.getOperatorBillListPage, staffOnly);
  deps.exports.register(api.getOperatorBillListPage, {
    title: { zh: '运营账单', en: 'Operating bills' },
    filters: {
      operatorId: { title: { zh: '运营商', en: 'Operator' }, enum: Operator },
      operAccountId: { title: { zh: '运营商账户', en: 'Operator account' } },
      periodFrom: { title: { zh: '起始账期', en: 'From period' } },
      periodTo: { title: { zh: '截止账期', en: 'To period' } },
      state: { title: { zh: '状态', en: 'State' }, enum: api.OperatorBillState },
    },
    page: async (f, actor) => {
      const page = await bills.list(f, actor);
      return { ...page, list: page.list.map((r) => ({ ...r, accountName: r.operAccountId === 0 ? BUILT_IN_ACCOUNT_LABEL : { zh: r.accountName, en: r.accountName } })) };
    },
    columns: [
      { key: 'periodKey', title: { zh: '账期', en: 'Period' } },
      { key: 'periodFrom', title: { zh: '账期开始', en: 'From' } },
      { key: 'periodTo', title: { zh: '账期结束', en: 'To' } },
      { key: 'operatorId', title: { zh: '运营商', en: 'Operator' }, enum: Operator },
      { key: 'accountName', title: { zh: '运营商账户', en: 'Operator account' }, type: 'bilingual' },
      { key: 'state', title: { zh: '状态', en: 'State' }, enum: api.OperatorBillState },
      { key: 'billRef', title: { zh: '运营商账单号', en: 'Carrier bill reference' } },
      { key: 'cards', title: { zh: '计费卡数', en: 'Cards billed' }, type: 'number' },
      ...sizeColumns('dataBytes', { zh: '流量', en: 'Data' }),
      { key: 'sms', title: { zh: '短信条数', en: 'SMS' }, type: 'number' },
      money('cardFee', '卡月费', 'Card fees'),
      money('dataFee', '流量费', 'Data fees'),
      money('smsFee', '短信费', 'SMS fees'),
      money('cost', '不含税运营商成本', 'Operator cost excl. tax'),
      money('costTax', '成本税额', 'Cost tax'),
      money('revenue', '不含税收入', 'Revenue excl. tax'),
      money('margin', '毛利', 'Margin'),
      { key: 'marginPct', title: { zh: '毛利率（%）', en: 'Margin (%)' } },
      { key: 'revenueBills', title: { zh: '收入账单数', en: 'Bills' }, type: 'number' },
      { key: 'revenuePublished', title: { zh: '已发布账单数', en: 'Published bills' }, type: 'number' },
      { key: 'fetchedAt', title: { zh: '获取时间', en: 'Fetched at' }, type: 'datetime' },
      { key: 'confirmedAt', title: { zh: '确认时间', en: 'Confirmed at' }, type: 'datetime' },
      { key: 'lastError', title: { zh: '失败原因', en: 'Failure reason' } },
    ],
  });

  const log = (err: unknown, operatorBillId: number) => app.log.error({ err, operatorBillId }, 'operator bill fetch failed');
  deps.jobs.define(OPERATOR_BILL_QUEUE, async (data: { operatorBillId?: number }) => {
    const id = Number.isInteger(data?.operatorBillId) ? Number(data.operatorBillId) : undefined;
    await runOperatorBillFetch(deps, { operatorBillId: id, budgetMs: 9 * 60_000, log });
  }, { retryLimit: 0, expireInSeconds: 60 * 60 });
  deps.jobs.schedule(OPERATOR_BILL_QUEUE, '*/10 * * * *');
  app.addHook('onReady', async () => {
    void deps.jobs.send(OPERATOR_BILL_QUEUE, {}, { singletonKey: 'operator-bill-start' }).catch(() => null);
  });
}
