import { useState } from 'react';
import { Button, Space, Tag, Tooltip, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Perm, RoleType, role, formatDateTime, withZoneLabel } from '@lynx/contract';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { roleNameOf } from '../permissionCodes.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { RoleDrawer, type RoleRecord } from '../RoleDrawer.tsx';
import { useRoleDelete } from '../useRoleDelete.tsx';

/** /system/role/list: roles with their permission trees; built-in roles cannot be deleted (spec §6). */
export default function RoleList() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const table = useSearchTable(role.getRoleListPage);
  const canEdit = usePerm(Perm.SystemRoleEdit);
  const canDelete = usePerm(Perm.SystemRoleDelete);
  const remove = useRoleDelete();
  const [drawer, setDrawer] = useState<{ open: boolean; record: RoleRecord | null }>({ open: false, record: null });

  return (
    <>
      <SearchTable<RoleRecord>
        table={table}
        title={t('system.role.title')}
        exportSource={role.getRoleListPage}
        rowKey="roleId"
        scrollX={1115}
        emptyHint={t('system.role.emptyHint')}
        toolbar={
          <PermButton perm={Perm.SystemRoleAdd} type="primary" icon={<PlusOutlined />} onClick={() => setDrawer({ open: true, record: null })} data-testid="role-add">
            {t('system.role.add')}
          </PermButton>
        }
        fields={[
          { name: 'roleName', label: t('system.role.roleName') },
          { name: 'roleType', label: t('system.role.roleType'), type: 'enum', enumOf: RoleType },
        ]}
        columns={[
          // a long code without spaces is cut with … and shown whole on hover, never broken across lines
          { title: t('system.role.roleCode'), dataIndex: 'roleCode', width: 140, ellipsis: true, render: (v: string) => <Typography.Text code title={v}>{v}</Typography.Text> },
          {
            title: t('system.role.roleName'), dataIndex: 'roleName', width: 160,
            render: (_v: string, r) => <a onClick={() => navigate(`/system/role/detail/${r.roleId}`)} title={t('system.role.openDetail')}>{roleNameOf(r, i18n.language)}</a>,
          },
          { title: t('system.role.roleType'), dataIndex: 'roleType', width: 150, render: (v: number) => <StatusTag enumOf={RoleType} value={v} /> },
          {
            title: t('system.role.builtIn'), dataIndex: 'builtIn', width: 90,
            render: (v: boolean) => (v ? <Tag color="gold">{t('system.role.builtInTag')}</Tag> : <Tag>{t('system.role.customTag')}</Tag>),
          },
          { title: t('system.role.accountCount'), dataIndex: 'accountCount', width: 90, align: 'right' },
          { title: t('system.role.description'), dataIndex: 'description', ellipsis: true, width: 200, render: (v: string | null) => v || '-' },
          { title: withZoneLabel(t('common.updatedAt')), dataIndex: 'updatedAt', width: 165, render: (v: string) => formatDateTime(v) },
          {
            title: t('common.actions'), key: 'actions', fixed: 'right', width: 120,
            render: (_: unknown, r) => (
              <Space size={0}>
                {canEdit && <Button type="link" size="small" onClick={() => setDrawer({ open: true, record: r })}>{t('common.edit')}</Button>}
                {canDelete && (
                  <Tooltip title={r.builtIn ? t('system.role.builtInNoDelete') : undefined}>
                    <Button type="link" size="small" danger disabled={r.builtIn} onClick={() => remove(r)}>{t('common.delete')}</Button>
                  </Tooltip>
                )}
              </Space>
            ),
          },
        ]}
      />
      <RoleDrawer open={drawer.open} record={drawer.record} onClose={() => setDrawer((d) => ({ ...d, open: false }))} />
    </>
  );
}
