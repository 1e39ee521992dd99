import { useState } from 'react';
import { Button, Empty, Form, Input, Select, Space, Table, Typography } from 'antd';
import { LeftOutlined, RightOutlined, SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ChannelBillLineState, channelbill, formatCount, formatSize } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { ExportButton } from '../../../../components/ExportButton.tsx';
import { Section } from '../../../../components/Section.tsx';
import { MoneyCell } from '../../../business/capital/shared.tsx';
import { keysetNext, keysetPrev, keysetStart, type KeysetState } from '../../bill/shared.tsx';
import { LINE_COLORS, signedSize, type ChannelBillLine } from '../shared.tsx';

const PAGE_SIZE = 20;
const size = (v: number | null) => (v == null ? '-' : formatSize(v));

/** A bill's lines in ICCID order, a page at a time by key (a million lines): filter by result and ICCID; export. */
export function Lines({ billId, state, onState }: { billId: number; state: number | undefined; onState: (s: number | undefined) => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [iccid, setIccid] = useState<string | undefined>();
  const [keys, setKeys] = useState<KeysetState>(keysetStart);
  const D = (k: string, o?: Record<string, unknown>) => t(`channelbill.detail.${k}`, o);
  const body = { billId, pageSize: PAGE_SIZE, ...(state !== undefined ? { state } : {}), ...(iccid ? { iccid } : {}), ...(keys.after ? { after: keys.after } : {}) };
  const q = useQuery({
    queryKey: [channelbill.getChannelBillLines.name, body],
    queryFn: ({ signal }) => call(channelbill.getChannelBillLines, body, { signal }),
    placeholderData: keepPreviousData,
  });
  const page = keys.stack.length + 1;
  const dataColumns = [
    { title: `${D('dataCol')} · ${D('channel')}`, key: 'channelBytes', width: 130, align: 'right' as const, render: (_: unknown, r: ChannelBillLine) => size(r.channelBytes) },
    { title: `${D('dataCol')} · ${D('platform')}`, key: 'platformBytes', width: 130, align: 'right' as const, render: (_: unknown, r: ChannelBillLine) => size(r.platformBytes) },
    {
      title: `${D('dataCol')} · ${D('diff')}`, key: 'diffBytes', width: 130, align: 'right' as const,
      render: (_: unknown, r: ChannelBillLine) => <Typography.Text type={r.state === ChannelBillLineState.Differs && r.diffBytes ? 'warning' : undefined}>{signedSize(r.diffBytes, formatSize)}</Typography.Text>,
    },
  ];

  return (
    <Section title={D('lines')} testId="channel-bill-lines" extra={<ExportButton via={channelbill.exportChannelBillLines} filters={{ billId, ...(state !== undefined ? { state } : {}) }} />}>
      <Form layout="inline" style={{ marginBottom: 12, rowGap: 8 }} onFinish={(v: { iccid?: string }) => { setIccid(v.iccid?.trim() || undefined); setKeys(keysetStart); }}>
        <Form.Item label={t('channelbill.f.state')}>
          <Select allowClear placeholder={t('common.all')} value={state} style={{ width: 200 }} data-testid="channel-bill-lines-state"
            options={ChannelBillLineState.options(lang).filter((o) => o.value !== ChannelBillLineState.Pending)}
            onChange={(v: number | undefined) => { onState(v); setKeys(keysetStart); }} />
        </Form.Item>
        <Form.Item name="iccid" label="ICCID">
          <Input allowClear maxLength={20} placeholder={D('iccidPlaceholder')} style={{ width: 240 }} data-testid="channel-bill-lines-iccid" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>{t('common.search')}</Button>
        </Form.Item>
      </Form>
      <Table<ChannelBillLine>
        size="small" rowKey="iccid" loading={q.isFetching} dataSource={q.data?.list ?? []} pagination={false} scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={D('emptyLines')} /> }}
        columns={[
          { title: 'ICCID', dataIndex: 'iccid', width: 200, render: (v: string) => <Link to={`/card/card-list/detail/${v}`} translate="no">{v}</Link> },
          { title: t('channelbill.f.state'), dataIndex: 'state', width: 150, render: (v: number) => <span data-testid="channel-bill-line-state"><StatusTag enumOf={ChannelBillLineState} value={v} colors={LINE_COLORS} /></span> },
          ...dataColumns,
          { title: `${D('smsCol')} · ${D('channel')}`, dataIndex: 'channelSms', width: 100, align: 'right', render: (v: number | null) => v ?? '-' },
          { title: `${D('smsCol')} · ${D('platform')}`, dataIndex: 'platformSms', width: 100, align: 'right', render: (v: number | null) => v ?? '-' },
          { title: t('money.withCurrency', { label: t('channelbill.f.channelAmount') }), dataIndex: 'channelAmount', width: 140, align: 'right', render: (v: string | null) => (v == null ? '-' : <MoneyCell v={v} />) },
          { title: D('lineNo'), dataIndex: 'lineNo', width: 90, align: 'right', render: (v: number | null) => v ?? '-' },
        ]}
      />
      <Space style={{ display: 'flex', justifyContent: 'flex-end', marginTop: 12 }}>
        <Typography.Text type="secondary" data-testid="channel-bill-lines-page">
          {q.data?.totalCapped ? D('pageMany', { page, total: formatCount(q.data.total) }) : D('page', { page, total: formatCount(q.data?.total ?? 0) })}
        </Typography.Text>
        <Button icon={<LeftOutlined />} disabled={!keys.stack.length || q.isFetching} onClick={() => setKeys(keysetPrev)}>{D('prev')}</Button>
        <Button disabled={!q.data?.next || q.isFetching} onClick={() => setKeys((s) => keysetNext(s, q.data?.next))} data-testid="channel-bill-lines-next">{D('next')} <RightOutlined /></Button>
      </Space>
    </Section>
  );
}
