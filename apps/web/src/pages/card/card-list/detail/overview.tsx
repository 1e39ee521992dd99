import type { ReactNode } from 'react';
import { Card, Col, Progress, Row, Space, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import {
  CardState, Operator, Perm, TariffType, carddetail, formatDate, formatDurationBetween, formatSize, pool, usage, type ResponseOf,
} from '@lynx/contract';
import { usePerm } from '../../../../components/PermButton.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { STATE_COLORS } from '../list/index.tsx';
import { POOL_STATE_COLORS } from '../../pool/shared.tsx';
import { DailyUsage } from './daily.tsx';
import { useCardQuery, useLang } from './sections.tsx';

type Basic = ResponseOf<typeof carddetail.getCardDetail>;

/** Share of the quota from which the bar turns orange (the home overview's "near quota"). */
const NEAR_QUOTA = 0.8;

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <div data-testid={testId} style={{ minWidth: 0 }}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>{label}</Typography.Text>
      <div style={{ marginTop: 2, overflowWrap: 'anywhere' }}>{children}</div>
    </div>
  );
}

/**
 * The top of the card detail: what a fleet manager asks first about a SIM. State, plan, usage this cycle against its
 * quota, online now or the last session, operator, customer and pool (linked only for users who may open pools),
 * and the daily usage of the cycle as a chart or a table. Usage is read as the usage tab reads it (getCardUsage).
 */
export function CardOverview({ d }: { d: Basic }) {
  const { t, lang } = useLang();
  const O = (k: string, o?: Record<string, unknown>) => t(`carddetail.overview.${k}`, o);
  const canPools = usePerm(Perm.Pool);
  const cycle = useCardQuery(carddetail.getCardCycle, d.iccid);
  const use = useCardQuery(usage.getCardUsage, d.iccid);
  const apn = useCardQuery(carddetail.getCardApnOnline, d.iccid);
  const u = use.data;
  const plan = cycle.data?.plan;
  const now = new Date();

  const share = u?.quotaBytes ? u.usedBytes / u.quotaBytes : null;
  // a cycle ends at the first instant of the next one: the last day shown is the day before
  const cycleTo = u ? new Date(new Date(u.cycleEnd).getTime() - 1) : null;
  const usageNode = use.error ? <Typography.Text type="secondary">{O('usageUnavailable')}</Typography.Text> : u ? (
    <>
      <Space size={8} wrap style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Text strong data-testid="overview-used">
          {u.quotaBytes != null ? O('usedOf', { used: formatSize(u.usedBytes), quota: formatSize(u.quotaBytes) }) : O('usedNoQuota', { used: formatSize(u.usedBytes) })}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>{O('cycle', { from: formatDate(u.cycleStart), to: formatDate(cycleTo) })}</Typography.Text>
      </Space>
      {share != null && (
        <Progress percent={Math.min(100, Math.round(share * 1000) / 10)} size="small" data-testid="overview-quota-bar"
          status={share >= 1 ? 'exception' : 'normal'} strokeColor={share >= 1 ? undefined : share >= NEAR_QUOTA ? '#fa8c16' : undefined} />
      )}
    </>
  ) : <Typography.Text type="secondary">-</Typography.Text>;

  const session = apn.data;
  const connection = d.online || session?.online ? (
    <Space size={6} wrap>
      <Tag color="success" style={{ marginInlineEnd: 0 }}>{t('carddetail.online')}</Tag>
      {session?.sessionStartAt && !session.sessionEndAt
        ? <span>{O('onlineFor', { d: formatDurationBetween(session.sessionStartAt, now, lang) })}</span> : null}
    </Space>
  ) : (session?.lastSessionAt ?? d.lastSessionAt) ? (
    <Space size={6} wrap>
      <Tag style={{ marginInlineEnd: 0 }}>{t('carddetail.offline')}</Tag>
      <span>{O('offlineAgo', { d: formatDurationBetween(session?.sessionEndAt ?? session?.lastSessionAt ?? d.lastSessionAt, now, lang) })}</span>
    </Space>
  ) : <Typography.Text type="secondary">{O('never')}</Typography.Text>;

  const poolNode = d.poolId == null ? <Typography.Text type="secondary">{O('noPool')}</Typography.Text> : (
    <Space size={4} wrap>
      {canPools ? <Link to={`/card/pool/detail/${d.poolId}`}>{d.poolName}</Link> : <span>{d.poolName}</span>}
      {d.poolState != null && <StatusTag enumOf={pool.PoolState} value={d.poolState} colors={POOL_STATE_COLORS} />}
    </Space>
  );

  return (
    <Row gutter={[16, 16]} style={{ marginBottom: 16 }} data-testid="card-overview">
      <Col xs={24} xl={11}>
        <Card size="small" title={O('title')} style={{ height: '100%' }}>
          <div style={{ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: '12px 24px' }}>
            <Fact label={O('state')} testId="overview-state"><StatusTag enumOf={CardState} value={d.state} colors={STATE_COLORS} /></Fact>
            <Fact label={O('plan')} testId="overview-plan">
              {plan ? <span>{plan.name} <Typography.Text type="secondary">· {TariffType.label(plan.tariffType, lang)}</Typography.Text></span>
                : <Typography.Text type="secondary">{cycle.isLoading ? '-' : O('noPlan')}</Typography.Text>}
            </Fact>
            <Fact label={O('connection')} testId="overview-connection">{connection}</Fact>
            <Fact label={O('operator')} testId="overview-operator">{Operator.label(d.operatorId, lang)}</Fact>
            <Fact label={O('customer')} testId="overview-customer">
              {d.custName ? <span>{d.custName}{d.rootCustName ? <Typography.Text type="secondary"> · {d.rootCustName}</Typography.Text> : null}</span>
                : <Tag>{t('carddetail.stock')}</Tag>}
            </Fact>
            <Fact label={O('pool')} testId="overview-pool">{poolNode}</Fact>
            <div style={{ gridColumn: '1 / -1' }}>
              <Fact label={O('usage')} testId="overview-usage">{usageNode}</Fact>
            </div>
          </div>
        </Card>
      </Col>
      <Col xs={24} xl={13}>
        <DailyUsage days={u?.days} loading={use.isLoading} failed={!!use.error} />
      </Col>
    </Row>
  );
}
