import { useState } from 'react';
import { Button, Popconfirm, Space, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CommPlanStatus, CommServiceKind, formatDateTime, opconfig, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { operatorName, useOperatorNames, useOperators } from '../../shared.tsx';
import { PERM, useAccountOptions, useLang } from '../../config/shared.tsx';
import { CommPlanModal, type CommPlanRow } from './CommPlanModal.tsx';

const STATUS_COLORS = { [CommPlanStatus.Enabled]: 'success', [CommPlanStatus.Disabled]: 'default' };

/** /operator/comm/list: the operator-side communication plans; add, edit, delete, export. */
export default function CommPlanList() {
  const { t } = useTranslation();
  const lang = useLang();
  const qc = useQueryClient();
  const table = useSearchTable(opconfig.getCommPlanPage);
  const operators = useOperators();
  const names = useOperatorNames(operators.data, lang);
  const accounts = useAccountOptions();
  const canSave = usePerm(PERM.commSave);
  const canDelete = usePerm(PERM.commDelete);
  const [editing, setEditing] = useState<{ record: CommPlanRow | null } | null>(null);
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: [opconfig.getCommPlanPage.name] });
    void qc.invalidateQueries({ queryKey: [opconfig.getOperatorAccountPage.name] }); // plan counts
  };
  const remove = async (r: CommPlanRow) => {
    try {
      await call(opconfig.deleteCommPlan, { commPlanId: r.commPlanId });
      refresh();
    } catch {
      /* shown by the request layer */
    }
  };

  return (
    <>
      <SearchTable<CommPlanRow>
        table={table}
        title={t('opconfig.comm.title')}
        rowKey="commPlanId"
        exportSource={opconfig.getCommPlanPage}
        emptyHint={t('opconfig.comm.emptyHint')}
        toolbar={
          <PermButton perm={PERM.commSave} type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ record: null })} data-testid="comm-add">
            {t('opconfig.comm.add')}
          </PermButton>
        }
        fields={[
          { name: 'planName', label: t('opconfig.comm.planName') },
          { name: 'operatorId', label: t('opconfig.operator'), type: 'select', options: (operators.data ?? []).map((o) => ({ value: o.operatorId, label: operatorName(o, lang) })) },
          { name: 'operAccountId', label: t('opconfig.comm.operAccount'), type: 'select', options: (accounts.data ?? []).map((a) => ({ value: a.operAccountId, label: a.accountName })) },
          { name: 'status', label: t('opconfig.comm.status'), type: 'enum', enumOf: CommPlanStatus },
        ]}
        columns={[
          { title: t('opconfig.comm.planName'), dataIndex: 'planName', sorter: true, width: 180 },
          { title: t('opconfig.operator'), dataIndex: 'operatorId', width: 110, render: (v: number) => names.get(v) ?? v },
          { title: t('opconfig.comm.operAccount'), dataIndex: 'operAccountName', width: 160 },
          { title: t('opconfig.comm.apns'), dataIndex: 'apnNames', width: 220, render: (v: string[]) => v.map((n) => <Tag key={n}>{n}</Tag>) },
          { title: t('opconfig.comm.serviceKinds'), dataIndex: 'serviceKinds', width: 170, render: (v: number[]) => v.map((k) => <Tag key={k} color="blue">{CommServiceKind.label(k, lang)}</Tag>) },
          { title: t('opconfig.comm.roaming'), dataIndex: 'roaming', width: 100, render: (v: boolean) => (v ? t('common.yes') : t('common.no')) },
          { title: t('opconfig.comm.status'), dataIndex: 'status', width: 90, render: (v: number) => <StatusTag enumOf={CommPlanStatus} value={v} colors={STATUS_COLORS} /> },
          { title: t('opconfig.comm.description'), dataIndex: 'description', width: 200, ellipsis: true, render: (v: string | null) => v || '-' },
          { title: withZoneLabel(t('common.updatedAt')), dataIndex: 'updatedAt', sorter: true, width: 170, render: (v: string) => formatDateTime(v) },
          ...(canSave || canDelete
            ? [{
                title: t('common.actions'), key: 'actions', fixed: 'right' as const, width: 140,
                render: (_: unknown, r: CommPlanRow) => (
                  <Space size={0}>
                    {canSave && <Button type="link" size="small" onClick={() => setEditing({ record: r })}>{t('common.edit')}</Button>}
                    {canDelete && (
                      <Popconfirm title={t('opconfig.comm.deleteConfirm', { name: r.planName })} okText={t('common.ok')} cancelText={t('common.cancel')} onConfirm={() => remove(r)}>
                        <Button type="link" size="small" danger>{t('common.delete')}</Button>
                      </Popconfirm>
                    )}
                  </Space>
                ),
              }]
            : []),
        ]}
      />
      <CommPlanModal open={!!editing} record={editing?.record ?? null} operators={operators.data ?? []} onClose={() => setEditing(null)} onSaved={refresh} />
    </>
  );
}
