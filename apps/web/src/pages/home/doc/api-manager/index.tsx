import { useState } from 'react';
import { Tabs, Typography } from 'antd';
import { ApiOutlined, BarChartOutlined, KeyOutlined, NotificationOutlined, SafetyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ApiReference } from './ApiReference.tsx';
import { ApiKeyPanel } from './ApiKeyPanel.tsx';
import { IpWhitelist } from './IpWhitelist.tsx';
import { CustomerScope } from './CustomerScope.tsx';
import { Subscription } from './Subscription.tsx';
import { ApiUsage } from './ApiUsage.tsx';
import { withLocaleArea } from '../../../../components/LocaleArea.tsx';

/**
 * /home/doc/api-manager (permission 1000001): the live API reference, the customer's API key and
 * configuration, its IP whitelist, its ability subscription and its API usage per key and day. Staff choose the
 * customer once for all customer tabs.
 */
function ApiManagerPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState('reference');
  const [custId, setCustId] = useState<number | undefined>(undefined);
  return (
    <div className="lx-card lx-doc">
      <Typography.Title level={3} style={{ marginTop: 0 }}>{t('doc.api.title')}</Typography.Title>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'reference', label: t('doc.api.tabs.reference'), icon: <ApiOutlined />, children: <ApiReference /> },
          {
            key: 'key',
            label: t('doc.api.tabs.key'),
            icon: <KeyOutlined />,
            children: <CustomerScope custId={custId} onChange={setCustId}>{(id) => <ApiKeyPanel key={id ?? 'self'} custId={id} />}</CustomerScope>,
          },
          {
            key: 'whitelist',
            label: t('doc.api.tabs.whitelist'),
            icon: <SafetyOutlined />,
            children: <CustomerScope custId={custId} onChange={setCustId}>{(id) => <IpWhitelist key={id ?? 'self'} custId={id} />}</CustomerScope>,
          },
          {
            key: 'subscribe',
            label: t('doc.api.tabs.subscribe'),
            icon: <NotificationOutlined />,
            children: <CustomerScope custId={custId} onChange={setCustId}>{(id) => <Subscription key={id ?? 'self'} custId={id} />}</CustomerScope>,
          },
          {
            key: 'usage',
            label: t('doc.api.tabs.usage'),
            icon: <BarChartOutlined />,
            children: <CustomerScope custId={custId} onChange={setCustId}>{(id) => <ApiUsage key={id ?? 'self'} custId={id} />}</CustomerScope>,
          },
        ]}
      />
    </div>
  );
}

export default withLocaleArea('doc', ApiManagerPage);
