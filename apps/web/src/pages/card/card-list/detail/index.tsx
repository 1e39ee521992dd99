import { Button, Result, Skeleton, Space, Tabs, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useNavigate, useParams } from 'react-router';
import { CardState, carddetail } from '@lynx/contract';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { STATE_COLORS } from '../list/index.tsx';
import { BasicTab, BillingTab, HistoryTab, PlanTab, PolicyTab, useCardQuery, useLang } from './sections.tsx';
import { SmsTab, UsageTab } from './usage.tsx';
import { CardActions } from './actions.tsx';
import { CardOverview } from './overview.tsx';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

/**
 * /card/card-list/detail/:iccid/:channelCustId?: one card's overview (state, plan, usage against quota, online,
 * operator, customer, pool, daily usage), then its basic info, lifecycle and history, plan and cycles, usage and
 * sessions, communication policy with APN online status, SMS and billing, with the actions its state allows now
 * (disabled with the reason otherwise) among those the user's button codes allow. A card outside the user's tenant
 * answers like a missing one.
 */
export default function CardDetailPage() {
  const { t } = useLang();
  const navigate = useNavigate();
  const { iccid = '' } = useParams();
  const q = useCardQuery(carddetail.getCardDetail, iccid);
  usePageTitle(q.data ? iccid : null);
  if (q.isLoading) return <div className="lx-card"><Skeleton active /></div>;
  if (q.error || !q.data) {
    return (
      <div className="lx-card">
        <Result status="404" subTitle={t('common.notFound')} extra={<Button onClick={() => navigate('/card/card-list/list')}>{t('carddetail.back')}</Button>} />
      </div>
    );
  }
  const d = q.data;
  return (
    <div className="lx-card" data-testid="card-detail">
      <div style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap', marginBottom: 12 }}>
        <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => navigate('/card/card-list/list')} aria-label={t('carddetail.back')} />
        <Space size={8} wrap>
          <Typography.Title level={4} style={{ margin: 0 }} copyable={{ text: d.iccid }}>{d.iccid}</Typography.Title>
          <StatusTag enumOf={CardState} value={d.state} colors={STATE_COLORS} />
          {d.custName && <Typography.Text type="secondary">{d.custName}</Typography.Text>}
        </Space>
      </div>
      <div style={{ marginBottom: 16 }}><CardActions d={d} /></div>
      <CardOverview d={d} />
      <Tabs
        destroyOnHidden
        items={[
          { key: 'basic', label: t('carddetail.tabs.basic'), children: <BasicTab d={d} /> },
          { key: 'history', label: t('carddetail.tabs.history'), children: <HistoryTab iccid={iccid} /> },
          { key: 'plan', label: t('carddetail.tabs.plan'), children: <PlanTab iccid={iccid} /> },
          { key: 'usage', label: t('carddetail.tabs.usage'), children: <UsageTab iccid={iccid} /> },
          { key: 'policy', label: t('carddetail.tabs.policy'), children: <PolicyTab iccid={iccid} /> },
          { key: 'sms', label: t('carddetail.tabs.sms'), children: <SmsTab iccid={iccid} /> },
          { key: 'billing', label: t('carddetail.tabs.billing'), children: <BillingTab iccid={iccid} /> },
        ]}
      />
    </div>
  );
}
