import type { KeyboardEvent, ReactNode } from 'react';
import { Card, Col, List, Row, Skeleton, Space, Statistic, Tag, Tooltip, Typography } from 'antd';
import {
  AlertOutlined, CheckCircleOutlined, ExclamationCircleOutlined, SafetyCertificateOutlined, ThunderboltOutlined, WarningOutlined, WifiOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CardChangeType, CardState, Perm, batch, formatDateTime, formatSize, home, type Lang, type ResponseOf } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { usePerm } from '../../../components/PermButton.tsx';
import { cardListLink, type DeepLinkKey } from '../../card/card-list/list/deepLink.ts';
import { Panel } from './Panel.tsx';

type Health = ResponseOf<typeof home.getFleetHealth>;
type Alert = Health['alerts']['list'][number];
type Filters = Partial<Record<DeepLinkKey, unknown>>;

const { HomeAlertKind } = home;
const RED = '#cf1322';
const ORANGE = '#d46b08';

/** The card list filter each number of the fleet health opens (the server counts with the same filters). */
export function healthLinks(h: Pick<Health, 'since'>): Record<string, Filters> {
  return {
    active: { states: [CardState.Activated] },
    online: { online: true },
    near: { quotaLevel: 'near' },
    over: { quotaLevel: 'over' },
    alerts: { alertsFrom: h.since },
    batchFailures: { batchFailedFrom: h.since },
  };
}

/** The cards an alert is about: a pool's cards, or the one card. */
export const alertLink = (a: Alert): Filters => (a.poolId != null ? { poolId: a.poolId } : { iccid: a.iccid ?? undefined });

const onEnter = (go?: () => void) => (e: KeyboardEvent) => {
  if (go && (e.key === 'Enter' || e.key === ' ')) {
    e.preventDefault();
    go();
  }
};

function Metric({ testId, title, value, loading, hint, color, icon, go }: {
  testId: string; title: string; value: number | undefined; loading: boolean; hint?: ReactNode; color?: string; icon: ReactNode; go?: () => void;
}) {
  return (
    <Card size="small" hoverable={!!go} onClick={go} onKeyDown={onEnter(go)} role={go ? 'link' : undefined} tabIndex={go ? 0 : undefined}
      data-testid={testId} style={{ height: '100%' }} aria-label={go ? `${title}: ${value ?? ''}` : undefined}>
      <Statistic title={<Space size={6}>{icon}{title}</Space>} value={value ?? '-'} loading={loading}
        styles={{ content: color && value ? { color } : undefined }} />
      {hint && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{hint}</Typography.Text>}
    </Card>
  );
}

/** An empty list in a line or two: nothing wrong is good news, not a big empty box. */
function Quiet({ title, hint }: { title: string; hint: string }) {
  return (
    <div style={{ textAlign: 'left', padding: '8px 0' }}>
      <Typography.Text><CheckCircleOutlined style={{ color: '#389e0d' }} /> {title}</Typography.Text>
      <br />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>{hint}</Typography.Text>
    </div>
  );
}

/** What an alert says, in the viewer's language (sizes scaled, the operator's change by its name). */
function alertText(a: Alert, lang: Lang, t: (k: string, o?: Record<string, unknown>) => string): string {
  const subject = a.poolName ?? a.iccid ?? '';
  if (a.kind === HomeAlertKind.OperatorRefused) return t('home.index.health.alertRefused', { subject, change: CardChangeType.label(a.changeType, lang) });
  if (a.usedBytes != null && a.quotaBytes != null) {
    return t('home.index.health.alertUsage', { subject, used: formatSize(a.usedBytes), quota: formatSize(a.quotaBytes) });
  }
  return subject;
}

/**
 * The overview's first section (issue 12): fleet health of the viewer's tenant. Every number opens the card list with
 * the filter it counted (healthLinks); the recent alerts and failed batches open the cards they are about.
 */
