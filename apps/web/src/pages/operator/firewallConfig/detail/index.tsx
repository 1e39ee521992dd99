import { Button, Space, Tag, Typography } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { FirewallAction, FirewallDirection, FirewallPolicyStatus, FirewallProtocol, formatDateTime, netconfig, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { DetailPage } from '../../../../components/DetailPage.tsx';
import { PermButton } from '../../../../components/PermButton.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { useOperatorNames, useOperators } from '../../shared.tsx';
import { ACTION_COLORS, FIREWALL_LIST_PATH, P, POLICY_STATUS_COLORS, type PolicyRow } from '../shared.tsx';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

const addressTags = (xs: PolicyRow['sourceAddresses']) => (
  <Space size={[4, 4]} wrap>
    {xs.map((x) => <Tag key={x.addressId}>{x.addressName} <Typography.Text code>{x.address}</Typography.Text></Tag>)}
  </Space>
);

/** /operator/firewallConfig/detail/:policyId */
export default function FirewallDetail() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const policyId = Number(useParams().policyId);
  const valid = Number.isInteger(policyId) && policyId > 0;
  const names = useOperatorNames(useOperators().data, lang);
  const query = useQuery({
    queryKey: [netconfig.getFirewallPolicyDetail.name, policyId],
    queryFn: () => call(netconfig.getFirewallPolicyDetail, { policyId }, { silent: true }),
    enabled: valid,
  });
  const r = query.data;
  usePageTitle(r?.policyName);
  return (
    <DetailPage
      loading={valid && query.isLoading}
      error={!valid || query.error || (query.isSuccess && !r) ? true : undefined}
      title={r && t('netconfig.firewall.detailTitle', { name: r.policyName })}
      extra={
        <Space>
          <Button onClick={() => navigate(FIREWALL_LIST_PATH)}>{t('common.back')}</Button>
          {r && (
            <PermButton perm={P.FirewallEdit} type="primary" icon={<EditOutlined />} onClick={() => navigate(`/operator/firewallConfig/edit/${r.policyId}`)}>
              {t('common.edit')}
            </PermButton>
          )}
        </Space>
      }
      items={
        r
          ? [
              { label: t('netconfig.firewall.policyName'), value: r.policyName },
              { label: t('netconfig.firewall.operator'), value: names.get(r.operatorId) ?? r.operatorId },
              { label: t('netconfig.firewall.direction'), value: FirewallDirection.label(r.direction, lang) },
              { label: t('netconfig.firewall.action'), value: <StatusTag enumOf={FirewallAction} value={r.action} colors={ACTION_COLORS} /> },
              { label: t('netconfig.firewall.protocol'), value: FirewallProtocol.label(r.protocol, lang) },
              { label: t('netconfig.firewall.ports'), value: r.ports ? <Typography.Text code>{r.ports}</Typography.Text> : t('netconfig.firewall.portsAll') },
              { label: t('netconfig.firewall.priority'), value: r.priority },
              { label: t('netconfig.firewall.status'), value: <StatusTag enumOf={FirewallPolicyStatus} value={r.status} colors={POLICY_STATUS_COLORS} /> },
              { label: t('netconfig.firewall.createdBy'), value: r.createdBy },
              { label: t('netconfig.firewall.sourceAddresses'), value: addressTags(r.sourceAddresses) },
              { label: t('netconfig.firewall.targetAddresses'), value: addressTags(r.targetAddresses) },
              { label: withZoneLabel(t('common.createdAt')), value: formatDateTime(r.createdAt) },
              { label: withZoneLabel(t('common.updatedAt')), value: formatDateTime(r.updatedAt) },
              { label: t('netconfig.firewall.description'), value: r.description || '-' },
            ]
          : []
      }
    />
  );
}
