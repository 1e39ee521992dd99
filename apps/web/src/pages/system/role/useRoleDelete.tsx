import { App } from 'antd';
import { LiveText } from '../../../request/LiveText.tsx';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { role } from '@lynx/contract';
import { call, LogicError } from '../../../request/http.ts';
import type { RoleRecord } from './RoleDrawer.tsx';

/**
 * Delete with confirmation. The server refuses a role in use (20034) or a built-in one (20036) with a
 * message in the user's language: that message is shown in a dialog so it cannot be missed.
 */
export function useRoleDelete() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  return (record: RoleRecord) =>
    modal.confirm({
      title: t('system.role.deleteTitle', { name: record.roleName }),
      content: record.accountCount > 0 ? t('system.role.deleteInUse', { count: record.accountCount }) : t('common.confirmDelete'),
      okText: t('common.delete'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await call(role.deleteRole, { roleId: record.roleId }, { silent: true });
          message.success(<LiveText k="common.operationSuccess" />);
          await qc.invalidateQueries({ queryKey: [role.getRoleListPage.name] });
          qc.removeQueries({ queryKey: [role.getRoleDetail.name, record.roleId] });
        } catch (e) {
          if (e instanceof LogicError) modal.warning({ title: t('system.role.deleteRefused'), content: e.message, okText: t('common.ok') });
          else if (e instanceof Error) message.error(e.message);
        }
      },
    });
}
