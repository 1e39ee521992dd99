import { useMemo, useState } from 'react';
import { Card, Empty, Segmented, Table, Typography } from 'antd';
import { BarChartOutlined, TableOutlined } from '@ant-design/icons';
import { formatDuration, formatSize, type ResponseOf, type usage } from '@lynx/contract';
import { Chart } from '../../../../components/Chart.tsx';
import { sizeScale, tooltipSize } from '../../../../components/sizeChart.ts';
import { useLang } from './sections.tsx';

type UsageDay = ResponseOf<typeof usage.getCardUsage>['days'][number];
const BLUE = '#1668dc';

/**
 * The card's usage per day of its current cycle (usage.getCardUsage, as the usage tab reads it): a bar chart, or the
 * same days as a table with up/down, SMS, voice time and sessions. The choice is kept while the page is open.
 */
export function DailyUsage({ days, loading, failed }: { days: UsageDay[] | undefined; loading: boolean; failed: boolean }) {
  const { t, lang } = useLang();
  const O = (k: string) => t(`carddetail.overview.${k}`);
  const U = (k: string) => t(`carddetail.usage.${k}`);
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const list = useMemo(() => days ?? [], [days]);
  const empty = list.every((d) => d.bytes === 0 && d.sms === 0 && d.voiceSeconds === 0);
  const option = useMemo(() => {
    const scale = sizeScale(list.map((d) => d.bytes));
    return {
      grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, formatter: tooltipSize },
      xAxis: { type: 'category', data: list.map((d) => d.day.slice(5)), axisLabel: { hideOverlap: true } },
      yAxis: scale.axis,
      series: [{ type: 'bar', data: scale.data, barMaxWidth: 18, itemStyle: { color: BLUE, borderRadius: [3, 3, 0, 0] } }],
    };
  }, [list]);

  const body = failed ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={O('usageUnavailable')} />
    : !loading && empty && view === 'chart' ? (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} style={{ margin: '24px 0' }}
        description={<>{O('noUsage')}<br /><Typography.Text type="secondary">{O('noUsageHint')}</Typography.Text></>} />
    ) : view === 'chart' ? (
      <Chart option={option} height={220} label={O('daily')} errorText={O('chartError')} testId="daily-usage-chart" />
    ) : (
      <Table size="small" rowKey="day" loading={loading} pagination={{ pageSize: 7, showSizeChanger: false, size: 'small' }} data-testid="daily-usage-table"
        dataSource={[...list].reverse()} locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={O('noUsage')} /> }}
        columns={[
          { title: U('day'), dataIndex: 'day', width: 110 },
          { title: U('bytes'), dataIndex: 'bytes', align: 'right', render: (v: number) => formatSize(v) },
          { title: U('up'), dataIndex: 'bytesUp', align: 'right', render: (v: number) => formatSize(v) },
          { title: U('down'), dataIndex: 'bytesDown', align: 'right', render: (v: number) => formatSize(v) },
          { title: U('sms'), dataIndex: 'sms', width: 70, align: 'right' },
          { title: U('voice'), dataIndex: 'voiceSeconds', align: 'right', render: (v: number) => (v ? formatDuration(v, lang) : '-') },
          { title: U('sessionsCount'), dataIndex: 'sessions', width: 90, align: 'right' },
        ]} />
    );

  return (
    <Card size="small" title={O('daily')} loading={loading && !days} style={{ height: '100%' }} data-testid="daily-usage"
      extra={(
        <Segmented size="small" value={view} onChange={(v) => setView(v as 'chart' | 'table')} data-testid="daily-usage-view"
          options={[
            { value: 'chart', label: O('chart'), icon: <BarChartOutlined /> },
            { value: 'table', label: O('table'), icon: <TableOutlined /> },
          ]} />
      )}>
      {body}
    </Card>
  );
}
