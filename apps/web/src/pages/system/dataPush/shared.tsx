import { App, Switch, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { datapush, type ResponseOf } from '@lynx/contract';
import { call } from '../../../request/http.ts';

export type TaskRow = ResponseOf<typeof datapush.getDataPushListPage>['list'][number];
export type RunRow = ResponseOf<typeof datapush.getDataPushRunPage>['list'][number];
export const { DataPushFileType, DataPushAuthType, DataPushOpen, DataPushRunState, DataPushTrigger } = datapush;

export const RUN_STATE_COLORS: Record<number, string> = {
  [DataPushRunState.Waiting]: 'default', [DataPushRunState.Running]: 'processing', [DataPushRunState.Succeeded]: 'success', [DataPushRunState.Failed]: 'error',
};

/** Switching on or off, deleting and pushing now, each after a confirmation. */
export function useTaskActions(onDone: () => void, onPushed: (t: TaskRow) => void) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const C = (k: string, o?: Record<string, unknown>) => t(`datapush.confirm.${k}`, o);
  const toggle = (r: TaskRow, on: boolean) => modal.confirm({
    title: C(on ? 'onTitle' : 'offTitle'),
    content: C(on ? 'onContent' : 'offContent', { name: r.taskName, time: r.pushTime }),
    okText: t(on ? 'datapush.action.on' : 'datapush.action.off'),
    okButtonProps: { danger: !on, 'data-testid': 'data-push-switch-confirm' } as ButtonProps,
    cancelText: t('common.cancel'),
    onOk: async () => {
      try {
        await call(datapush.openDataPushById, { taskId: r.taskId, open: on ? 1 : 0 });
        message.success(t(on ? 'datapush.done.on' : 'datapush.done.off'));
      } finally {
        onDone();
      }
    },
  });
  const remove = (r: TaskRow) => modal.confirm({
    title: C('deleteTitle'),
    content: C('deleteContent', { name: r.taskName }),
    okText: t('common.delete'),
    okButtonProps: { danger: true, 'data-testid': 'data-push-delete-confirm' } as ButtonProps,
    cancelText: t('common.cancel'),
    onOk: async () => {
      try {
        await call(datapush.deleteDataPushById, { taskId: r.taskId });
        message.success(t('datapush.done.deleted'));
      } finally {
        onDone();
      }
    },
  });
  const pushNow = (r: TaskRow) => modal.confirm({
    title: C('pushTitle'),
    content: C('pushContent', { name: r.taskName, host: r.host, path: r.remotePath }),
    okText: t('datapush.action.pushNow'),
    okButtonProps: { 'data-testid': 'data-push-push-confirm' } as ButtonProps,
    cancelText: t('common.cancel'),
    onOk: async () => {
      try {
        await call(datapush.pushDataPushNow, { taskId: r.taskId });
        message.success(t('datapush.done.pushed'));
        onPushed(r);
      } finally {
        onDone();
      }
    },
  });
  return { toggle, remove, pushNow };
}

/** The on/off switch of a task: asks before it changes anything. */
export function OpenSwitch({ task, onToggle }: { task: TaskRow; onToggle: (r: TaskRow, on: boolean) => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  return (
    <Switch size="small" checked={task.open === 1} onChange={(on) => onToggle(task, on)}
      checkedChildren={DataPushOpen.label(DataPushOpen.On, lang)} unCheckedChildren={DataPushOpen.label(DataPushOpen.Off, lang)}
      aria-label={t('datapush.f.open')} data-testid={`data-push-switch-${task.taskId}`} />
  );
}