export function FleetHealth() {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const canCards = usePerm(Perm.CardList);
  const q = useQuery({
    queryKey: [home.getFleetHealth.name],
    queryFn: ({ signal }) => call(home.getFleetHealth, {}, { signal, silent: true }),
  });
  const h = q.data ?? undefined;
  const L = (k: string, o?: Record<string, unknown>) => t(`home.index.health.${k}`, o);
  const go = (filters: Filters | undefined) => (canCards && filters ? () => navigate(cardListLink(filters)) : undefined);
  const links = h ? healthLinks(h) : undefined;
  const counted = h?.quotaCountedAt ? L('countedAt', { time: formatDateTime(h.quotaCountedAt).slice(5, 16) }) : L('quotaNow');
  const scope = h ? home.FleetScope.label(h.scope, lang) : '';

  const metric = (key: string, title: string, value: number | undefined, icon: ReactNode, hint?: ReactNode, color?: string) => (
    <Col xs={12} md={8} xl={4} key={key}>
      <Metric testId={`health-${key}`} title={title} value={value} loading={q.isLoading} hint={hint} color={color} icon={icon} go={go(links?.[key])} />
    </Col>
  );

  return (
    <section data-testid="home-health" aria-label={L('title')} style={{ marginBottom: 12 }}>
      <div style={{ display: 'flex', alignItems: 'baseline', gap: 8, margin: '4px 0 12px', flexWrap: 'wrap' }}>
        <Typography.Title level={5} style={{ margin: 0 }}><SafetyCertificateOutlined /> {L('title')}</Typography.Title>
        {h && <Typography.Text type="secondary">{scope}</Typography.Text>}
        {q.isError && <Typography.Text type="danger">{L('loadError')}</Typography.Text>}
      </div>
      <Row gutter={[12, 12]} style={{ marginBottom: 12 }}>
        {metric('active', L('active'), h?.activeCards, <CheckCircleOutlined style={{ color: '#389e0d' }} />)}
        {metric('online', L('online'), h?.onlineNow, <WifiOutlined style={{ color: '#1668dc' }} />,
          h && h.activeCards > 0 ? L('onlineShare', { pct: Math.round((h.onlineNow / h.activeCards) * 100) }) : undefined)}
        {metric('near', L('near'), h?.nearQuota, <WarningOutlined style={{ color: ORANGE }} />, counted, ORANGE)}
        {metric('over', L('over'), h?.overQuota, <ExclamationCircleOutlined style={{ color: RED }} />, counted, RED)}
        {metric('alerts', L('alertCards'), h?.alerts.cards, <AlertOutlined style={{ color: ORANGE }} />,
          h ? L('alertEvents', { count: h.alerts.events }) : undefined, ORANGE)}
        {metric('batchFailures', L('failedCards'), h?.batchFailures.cards, <ThunderboltOutlined style={{ color: RED }} />,
          h ? L('failedBatches', { count: h.batchFailures.batches }) : undefined, RED)}
      </Row>
      <Row gutter={[12, 12]}>
        <Col xs={24} xl={12}>
          <Panel flush testId="health-alert-list" title={L('recentAlerts')} extra={h && <Typography.Text type="secondary">{L('since', { day: h.since })}</Typography.Text>}>
            {q.isLoading ? <Skeleton active paragraph={{ rows: 3 }} /> : (
              <List<Alert>
                size="small"
                dataSource={h?.alerts.list ?? []}
                locale={{ emptyText: <Quiet title={L('noAlerts')} hint={L('noAlertsHint')} /> }}
                renderItem={(a) => (
                  <List.Item style={{ paddingInline: 0 }}>
                    <Space size={8} style={{ minWidth: 0, flex: 1 }}>
                      <Tag color={a.kind === HomeAlertKind.PoolThreshold ? 'orange' : 'red'} style={{ marginInlineEnd: 0 }}>{HomeAlertKind.label(a.kind, lang)}</Tag>
                      <Tooltip title={a.kind === HomeAlertKind.OperatorRefused ? a.reason : undefined}>
                        {canCards
                          ? <Typography.Link ellipsis onClick={() => navigate(cardListLink(alertLink(a)))} data-testid="health-alert-link">{alertText(a, lang, t)}</Typography.Link>
                          : <Typography.Text ellipsis>{alertText(a, lang, t)}</Typography.Text>}
                      </Tooltip>
                    </Space>
                    <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>{formatDateTime(a.at).slice(5, 16)}</Typography.Text>
                  </List.Item>
                )}
              />
            )}
          </Panel>
        </Col>
        <Col xs={24} xl={12}>
          <Panel flush testId="health-batch-list" title={L('recentBatchFailures')} extra={h && <Typography.Text type="secondary">{L('since', { day: h.since })}</Typography.Text>}>
            {q.isLoading ? <Skeleton active paragraph={{ rows: 3 }} /> : (
              <List
                size="small"
                dataSource={h?.batchFailures.list ?? []}
                locale={{ emptyText: <Quiet title={L('noBatchFailures')} hint={L('noBatchFailuresHint')} /> }}
                renderItem={(b) => (
                  <List.Item style={{ paddingInline: 0 }}>
                    <Space size={8} style={{ minWidth: 0, flex: 1 }}>
                      <Tag style={{ marginInlineEnd: 0 }}>{batch.BatchType.label(b.type, lang)}</Tag>
                      {canCards
                        ? <Typography.Link onClick={() => navigate(cardListLink({ failedBatchId: b.batchId }))} data-testid="health-batch-link">
                            {L('failedOf', { failed: b.failedCount, total: b.validCount })}
                          </Typography.Link>
                        : <Typography.Text>{L('failedOf', { failed: b.failedCount, total: b.validCount })}</Typography.Text>}
                      <Typography.Text type="secondary" ellipsis>{L('by', { name: b.createdBy })}</Typography.Text>
                    </Space>
                    <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>{formatDateTime(b.createdAt).slice(5, 16)}</Typography.Text>
                  </List.Item>
                )}
              />
            )}
          </Panel>
        </Col>
      </Row>
    </section>
  );
}
