import { useState } from 'react';
import { Card, Col, Empty, Row, Statistic, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { NetworkType, carddetail, formatDateRange, formatDateTime, formatDuration, formatSize, usage, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { QuotaBar, useCardQuery, useLang } from './sections.tsx';
import { SmsStateTag } from '../../sms/shared.tsx';

const dt = (v: string | null | undefined) => (v ? formatDateTime(v) : '-');

/** Usage this cycle and the recent sessions (the usage area's card endpoints); the days of the cycle are in the overview. */
export function UsageTab({ iccid }: { iccid: string }) {
  const { t, lang } = useLang();
  const U = (k: string, o?: Record<string, unknown>) => t(`carddetail.usage.${k}`, o);
  const u = useCardQuery(usage.getCardUsage, iccid);
  const s = useCardQuery(usage.getCardSessions, iccid);
  const d = u.data;
  return (
    <>
      <Card size="small" title={d ? `${U('cycle')} · ${U(d.cycleKind === 'contract' ? 'contractCycle' : 'billingCycle')}` : U('cycle')} loading={u.isLoading} style={{ marginBottom: 16 }}>
        {u.error ? <Empty description={U('unavailable')} /> : d && (
          <>
            {/* a cycle is calendar days: its end is the first instant of the next cycle, so the last day is the one before */}
            <Typography.Text type="secondary">{formatDateRange(d.cycleStart, d.cycleEnd)}{d.planName ? ` · ${d.planName}` : ''}</Typography.Text>
            <div><Typography.Text type="secondary" data-testid="usage-fed-until">{d.fedUntil ? U('fedUntil', { at: dt(d.fedUntil) }) : U('notFedYet')}</Typography.Text></div>
            <Row gutter={16} style={{ marginTop: 12 }}>
              <Col xs={24} md={8}><Statistic title={U('used')} value={formatSize(d.usedBytes)} /></Col>
              <Col xs={24} md={8}><Statistic title={U('quota')} value={d.quotaBytes != null ? formatSize(d.quotaBytes) : U('unlimited')} /></Col>
              <Col xs={24} md={8}><Statistic title={U('remaining')} value={d.remainingBytes != null ? formatSize(d.remainingBytes) : U('unlimited')} /></Col>
            </Row>
            <QuotaBar used={d.usedBytes} quota={d.quotaBytes} />
            {d.exhaustedAt && <Tag color="error">{U('exhausted', { at: dt(d.exhaustedAt) })}</Tag>}
          </>
        )}
      </Card>
      <Card size="small" title={U('sessions')}>
        <Table size="small" rowKey="sessionId" loading={s.isFetching} dataSource={s.data?.list ?? []} scroll={{ x: 1000 }}
          pagination={{ pageSize: 10, showSizeChanger: false }} locale={{ emptyText: <Empty description={U('noSessions')} /> }}
          columns={[
            { title: withZoneLabel(U('startedAt')), dataIndex: 'startedAt', width: 170, render: dt },
            { title: U('endedAt'), dataIndex: 'endedAt', width: 170, render: (v: string | null) => (v ? dt(v) : <Tag color="processing">{U('open')}</Tag>) },
            { title: U('duration'), dataIndex: 'durationSeconds', width: 120, align: 'right', render: (v: number) => formatDuration(v, lang) },
            { title: U('apn'), dataIndex: 'apn', width: 150 },
            { title: U('rat'), dataIndex: 'rat', width: 90, render: (v: number | null) => (v != null ? NetworkType.label(v, lang) : '-') },
            { title: U('cell'), dataIndex: 'cell', width: 120, render: (v: string | null) => v ?? '-' },
            { title: U('bytes'), dataIndex: 'bytes', width: 110, align: 'right', render: (v: number) => formatSize(v) },
          ]} />
      </Card>
    </>
  );
}

/** The card's SMS, newest first. */
export function SmsTab({ iccid }: { iccid: string }) {
  const { t, lang } = useLang();
  const S = (k: string) => t(`carddetail.sms.${k}`);
  const [page, setPage] = useState({ current: 1, pageSize: 10 });
  const q = useQuery({
    queryKey: [carddetail.getCardSmsPage.name, iccid, page],
    queryFn: ({ signal }) => call(carddetail.getCardSmsPage, { iccid, ...page }, { signal }),
  });
  return (
    <Table size="small" rowKey="smsId" loading={q.isFetching} dataSource={q.data?.list ?? []} scroll={{ x: 900 }}
      locale={{ emptyText: <Empty description={S('empty')} /> }}
      pagination={{ ...page, total: q.data?.total ?? 0, onChange: (current, pageSize) => setPage({ current, pageSize }) }}
      columns={[
        { title: withZoneLabel(S('createdAt')), dataIndex: 'createdAt', width: 170, render: dt },
        { title: S('direction'), dataIndex: 'direction', width: 140, render: (v: number) => carddetail.SmsDirection.label(v, lang) },
        { title: S('content'), dataIndex: 'content' },
        // a message from the device is "received", not one of the send states (docs/sms.md)
        { title: S('status'), dataIndex: 'status', width: 120, render: (_: number, r: { direction: number; status: number }) => <SmsStateTag row={r} /> },
        { title: S('createdBy'), dataIndex: 'createdBy', width: 110, render: (v: string | null) => v ?? '-' },
        { title: S('failReason'), dataIndex: 'failReason', width: 200, render: (v: string | null) => v ?? '-' },
      ]} />
  );
}
