import type { FastifyInstance } from 'fastify';
import { capital as api, CustomerLevel, JournalKind, LedgerAccount } from '@lynx/contract';
import { bind } from '../../platform/http.ts';
import { bindExport, type ExportColumn } from '../../platform/exports.ts';
import type { AppDeps } from '../../app.ts';
import type { SessionContext } from '../../platform/context.ts';
import { denied } from '../../platform/errors.ts';
import { isStaff } from '../../platform/context.ts';
import { CapitalService } from './capital-service.ts';
import { LEDGER_CHECK_QUEUE, lastLedgerCheck, runLedgerCheck } from './ledger-check.ts';

const balanceColumns: ExportColumn[] = [
  { key: 'preDeposit', title: { zh: '预存款（元）', en: 'Pre-deposit (CNY)' }, type: 'money' },
  { key: 'grants', title: { zh: '赠送金（元）', en: 'Grants (CNY)' }, type: 'money' },
  { key: 'contractPayment', title: { zh: '合同款（元）', en: 'Contract payments (CNY)' }, type: 'money' },
  { key: 'credit', title: { zh: '授信（元）', en: 'Credit (CNY)' }, type: 'money' },
  { key: 'withdrawHold', title: { zh: '提现冻结（元）', en: 'Held for withdrawal (CNY)' }, type: 'money' },
  { key: 'available', title: { zh: '可用余额（元）', en: 'Available (CNY)' }, type: 'money' },
  { key: 'withdrawable', title: { zh: '可提现（元）', en: 'Withdrawable (CNY)' }, type: 'money' },
];

/**
 * Business › Capital (issue 13): balances per customer, one customer's ledger, their exports, and the nightly
 * balance check (02:30 in the business zone) whose last result staff see on the capital list.
 */
export function capitalRoutes(app: FastifyInstance, deps: AppDeps) {
  const capital = new CapitalService(deps.db);
  const ctxOf = (c: unknown) => c as SessionContext;

  bind(app, deps, api.getCapitalListPage, (b, c) => capital.list(b, ctxOf(c).actor));
  bind(app, deps, api.getCapitalDetail, (b, c) => capital.detail(b.custId, ctxOf(c).actor));
  bind(app, deps, api.getCapitalLedgerPage, (b, c) => capital.ledger(b, ctxOf(c).actor));
  bind(app, deps, api.getLedgerCheck, async (_b, c) => {
    if (!isStaff(ctxOf(c).actor)) throw denied();
    return lastLedgerCheck(deps.db);
  });

  bind(app, deps, api.getCompanyInfo, (_b, c) => capital.companyInfo(ctxOf(c).actor));

  bindExport(app, deps, api.exportCapitalList, api.getCapitalListPage);
  deps.exports.register(api.getCapitalListPage, {
    title: { zh: '资金列表', en: 'Capital' },
    filters: {
      level: { title: { zh: '客户级别', en: 'Customer level' }, enum: CustomerLevel },
    },
    page: (f, actor) => capital.list(f, actor),
    columns: [
      { key: 'custId', title: { zh: '客户 ID', en: 'Customer ID' }, type: 'number' },
      { key: 'custName', title: { zh: '客户', en: 'Customer' } },
      { key: 'parentCustName', title: { zh: '上级客户', en: 'Parent customer' } },
      ...balanceColumns,
      { key: 'updatedAt', title: { zh: '最近变动', en: 'Last movement' }, type: 'datetime' },
    ],
  });

  bindExport(app, deps, api.exportCapitalLedger, api.getCapitalLedgerPage);
  deps.exports.register(api.getCapitalLedgerPage, {
    title: { zh: '资金流水', en: 'Ledger' },
    filters: {
      kind: { title: { zh: '类型', en: 'Kind' }, enum: JournalKind },
      account: { title: { zh: '账户', en: 'Account' }, enum: LedgerAccount },
    },
    page: (f, actor) => capital.ledger(f, actor),
    columns: [
      { key: 'createdAt', title: { zh: '时间', en: 'Time' }, type: 'datetime' },
      { key: 'journalId', title: { zh: '凭证号', en: 'Journal' }, type: 'number' },
      { key: 'kind', title: { zh: '类型', en: 'Kind' }, enum: JournalKind },
      { key: 'account', title: { zh: '账户', en: 'Account' }, enum: LedgerAccount },
      { key: 'amount', title: { zh: '金额（元）', en: 'Amount (CNY)' }, type: 'money' },
      { key: 'balanceAfter', title: { zh: '变动后余额（元）', en: 'Balance after (CNY)' }, type: 'money' },
      { key: 'refType', title: { zh: '来源', en: 'Source' } },
      { key: 'refId', title: { zh: '来源单号', en: 'Source number' } },
      { key: 'memo', title: { zh: '说明', en: 'Note' } },
      { key: 'createdBy', title: { zh: '操作人', en: 'By' } },
    ],
  });

  deps.jobs.define(LEDGER_CHECK_QUEUE, async () => {
    await runLedgerCheck(deps.db, app.log);
  }, { retryLimit: 1, expireInSeconds: 30 * 60 });
  deps.jobs.schedule(LEDGER_CHECK_QUEUE, '30 2 * * *');
}
