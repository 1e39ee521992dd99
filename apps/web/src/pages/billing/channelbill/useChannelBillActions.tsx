import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { channelbill, formatCount } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import type { ChannelBillRow } from './shared.tsx';

/** Delete (confirmed first: the lines go for good) and reconcile again; `changed` runs after either, refused or not. */
export function useChannelBillActions(changed: (deleted?: number) => void) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const A = (k: string, o?: Record<string, unknown>) => t(`channelbill.action.${k}`, o);

  const remove = (b: ChannelBillRow) => modal.confirm({
    title: A('deleteTitle', { id: b.billId }),
    content: A('deleteConfirm', { source: b.sourceName, period: b.periodKey, lines: formatCount(b.totalLines + b.missingInChannel) }),
    okText: A('delete'),
    okButtonProps: { danger: true, ...({ 'data-testid': 'channel-bill-delete-confirm' } as Record<string, string>) },
    cancelText: t('common.cancel'),
    onOk: async () => {
      let done = false;
      try {
        await call(channelbill.deleteChannelBill, { billId: b.billId });
        done = true;
        message.success(A('deleted', { id: b.billId }));
      } finally {
        changed(done ? b.billId : undefined);
      }
    },
  });

  const reconcile = async (b: ChannelBillRow) => {
    try {
      await call(channelbill.reconcileChannelBill, { billId: b.billId });
      message.success(A('reconcileStarted'));
    } finally {
      changed();
    }
  };
  return { remove, reconcile };
}
