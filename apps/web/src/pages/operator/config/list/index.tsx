import { Button, Popconfirm, Space, Typography } from 'antd';
import { ApiOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { GATEWAY_ADAPTERS, formatDateTime, opconfig, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { operatorName, useOperatorNames, useOperators } from '../../shared.tsx';
import { LastTest, PERM, SecretMask, adapterLabel, useLang, useTestConnection, type AccessRow } from '../shared.tsx';

/** /operator/config/list: access configuration per operator account; credentials only ever masked. */
export default function AccessList() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const table = useSearchTable(opconfig.getOperatorAccountPage);
  const operators = useOperators();
  const names = useOperatorNames(operators.data, lang);
  const canEdit = usePerm(PERM.accessEdit);
  const canDelete = usePerm(PERM.accessDelete);
  const canTest = usePerm(PERM.accessTest);
  const refresh = () => void qc.invalidateQueries({ queryKey: [opconfig.getOperatorAccountPage.name] });
  const test = useTestConnection(refresh);

  const remove = async (r: AccessRow) => {
    try {
      await call(opconfig.deleteOperatorAccount, { operAccountId: r.operAccountId });
      refresh();
      void qc.invalidateQueries({ queryKey: [opconfig.getOperatorAccountOptions.name] });
    } catch {
      /* shown by the request layer */
    }
  };

  return (
    <SearchTable<AccessRow>
      table={table}
      title={t('opconfig.access.title')}
      rowKey="operAccountId"
      exportSource={opconfig.getOperatorAccountPage}
      emptyHint={t('opconfig.access.emptyHint')}
      toolbar={
        <PermButton perm={PERM.accessAdd} type="primary" icon={<PlusOutlined />} onClick={() => void navigate('/operator/config/add')} data-testid="access-add">
          {t('opconfig.access.add')}
        </PermButton>
      }
      fields={[
        { name: 'accountName', label: t('opconfig.access.accountName') },
        { name: 'operatorId', label: t('opconfig.operator'), type: 'select', options: (operators.data ?? []).map((o) => ({ value: o.operatorId, label: operatorName(o, lang) })) },
        { name: 'adapter', label: t('opconfig.access.adapter'), type: 'select', options: GATEWAY_ADAPTERS.map((a) => ({ value: a.code, label: a[lang] })) },
      ]}
      columns={[
        {
          title: t('opconfig.access.accountName'), dataIndex: 'accountName', sorter: true, width: 180,
          render: (v: string, r) => <Typography.Link onClick={() => void navigate(`/operator/config/detail/${r.operAccountId}`)}>{v}</Typography.Link>,
        },
        { title: t('opconfig.operator'), dataIndex: 'operatorId', width: 110, render: (v: number) => names.get(v) ?? v },
        { title: t('opconfig.access.endpointUrl'), dataIndex: 'endpointUrl', width: 260, ellipsis: true },
        { title: t('opconfig.access.apiVersion'), dataIndex: 'apiVersion', width: 90 },
        { title: t('opconfig.access.adapter'), dataIndex: 'adapter', width: 170, render: (v: string) => adapterLabel(v, lang) },
        { title: t('opconfig.access.appKey'), key: 'appKey', width: 130, render: (_: unknown, r) => <SecretMask secret={r.credentials.appKey} /> },
        { title: t('opconfig.access.lastTest'), key: 'lastTest', width: 170, render: (_: unknown, r) => <LastTest row={r} /> },
        { title: t('opconfig.access.commPlanCount'), dataIndex: 'commPlanCount', width: 110 },
        { title: withZoneLabel(t('common.updatedAt')), dataIndex: 'updatedAt', sorter: true, width: 170, render: (v: string) => formatDateTime(v) },
        {
          title: t('common.actions'), key: 'actions', fixed: 'right', width: 220,
          render: (_: unknown, r) => (
            <Space size={0} wrap>
              {canTest && (
                <Button type="link" size="small" icon={<ApiOutlined />} loading={test.testing === r.operAccountId} onClick={() => void test.run(r.operAccountId)}>
                  {t('opconfig.access.test')}
                </Button>
              )}
              {canEdit && <Button type="link" size="small" onClick={() => void navigate(`/operator/config/edit/${r.operAccountId}`)}>{t('common.edit')}</Button>}
              {canDelete && (
                <Popconfirm title={t('opconfig.access.deleteConfirm', { name: r.accountName })} onConfirm={() => remove(r)} okText={t('common.ok')} cancelText={t('common.cancel')}>
                  <Button type="link" size="small" danger>{t('common.delete')}</Button>
                </Popconfirm>
              )}
            </Space>
          ),
        },
      ]}
    />
  );
}
