import { App } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorCode, cardcat } from '@lynx/contract';
import { LogicError, call } from '../../../request/http.ts';

/**
 * Deleting a label: a first confirmation, then the server's answer decides. A label still on cards is refused
 * with its card count (CardLabelInUse); a second confirmation names the count and deletes it together with its
 * removal from those cards.
 */
export function useDeleteLabel(onDeleted?: () => void) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const qc = useQueryClient();
  const L = (k: string, o?: Record<string, unknown>) => t(`cardcat.label.${k}`, o);

  const done = (removed: number) => {
    void qc.invalidateQueries({ queryKey: [cardcat.getLabelListPage.name] });
    void qc.invalidateQueries({ queryKey: [cardcat.getLabelOptions.name] });
    message.success(removed > 0 ? L('deleted', { count: removed }) : t('common.operationSuccess'));
    onDeleted?.();
  };

  const remove = async (labelId: number, confirmInUse: boolean) => {
    const r = await call(cardcat.deleteLabel, { labelId, confirmInUse }, { silent: true });
    done(r.removedFromCards);
  };

  return (label: { labelId: number; name: string }) =>
    modal.confirm({
      title: L('deleteConfirm', { name: label.name }),
      okText: L('delete'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await remove(label.labelId, false);
        } catch (e) {
          if (e instanceof LogicError && e.errorCode === ErrorCode.CardLabelInUse) {
            const count = (e.data as { cardCount?: number } | null)?.cardCount ?? 0;
            modal.confirm({
              title: L('inUseTitle'),
              content: L('inUseConfirm', { name: label.name, count }),
              okText: L('inUseOk'),
              okButtonProps: { danger: true },
              cancelText: t('common.cancel'),
              onOk: async () => {
                try {
                  await remove(label.labelId, true);
                } catch (e2) {
                  message.error((e2 as Error).message);
                }
              },
            });
            return;
          }
          message.error((e as Error).message);
        }
      },
    });
}
