import { App } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { bill, formatMoney } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import type { BillRow } from './shared.tsx';

/**
 * Staff's two decisions on an unpublished bill, each confirmed first: publish it (due BILL_DUE_DAYS days later, and
 * the customer sees it), or re-run it (rated again from the cards' usage, one-off fees and plans as they are now).
 * `changed` runs after either, also when refused (the bill may have moved meanwhile).
 */
export function useBillActions(changed: () => void) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const qc = useQueryClient();
  const A = (k: string, o?: Record<string, unknown>) => t(`bill.action.${k}`, o);

  const publish = (r: BillRow) => modal.confirm({
    title: A('publishTitle', { no: r.billNo }),
    content: A('publishConfirm', { cust: r.custName, period: r.periodKey, total: formatMoney(r.total), due: formatMoney(r.amountDue), days: bill.BILL_DUE_DAYS }),
    okText: A('publish'),
    cancelText: t('common.cancel'),
    okButtonProps: { 'data-testid': 'bill-publish-confirm' } as Record<string, string>,
    onOk: async () => {
      try {
        const b = await call(bill.publishBill, { billId: r.billId });
        message.success(A('published', { no: b.billNo, date: b.dueDate ?? '-' }));
      } finally {
        changed();
      }
    },
  });

  const rerun = (r: BillRow) => modal.confirm({
    title: A('rerunTitle', { no: r.billNo }),
    content: A('rerunConfirm', { cust: r.custName, period: r.periodKey }),
    okText: A('rerun'),
    cancelText: t('common.cancel'),
    okButtonProps: { 'data-testid': 'bill-rerun-confirm' } as Record<string, string>,
    onOk: async () => {
      try {
        const run = await call(bill.runBills, { periodKey: r.periodKey, custId: r.custId });
        message.success(A('rerunStarted', { id: run.runId }));
        void qc.invalidateQueries({ queryKey: [bill.getBillRuns.name] });
      } finally {
        changed();
      }
    },
  });

  return { publish, rerun };
}
