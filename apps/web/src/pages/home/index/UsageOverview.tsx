import { useMemo, type ReactNode } from 'react';
import { Button, Card, Col, Empty, Row, Skeleton, Statistic, Tooltip, Typography } from 'antd';
import { BarChartOutlined, InfoCircleOutlined, RightOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CardState, Operator, Perm, formatSize, usage, type Endpoint, type Lang } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { usePerm } from '../../../components/PermButton.tsx';
import { Chart } from '../../../components/Chart.tsx';
import { sizeScale, tooltipSize } from '../../../components/sizeChart.ts';
import { cardListLink } from '../../card/card-list/list/deepLink.ts';
import { Panel } from './Panel.tsx';

/** Bar colours of the card states (the card list's tag colours as hex). */
const STATE_HEX: Record<number, string> = {
  [CardState.Start]: '#bfbfbf', [CardState.Test]: '#13c2c2', [CardState.ActivationReady]: '#2f54eb', [CardState.Inventory]: '#722ed1',
  [CardState.Activated]: '#52c41a', [CardState.Deactivated]: '#faad14', [CardState.Invalidated]: '#8c8c8c', [CardState.Retired]: '#595959',
  [CardState.Frozen]: '#f5222d',
};
const BLUE = '#1668dc';

function useHome<E extends Endpoint>(e: E) {
  return useQuery({
    queryKey: [e.name],
    queryFn: ({ signal }) => call(e, {} as never, { signal, silent: true }),
  });
}

/** Horizontal bars of a top-5 list (largest on top). */
function topOption(names: string[], values: number[]) {
  const scale = sizeScale(values);
  return {
    grid: { left: 16, right: 72, top: 8, bottom: 8, containLabel: true },
    tooltip: { trigger: 'item', formatter: tooltipSize },
    xAxis: scale.axis,
    yAxis: { type: 'category', inverse: true, data: names, axisLabel: { width: 180, overflow: 'truncate', margin: 10 } },
    series: [{
      type: 'bar', data: scale.data, barMaxWidth: 22, itemStyle: { color: BLUE, borderRadius: [0, 4, 4, 0] },
      label: { show: true, position: 'right', formatter: (p: { data: { bytes: number } }) => formatSize(p.data.bytes) },
    }],
  };
}

/**
 * The Home overview's cards and usage (edge/homepage): totals, cards by state, this month's daily usage, the top 5
 * customers and top 5 links (operator + APN) of the month. Every number comes from the server, in the viewer's
 * tenant; sizes base 1024 with two decimals.
 */
