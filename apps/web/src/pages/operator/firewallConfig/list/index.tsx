import { App, Button, Popconfirm, Space, Tooltip, Typography } from 'antd';
import { LiveText } from '../../../../request/LiveText.tsx';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FirewallAction, FirewallDirection, FirewallPolicyStatus, FirewallProtocol, formatDateTime, netconfig, withZoneLabel } from '@lynx/contract';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { call } from '../../../../request/http.ts';
import { operatorName, useOperatorNames, useOperators } from '../../shared.tsx';
import { ACTION_COLORS, P, POLICY_STATUS_COLORS, type PolicyRow } from '../shared.tsx';

const addressList = (xs: PolicyRow['sourceAddresses']) =>
  xs.length ? (
    <Tooltip title={xs.map((x) => `${x.addressName} (${x.address})`).join('\n')}>
      <Typography.Text ellipsis style={{ maxWidth: 220 }}>{xs.map((x) => x.addressName).join(', ')}</Typography.Text>
    </Tooltip>
  ) : '-';

/** /operator/firewallConfig/list: firewall policies; the two address books are reached from the toolbar. */
export default function FirewallList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const table = useSearchTable(netconfig.getFirewallPolicyPage);
  const operators = useOperators();
  const names = useOperatorNames(operators.data, lang);
  const canEdit = usePerm(P.FirewallEdit);
  const canDelete = usePerm(P.FirewallDelete);
  const canExport = usePerm(P.FirewallExport);

  const remove = async (r: PolicyRow) => {
    try {
      await call(netconfig.deleteFirewallPolicy, { policyId: r.policyId });
      message.success(<LiveText k="common.operationSuccess" />);
      void qc.invalidateQueries({ queryKey: [netconfig.getFirewallPolicyPage.name] });
      void qc.invalidateQueries({ queryKey: [netconfig.getFirewallAddressPage.name] }); // policy counts
    } catch {
      /* shown by the request layer */
    }
  };

  return (
    <SearchTable<PolicyRow>
      table={table}
      title={t('netconfig.firewall.title')}
      rowKey="policyId"
      exportSource={canExport ? netconfig.getFirewallPolicyPage : undefined}
      emptyHint={t('netconfig.firewall.emptyHint')}
      toolbar={
        <>
          <Button onClick={() => navigate('/operator/firewallConfig/sourceAddress')} data-testid="fw-source-book">{t('netconfig.firewall.sourceBook')}</Button>
          <Button onClick={() => navigate('/operator/firewallConfig/targetAddress')} data-testid="fw-target-book">{t('netconfig.firewall.targetBook')}</Button>
          <PermButton perm={P.FirewallAdd} type="primary" icon={<PlusOutlined />} onClick={() => navigate('/operator/firewallConfig/add')} data-testid="fw-add">
            {t('netconfig.firewall.add')}
          </PermButton>
        </>
      }
      fields={[
        { name: 'policyName', label: t('netconfig.firewall.policyName') },
        {
          name: 'operatorId', label: t('netconfig.firewall.operator'), type: 'select',
          options: (operators.data ?? []).map((o) => ({ value: o.operatorId, label: operatorName(o, lang) })),
        },
        { name: 'action', label: t('netconfig.firewall.action'), type: 'enum', enumOf: FirewallAction },
        { name: 'protocol', label: t('netconfig.firewall.protocol'), type: 'enum', enumOf: FirewallProtocol },
        { name: 'status', label: t('netconfig.firewall.status'), type: 'enum', enumOf: FirewallPolicyStatus },
      ]}
      columns={[
        {
          title: t('netconfig.firewall.policyName'), dataIndex: 'policyName', sorter: true, width: 200, fixed: 'left',
          render: (v: string, r) => <a onClick={() => navigate(`/operator/firewallConfig/detail/${r.policyId}`)}>{v}</a>,
        },
        { title: t('netconfig.firewall.operator'), dataIndex: 'operatorId', width: 120, render: (v: number) => names.get(v) ?? v },
        { title: t('netconfig.firewall.direction'), dataIndex: 'direction', width: 180, render: (v: number) => FirewallDirection.label(v, lang) },
        { title: t('netconfig.firewall.action'), dataIndex: 'action', width: 90, render: (v: number) => <StatusTag enumOf={FirewallAction} value={v} colors={ACTION_COLORS} /> },
        { title: t('netconfig.firewall.protocol'), dataIndex: 'protocol', width: 90, render: (v: number) => FirewallProtocol.label(v, lang) },
        { title: t('netconfig.firewall.sourceAddresses'), dataIndex: 'sourceAddresses', width: 220, render: addressList },
        { title: t('netconfig.firewall.targetAddresses'), dataIndex: 'targetAddresses', width: 220, render: addressList },
        { title: t('netconfig.firewall.ports'), dataIndex: 'ports', width: 160, render: (v: string | null) => (v ? <Typography.Text code>{v}</Typography.Text> : t('netconfig.firewall.portsAll')) },
        { title: t('netconfig.firewall.priority'), dataIndex: 'priority', sorter: true, width: 100 },
        { title: t('netconfig.firewall.status'), dataIndex: 'status', width: 90, render: (v: number) => <StatusTag enumOf={FirewallPolicyStatus} value={v} colors={POLICY_STATUS_COLORS} /> },
        { title: withZoneLabel(t('netconfig.firewall.updatedAt')), dataIndex: 'updatedAt', sorter: true, width: 170, render: (v: string) => formatDateTime(v) },
        {
          title: t('common.actions'), key: 'actions', fixed: 'right', width: 180,
          render: (_: unknown, r) => (
            <Space size={0}>
              <Button type="link" size="small" onClick={() => navigate(`/operator/firewallConfig/detail/${r.policyId}`)}>{t('common.detail')}</Button>
              {canEdit && <Button type="link" size="small" onClick={() => navigate(`/operator/firewallConfig/edit/${r.policyId}`)}>{t('common.edit')}</Button>}
              {canDelete && (
                <Popconfirm title={t('netconfig.firewall.deleteConfirm', { name: r.policyName })} onConfirm={() => remove(r)} okText={t('common.ok')} cancelText={t('common.cancel')}>
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
