import type { FastifyInstance } from 'fastify';
import { BillLineCategory, BillPublishState, BillStatus, Operator, bill as api } from '@lynx/contract';
import { bind } from '../../../platform/http.ts';
import { bindExport, sizeColumns, type ExportColumn } from '../../../platform/exports.ts';
import { audit } from '../../../platform/audit.ts';
import { denied } from '../../../platform/errors.ts';
import { isStaff, type Actor, type SessionContext } from '../../../platform/context.ts';
import type { AppDeps } from '../../../app.ts';
import { billRunRow, startBillRun } from '../run/bill-run.ts';
import { billRunJobs, kickBillRun } from '../run/bill-run-jobs.ts';
import { BillService } from './bill-service.ts';
import { BillLineService } from './bill-lines.ts';
import { WriteOffService } from './write-off.ts';
import { OneOffFeeService } from './one-off-fees.ts';
import { billPeriods, billRuns } from './bill-runs.ts';
import type { BillOut } from './bill-sql.ts';

const money = (key: string, zh: string, en: string): ExportColumn => ({ key, title: { zh: `${zh}（元）`, en: `${en} (CNY)` }, type: 'money' });

/** The bill's category amounts (BillCategoryAmounts) in category order. */
const CATEGORY_COLUMNS: [string, BillLineCategory][] = [
  ['planFee', BillLineCategory.PlanFee], ['prepaidFee', BillLineCategory.PrepaidPlanFee], ['overageFee', BillLineCategory.OutOfPlanUsage],
  ['testFee', BillLineCategory.TestFee], ['downtimeFee', BillLineCategory.DowntimeFee], ['packFee', BillLineCategory.PackFee],
  ['oneOffFee', BillLineCategory.OneOffFee],
];

/** A bill as an export row: its category amounts as columns of their own. */
const flatBill = (b: BillOut) => ({ ...b, ...b.categories });

/**
 * Billing › Bills (4020000), Financial › Write-off (9020000), the card detail's bill lines and the one-off fees of
 * 6090000 (issue 14). Staff see every bill and run, publish and re-run them; customers see their tree's (a
 * second-level customer its own) published bills and write them off. The bill run engine (../run/) does the rating.
 */
