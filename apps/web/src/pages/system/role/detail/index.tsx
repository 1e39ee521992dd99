import { useState } from 'react';
import { Space, Tag, Typography } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Perm, RoleType, role, formatDateTime, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { DetailPage } from '../../../../components/DetailPage.tsx';
import { PermButton } from '../../../../components/PermButton.tsx';
import { roleNameOf } from '../permissionCodes.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { RoleDrawer } from '../RoleDrawer.tsx';
import { PermissionTreeView } from '../PermissionTree.tsx';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

/** /system/role/detail/:roleId: the role and the permissions it grants. */
export default function RoleDetail() {
  const { t, i18n } = useTranslation();
  const roleId = Number(useParams().roleId);
  const valid = Number.isInteger(roleId) && roleId > 0;
  const [editing, setEditing] = useState(false);
  const query = useQuery({
    queryKey: [role.getRoleDetail.name, roleId],
    queryFn: () => call(role.getRoleDetail, { roleId }, { silent: true }),
    enabled: valid,
  });
  const r = query.data;
  usePageTitle(r && roleNameOf(r, i18n.language));

  return (
    <>
      <DetailPage
        loading={valid && query.isLoading}
        error={!valid || query.error || (query.isSuccess && !r) ? true : undefined}
        title={r && <Space>{roleNameOf(r, i18n.language)}{r.builtIn && <Tag color="gold">{t('system.role.builtInTag')}</Tag>}</Space>}
        extra={
          r && (
            <PermButton perm={Perm.SystemRoleEdit} type="primary" icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="role-edit">
              {t('system.role.edit')}
            </PermButton>
          )
        }
        items={
          r
            ? [
                { label: t('system.role.roleCode'), value: <Typography.Text code>{r.roleCode}</Typography.Text> },
                { label: t('system.role.roleName'), value: roleNameOf(r, i18n.language) },
                { label: t('system.role.roleType'), value: <StatusTag enumOf={RoleType} value={r.roleType} /> },
                { label: t('system.role.builtIn'), value: r.builtIn ? t('common.yes') : t('common.no') },
                { label: t('system.role.accountCount'), value: r.accountCount },
                { label: withZoneLabel(t('common.createdAt')), value: formatDateTime(r.createdAt) },
                { label: withZoneLabel(t('common.updatedAt')), value: formatDateTime(r.updatedAt) },
                { label: t('system.role.description'), value: r.description || '-', span: 2 },
              ]
            : []
        }
      >
        {r && (
          <div className="lx-card">
            <Typography.Title level={5} style={{ marginTop: 0 }}>{t('system.role.permissions')}</Typography.Title>
            <PermissionTreeView codes={r.permissions} />
          </div>
        )}
      </DetailPage>
      <RoleDrawer open={editing} record={r ?? null} onClose={() => setEditing(false)} />
    </>
  );
}