export function UsageOverview() {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const canCards = usePerm(Perm.CardList);
  const canFlow = usePerm(usage.UsagePerm.QueryFlowPage);
  const states = useHome(usage.getHomeCardStates);
  const month = useHome(usage.getHomeMonthUsage);
  const customers = useHome(usage.getHomeTopCustomers);
  const links = useHome(usage.getHomeTopLinks);
  const L = (k: string, o?: Record<string, unknown>) => t(`usage.overview.${k}`, o);
  const activated = states.data?.states.find((s) => s.state === CardState.Activated)?.count ?? null;
  const noUsage = month.data !== undefined && (month.data?.bytes ?? 0) === 0;

  const cardsLabel = L('cards');
  const stateAt = (i: number) => states.data?.states[i]?.state;
  const stateOption = useMemo(() => {
    const list = states.data?.states ?? [];
    return {
      grid: { left: 8, right: 8, top: 16, bottom: 8, containLabel: true },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      xAxis: { type: 'category', data: list.map((s) => CardState.label(s.state, lang)), axisLabel: { interval: 0, rotate: lang === 'en' ? 30 : 0, fontSize: 11 } },
      yAxis: { type: 'value', minInterval: 1, splitLine: { lineStyle: { type: 'dashed' } } },
      series: [{
        type: 'bar', name: cardsLabel, barMaxWidth: 28, label: { show: true, position: 'top' }, cursor: canCards ? 'pointer' : 'default',
        data: list.map((s) => ({ value: s.count, itemStyle: { color: STATE_HEX[s.state] ?? BLUE, borderRadius: [4, 4, 0, 0] } })),
      }],
    };
  }, [states.data, lang, cardsLabel, canCards]);
  const dailyOption = useMemo(() => {
    const days = month.data?.days ?? [];
    const scale = sizeScale(days.map((d) => d.bytes));
    return {
      grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
      tooltip: { trigger: 'axis', formatter: tooltipSize },
      xAxis: { type: 'category', data: days.map((d) => d.day.slice(5)), boundaryGap: false },
      yAxis: scale.axis,
      series: [{ type: 'line', smooth: 0.25, symbolSize: 6, data: scale.data, itemStyle: { color: BLUE }, areaStyle: { opacity: 0.12 } }],
    };
  }, [month.data]);
  const customerOption = useMemo(() => {
    const list = customers.data?.list ?? [];
    return topOption(list.map((c) => c.custName), list.map((c) => c.bytes));
  }, [customers.data]);
  const linkOption = useMemo(() => {
    const list = links.data?.list ?? [];
    return topOption(list.map((l) => `${Operator.label(l.operatorId, lang)} · ${l.apn}`), list.map((l) => l.bytes));
  }, [links.data, lang]);

  const empty = (title: string, hint: string) => (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} style={{ margin: '40px 0' }}
      description={<>{title}<br /><Typography.Text type="secondary">{hint}</Typography.Text></>} />
  );
  const chart = (loading: boolean, isEmpty: boolean, node: ReactNode, emptyNode: ReactNode) =>
    loading ? <Skeleton active paragraph={{ rows: 5 }} /> : isEmpty ? emptyNode : node;
  const stat = (testId: string, title: string, value: ReactNode, loading: boolean, extra?: ReactNode, onClick?: () => void) => (
    <Card size="small" hoverable={!!onClick} onClick={onClick} data-testid={testId} style={{ height: '100%' }}>
      <Statistic title={title} value={value as string} loading={loading} />
      {extra && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{extra}</Typography.Text>}
    </Card>
  );
  const noUsageNode = empty(L('noUsage'), L('noUsageHint'));

  return (
    <div data-testid="home-usage">
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, margin: '4px 0 12px' }}>
        <Typography.Title level={5} style={{ margin: 0 }}><BarChartOutlined /> {L('title')}</Typography.Title>
        {month.data && <Typography.Text type="secondary">{L('monthOf', { month: month.data.month })}</Typography.Text>}
        {canFlow && (
          <Button type="link" size="small" style={{ marginLeft: 'auto' }} onClick={() => navigate('/shortcuts/queryflow/list')}>
            {L('viewDetails')} <RightOutlined />
          </Button>
        )}
      </div>
      <Row gutter={[12, 12]} style={{ marginBottom: 12 }}>
        <Col xs={12} xl={6}>
          {stat('stat-cards', L('totalCards'), states.data?.total ?? '-', states.isLoading, undefined, canCards ? () => navigate(cardListLink({})) : undefined)}
        </Col>
        <Col xs={12} xl={6}>
          {stat('stat-activated', L('activated'), activated ?? '-', states.isLoading, undefined,
            canCards ? () => navigate(cardListLink({ states: [CardState.Activated] })) : undefined)}
        </Col>
        <Col xs={12} xl={6}>
          {stat('stat-month-usage', L('monthUsage'), month.data ? formatSize(month.data.bytes) : '-', month.isLoading,
            month.data ? L('previousMonth', { size: formatSize(month.data.previousBytes) }) : undefined)}
        </Col>
        <Col xs={12} xl={6}>{stat('stat-month-sessions', L('sessions'), month.data?.sessions ?? '-', month.isLoading)}</Col>
      </Row>
      <Row gutter={[12, 12]} style={{ marginBottom: 12 }}>
        <Col xs={24} xl={10}>
          <Panel title={L('byState')} testId="chart-card-states">
            {chart(states.isLoading, (states.data?.total ?? 0) === 0,
              <Chart option={stateOption} height={260} label={L('byState')} errorText={L('chartError')} testId="chart-card-states-canvas"
                onItemClick={canCards ? (i) => { const s = stateAt(i); if (s !== undefined) navigate(cardListLink({ states: [s] })); } : undefined} />,
              empty(L('noCards'), L('noCardsHint')))}
          </Panel>
        </Col>
        <Col xs={24} xl={14}>
          <Panel title={L('daily')} testId="chart-daily-usage">
            {chart(month.isLoading, noUsage, <Chart option={dailyOption} height={260} label={L('daily')} errorText={L('chartError')} />, noUsageNode)}
          </Panel>
        </Col>
      </Row>
      <Row gutter={[12, 12]} style={{ marginBottom: 12 }}>
        <Col xs={24} xl={12}>
          <Panel title={L('topCustomers')} testId="chart-top-customers">
            {chart(customers.isLoading, (customers.data?.list.length ?? 0) === 0,
              <Chart option={customerOption} height={220} label={L('topCustomers')} errorText={L('chartError')}
                onItemClick={canCards ? (i) => { const c = customers.data?.list[i]; if (c) navigate(cardListLink({ custId: c.custId })); } : undefined} />,
              noUsageNode)}
          </Panel>
        </Col>
        <Col xs={24} xl={12}>
          <Panel title={L('topLinks')} testId="chart-top-links"
            extra={<Tooltip title={L('linkHint')}><InfoCircleOutlined style={{ color: '#8c8c8c' }} aria-label={L('linkHint')} /></Tooltip>}>
            {chart(links.isLoading, (links.data?.list.length ?? 0) === 0,
              <Chart option={linkOption} height={220} label={L('topLinks')} errorText={L('chartError')} />, noUsageNode)}
          </Panel>
        </Col>
      </Row>
    </div>
  );
}