export function billRoutes(app: FastifyInstance, deps: AppDeps) {
  const bills = new BillService(deps.db);
  const lines = new BillLineService(deps.db);
  const writeOffs = new WriteOffService(deps.db);
  const fees = new OneOffFeeService(deps.db);
  const ctxOf = (c: unknown) => c as SessionContext;
  const staffOnly = (actor: Actor) => {
    if (!isStaff(actor)) throw denied();
  };

  bind(app, deps, api.getBillListPage, (b, c) => bills.list(b, ctxOf(c).actor));
  bind(app, deps, api.getBillDetail, (b, c) => bills.detail(b.billId, ctxOf(c).actor, c.lang));
  bind(app, deps, api.getBillCardLines, (b, c) => lines.page(b, ctxOf(c).actor));
  bind(app, deps, api.publishBill, (b, c) => bills.publish(b.billId, ctxOf(c)));
  bind(app, deps, api.runBills, async (b, c) => {
    const ctx = ctxOf(c);
    staffOnly(ctx.actor);
    const runId = await startBillRun(deps.db, { periodKey: b.periodKey, custId: b.custId, by: ctx.actor.loginName });
    await audit(deps.db, ctx, { entity: 'billRun', entityId: runId, after: { periodKey: b.periodKey, custId: b.custId ?? null } });
    // the run exists from here on: a failed kick leaves it to the every-minute job, not to an error for the caller
    await kickBillRun(deps, runId).catch((err: unknown) => app.log.warn({ err, runId }, 'bill run not kicked; the minute job takes it'));
    return billRunRow(deps.db, runId);
  });
  bind(app, deps, api.getBillRuns, (b, c) => (staffOnly(ctxOf(c).actor), billRuns(deps.db, b)));
  bind(app, deps, api.getBillPeriods, (_b, c) => (staffOnly(ctxOf(c).actor), billPeriods(deps.db, c.lang)));

  bind(app, deps, api.getWriteOffListPage, (b, c) => writeOffs.list(b, ctxOf(c).actor));
  bind(app, deps, api.writeOffBill, (b, c) => writeOffs.writeOff(b, ctxOf(c)));
  bind(app, deps, api.getCardBillLines, (b, c) => lines.cardLines(b, ctxOf(c).actor));

  bind(app, deps, api.getOneOffFeeListPage, (b, c) => fees.list(b, ctxOf(c).actor));
  bind(app, deps, api.addOneOffFee, (b, c) => fees.add(b, ctxOf(c)));
  bind(app, deps, api.cancelOneOffFee, (b, c) => fees.cancel(b.feeId, ctxOf(c)));

  bindExport(app, deps, api.exportBills, api.getBillListPage);
  deps.exports.register(api.getBillListPage, {
    title: { zh: '账单列表', en: 'Bills' },
    filters: {
      periodKey: { title: { zh: '账期', en: 'Period' } },
      billNo: { title: { zh: '账单编号', en: 'Bill number' } },
      status: { title: { zh: '账单状态', en: 'Status' }, enum: BillStatus },
      published: { title: { zh: '发布状态', en: 'Published' }, enum: BillPublishState },
    },
    page: async (f, actor) => {
      const page = await bills.list(f, actor);
      return { ...page, list: page.list.map(flatBill) };
    },
    columns: [
      { key: 'billNo', title: { zh: '账单编号', en: 'Bill number' } },
      { key: 'periodKey', title: { zh: '账期', en: 'Period' } },
      { key: 'periodFrom', title: { zh: '计费开始', en: 'From' } },
      { key: 'periodTo', title: { zh: '计费结束', en: 'To' } },
      { key: 'custName', title: { zh: '客户', en: 'Customer' } },
      { key: 'status', title: { zh: '账单状态', en: 'Status' }, enum: BillStatus },
      { key: 'published', title: { zh: '发布状态', en: 'Published' }, enum: BillPublishState },
      { key: 'dueDate', title: { zh: '到期日', en: 'Due date' } },
      { key: 'cardCount', title: { zh: '卡数', en: 'Cards' }, type: 'number' },
      money('total', '总费用', 'Total'),
      money('tax', '税额', 'Tax'),
      // the category columns read as the categories do everywhere else
      ...CATEGORY_COLUMNS.map(([key, c]) => money(key, BillLineCategory.label(c, 'zh'), BillLineCategory.label(c, 'en'))),
      money('withheld', '已预扣', 'Withheld'),
      money('amountDue', '应核销', 'Amount due'),
      money('writtenOff', '已核销', 'Written off'),
      money('arrears', '欠费', 'Arrears'),
      { key: 'publishedAt', title: { zh: '发布时间', en: 'Published' }, type: 'datetime' },
      { key: 'writtenOffAt', title: { zh: '核销时间', en: 'Written off' }, type: 'datetime' },
    ],
  });

  // a million lines: read by key page after page (BillLineService.exportPage) and streamed into the file
  bindExport(app, deps, api.exportBillCardLines, api.getBillCardLines);
  deps.exports.register(api.getBillCardLines, {
    title: { zh: '账单卡明细', en: 'Bill card lines' },
    filters: {
      billId: { title: { zh: '账单', en: 'Bill' }, kind: 'shortId' },
      category: { title: { zh: '费用类别', en: 'Category' }, enum: BillLineCategory },
      after: { title: { zh: '', en: '' }, hidden: true },
    },
    page: async (f, actor) => {
      const page = await lines.exportPage(f, actor, String(actor.accountId));
      return {
        ...page,
        list: page.list.map((l) => ({ ...l, withheld: l.withheld ? { zh: '是', en: 'Yes' } : { zh: '否', en: 'No' } })),
      };
    },
    count: (f, actor) => lines.exportCount(f, actor),
    columns: [
      { key: 'iccid', title: { zh: 'ICCID', en: 'ICCID' } },
      { key: 'category', title: { zh: '费用类别', en: 'Category' }, enum: BillLineCategory },
      { key: 'fromDay', title: { zh: '开始日', en: 'From' } },
      { key: 'toDay', title: { zh: '结束日', en: 'To' } },
      { key: 'planName', title: { zh: '套餐', en: 'Plan' } },
      { key: 'operatorId', title: { zh: '运营商', en: 'Operator' }, enum: Operator },
      { key: 'quantity', title: { zh: '数量', en: 'Quantity' }, type: 'number' },
      money('unitPrice', '单价', 'Unit price'),
      money('amount', '金额', 'Amount'),
      money('tax', '税额', 'Tax'),
      ...sizeColumns('usedBytes', { zh: '用量', en: 'Usage' }),
      ...sizeColumns('quotaBytes', { zh: '额度', en: 'Quota' }),
      { key: 'withheld', title: { zh: '已预扣', en: 'Withheld' }, type: 'bilingual' },
    ],
  });

  billRunJobs(app, deps);
}
