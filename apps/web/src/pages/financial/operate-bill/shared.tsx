import { App } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatMoney, operatebill, type ResponseOf } from '@lynx/contract';
import { call } from '../../../request/http.ts';

export type OperatorBillRow = ResponseOf<typeof operatebill.getOperatorBillListPage>['list'][number];
export const { OperatorBillState, OperateBillPerm } = operatebill;

export const STATE_COLORS: Record<number, string> = {
  [OperatorBillState.Pending]: 'default',
  [OperatorBillState.Fetching]: 'processing',
  [OperatorBillState.Fetched]: 'blue',
  [OperatorBillState.Failed]: 'error',
  [OperatorBillState.Confirmed]: 'success',
};

/** The name of an operator account as people read it (account 0 is the operator's built-in network simulator). */
export function useAccountName() {
  const { t } = useTranslation();
  return (operAccountId: number, accountName: string) => (operAccountId === 0 ? t('operatebill.builtIn') : accountName);
}

/** The accounts the carriers bill (for the filter and for fetching a period). */
export function useOperatorAccounts() {
  return useQuery({
    queryKey: [operatebill.getOperatorBillAccounts.name],
    queryFn: ({ signal }) => call(operatebill.getOperatorBillAccounts, {}, { signal }),
    staleTime: 60_000,
  });
}

/** The tariff the carrier stated on its bill, in one line. */
export function tariffText(t: (k: string, o?: Record<string, unknown>) => string, tariff: OperatorBillRow['tariff']): string {
  if (!tariff) return '-';
  return t('operatebill.tariffText', { card: tariff.cardFee, data: tariff.dataPerGb, sms: tariff.sms, tax: tariff.taxRate });
}

/**
 * Staff's two decisions on an operator bill, each confirmed first: fetch it again (replacing what is stored), or
 * confirm it (it is then never fetched again). `changed` runs after either, also when refused.
 */
export function useOperatorBillActions(changed: () => void) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const nameOf = useAccountName();
  const A = (k: string, o?: Record<string, unknown>) => t(`operatebill.action.${k}`, o);

  const refetch = (r: Pick<OperatorBillRow, 'operatorId' | 'operAccountId' | 'accountName' | 'periodKey'>) => modal.confirm({
    title: A('refetchTitle'),
    content: A('refetchConfirm', { account: nameOf(r.operAccountId, r.accountName), period: r.periodKey }),
    okText: A('refetch'),
    cancelText: t('common.cancel'),
    okButtonProps: { 'data-testid': 'operate-bill-refetch-confirm' } as Record<string, string>,
    onOk: async () => {
      try {
        await call(operatebill.refetchOperatorBill, { operatorId: r.operatorId, operAccountId: r.operAccountId, periodKey: r.periodKey });
        message.success(A('refetchStarted'));
      } finally {
        changed();
      }
    },
  });

  const confirm = (r: OperatorBillRow) => modal.confirm({
    title: A('confirmTitle'),
    content: A('confirmConfirm', { account: nameOf(r.operAccountId, r.accountName), period: r.periodKey, cost: formatMoney(r.cost) }),
    okText: A('confirm'),
    cancelText: t('common.cancel'),
    okButtonProps: { 'data-testid': 'operate-bill-confirm-ok' } as Record<string, string>,
    onOk: async () => {
      try {
        await call(operatebill.confirmOperatorBill, { operatorBillId: r.operatorBillId });
        message.success(A('confirmed'));
      } finally {
        changed();
      }
    },
  });

  return { refetch, confirm };
}
