import { useState } from 'react';
import { Alert, Button, Dropdown, Space, Typography } from 'antd';
import { MoreOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Operator, Perm, STAFF_ROLE_TYPES, formatDateTime, pool, formatCount, withZoneLabel } from '@lynx/contract';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { useSession } from '../../../../stores/session.ts';
import { CustomerSelect } from '../../../home/customer/CustomerSelect.tsx';
import { PoolFormModal } from '../PoolFormModal.tsx';
import { POOL_STATE_COLORS, UsageBar, poolChangesPath, poolDetailPath, poolHistoryPath, usePoolActions, usePoolRefresh, type PoolRow } from '../shared.tsx';

const { PoolPerm, PoolState, PoolExhaustAction } = pool;

/** /card/pool/list/:salesOrder?: the pools of the caller's tenant with this cycle's quota and usage. */
export default function PoolList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const table = useSearchTable(pool.getPoolPage);
  const staff = useSession((s) => s.roleId !== null && STAFF_ROLE_TYPES.includes(s.roleId));
  const canCustomers = usePerm([Perm.HomeCustomer, Perm.BusinessCustomer]);
  const canManage = usePerm(PoolPerm.PoolManage);
  const refresh = usePoolRefresh();
  const [editing, setEditing] = useState<{ record: PoolRow | null } | null>(null);
  const actions = usePoolActions({ onOpenDetail: (p) => navigate(poolDetailPath(p.poolId)) });
  const F = (k: string) => t(`pool.f.${k}`);
  const A = (k: string) => t(`pool.action.${k}`);

  const fields: SearchField[] = [
    { name: 'name', label: F('name') },
    ...(staff && canCustomers ? [{ name: 'custId', label: F('customer'), type: 'custom' as const, control: <CustomerSelect allowClear placeholder={t('common.all')} /> }] : []),
    { name: 'operatorId', label: F('operator'), type: 'enum', enumOf: Operator },
    { name: 'state', label: F('state'), type: 'enum', enumOf: PoolState },
  ];

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 12px' }}>{t('pool.intro')}</Typography.Paragraph>
      {!canManage && <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('pool.readOnlyHint')} />}
      <SearchTable<PoolRow>
        table={table}
        title={t('pool.title')}
        rowKey="poolId"
        emptyHint={t('pool.emptyHint')}
        fields={fields}
        exportVia={pool.exportPools}
        toolbar={
          <>
          <Button onClick={() => navigate(poolChangesPath())} data-testid="pool-changes">{t('pool.change.all')}</Button>
          <PermButton perm={PoolPerm.PoolManage} type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ record: null })} data-testid="pool-add">
            {t('pool.add')}
          </PermButton>
          </>
        }
        columns={[
          { title: F('name'), dataIndex: 'name', sorter: true, width: 180, ellipsis: true, render: (v: string, r) => <Link to={poolDetailPath(r.poolId)}>{v}</Link> },
          ...(staff || canCustomers ? [{ title: F('customer'), dataIndex: 'custName', width: 170, ellipsis: true, render: (v: string | null) => v ?? '-' }] : []),
          { title: F('operator'), dataIndex: 'operatorId', width: 120, render: (v: number) => <span style={{ whiteSpace: 'nowrap' }}>{Operator.label(v, lang)}</span> },
          { title: F('members'), dataIndex: 'memberCount', sorter: true, width: 100, align: 'right', render: (v: number) => formatCount(v) },
          { title: F('usage'), key: 'usage', width: 210, render: (_: unknown, r) => <UsageBar p={r} /> },
          { title: F('state'), dataIndex: 'state', width: 100, render: (v: number) => <StatusTag enumOf={PoolState} value={v} colors={POOL_STATE_COLORS} /> },
          { title: F('exhaustAction'), dataIndex: 'exhaustAction', width: 200, ellipsis: true, render: (v: number) => PoolExhaustAction.label(v, lang) },
          { title: withZoneLabel(F('checkedAt')), dataIndex: 'usageCheckedAt', width: 165, render: (v: string | null) => (v ? formatDateTime(v) : '-') },
          {
            title: t('common.actions'), key: 'actions', fixed: 'right', width: canManage ? 200 : 170,
            render: (_: unknown, r) => (
              <Space size={0}>
                {canManage && <Button type="link" size="small" onClick={() => setEditing({ record: r })} data-testid={`pool-edit-${r.poolId}`}>{A('edit')}</Button>}
                {canManage && (
                  <Button type="link" size="small" danger={r.state !== PoolState.Blocked} onClick={() => actions.toggleBlock(r)} data-testid={`pool-block-${r.poolId}`}>
                    {r.state === PoolState.Blocked ? A('unblock') : A('block')}
                  </Button>
                )}
                {!canManage && <Button type="link" size="small" onClick={() => navigate(poolDetailPath(r.poolId))}>{A('detail')}</Button>}
                <Dropdown
                  menu={{
                    items: [
                      { key: 'history', label: A('history') },
                      { key: 'changes', label: A('changes') },
                      ...(canManage ? [{ type: 'divider' as const }, { key: 'delete', label: A('delete'), danger: true }] : []),
                    ],
                    onClick: ({ key }) => {
                      if (key === 'history') navigate(poolHistoryPath(r.poolId));
                      else if (key === 'changes') navigate(poolChangesPath(r.poolId));
                      else if (key === 'delete') actions.remove(r);
                    },
                  }}
                >
                  <Button type="link" size="small" icon={<MoreOutlined />} aria-label={A('more')} data-testid={`pool-more-${r.poolId}`} />
                </Dropdown>
              </Space>
            ),
          },
        ]}
      />
      <PoolFormModal open={!!editing} record={editing?.record ?? null} onClose={() => setEditing(null)} onSaved={() => refresh()} />
    </>
  );
}
