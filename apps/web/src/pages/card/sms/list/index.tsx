import { useState } from 'react';
import { Button, DatePicker, Empty, Form, Input, Select, Space, Table, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { LeftOutlined, ReloadOutlined, RightOutlined, SearchOutlined, SendOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { batch, formatCount, formatDateTime, sms, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { ExportButton } from '../../../../components/ExportButton.tsx';
import { PermButton } from '../../../../components/PermButton.tsx';
import { pickedDays } from '../../../../components/businessTime.ts';
import { SendSmsModal } from '../SendSmsModal.tsx';
import { SmsDetail } from '../SmsDetail.tsx';
import { SmsStateTag, type SmsRow } from '../shared.tsx';

const PAGE_SIZE = 20;
const { SmsDirection, SmsStatus, SmsSource } = sms;
type Filters = { iccid?: string; msisdn?: string; direction?: number; status?: number; source?: number; createdFrom?: string; createdTo?: string };
type FormValues = Omit<Filters, 'createdFrom' | 'createdTo'> & { range?: [Dayjs | null, Dayjs | null] | null };
type Keys = { stack: (string | undefined)[]; after: string | undefined };
const START: Keys = { stack: [], after: undefined };

/**
 * /card/sms/list (2020000): messages to and from the caller's cards, newest first, a page at a time by key (a
 * card-scale table); filters, export, a message's delivery report; send to one card (2010006) and batch SMS (2030003,
 * the batch screen's "Batch SMS" type).
 */
export default function SmsList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const [form] = Form.useForm<FormValues>();
  const [filters, setFilters] = useState<Filters>({});
  const [keys, setKeys] = useState<Keys>(START);
  const [sending, setSending] = useState(false);
  const [viewing, setViewing] = useState<{ iccid: string; smsId: string } | null>(null);
  const F = (k: string) => t(`sms.f.${k}`);
  const L = (k: string, o?: Record<string, unknown>) => t(`sms.list.${k}`, o);
  const body = { pageSize: PAGE_SIZE, ...filters, ...(keys.after ? { after: keys.after } : {}) };
  const q = useQuery({
    queryKey: [sms.getSmsListPage.name, body],
    queryFn: ({ signal }) => call(sms.getSmsListPage, body, { signal }),
    placeholderData: keepPreviousData,
  });
  const search = (v: FormValues) => {
    const days = pickedDays(v.range);
    const clean = (s?: string) => s?.trim() || undefined;
    setFilters(Object.fromEntries(Object.entries({
      iccid: clean(v.iccid), msisdn: clean(v.msisdn), direction: v.direction, status: v.status, source: v.source,
      createdFrom: days?.[0], createdTo: days?.[1],
    }).filter(([, x]) => x !== undefined)) as Filters);
    setKeys(START);
  };
  const page = keys.stack.length + 1;
  const total = q.data?.total ?? 0;

  return (
    <div className="lx-search-table">
      <div className="lx-card">
        <Form form={form} layout="inline" style={{ rowGap: 8 }} onFinish={search} data-testid="sms-search">
          <Form.Item name="iccid" label="ICCID" rules={[{ pattern: /^[0-9]{6,20}$/, message: L('iccidRule') }]}>
            <Input allowClear maxLength={20} placeholder={L('iccidPlaceholder')} style={{ width: 220 }} data-testid="sms-filter-iccid" />
          </Form.Item>
          <Form.Item name="msisdn" label="MSISDN" rules={[{ pattern: /^[0-9]{5,20}$/, message: L('msisdnRule') }]}>
            <Input allowClear maxLength={20} style={{ width: 170 }} />
          </Form.Item>
          <Form.Item name="direction" label={F('direction')}>
            <Select allowClear placeholder={t('common.all')} style={{ width: 160 }} options={SmsDirection.options(lang)} data-testid="sms-filter-direction" />
          </Form.Item>
          <Form.Item name="status" label={F('status')}>
            <Select allowClear placeholder={t('common.all')} style={{ width: 170 }} options={SmsStatus.options(lang)} />
          </Form.Item>
          <Form.Item name="source" label={F('source')}>
            <Select allowClear placeholder={t('common.all')} style={{ width: 150 }} options={SmsSource.options(lang)} />
          </Form.Item>
          <Form.Item name="range" label={withZoneLabel(F('createdAt'))}>
            <DatePicker.RangePicker />
          </Form.Item>
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid="sms-search-submit">{t('common.search')}</Button>
              <Button onClick={() => { form.resetFields(); search({}); }}>{t('common.reset')}</Button>
            </Space>
          </Form.Item>
        </Form>
      </div>
      <div className="lx-card">
        <div style={{ display: 'flex', alignItems: 'center', marginBottom: 12, gap: 8, flexWrap: 'wrap' }}>
          <Typography.Title level={5} style={{ margin: 0 }}>{L('title')}</Typography.Title>
          <Space style={{ marginLeft: 'auto' }} wrap>
            <PermButton perm={sms.SmsPerm.SendSms} type="primary" icon={<SendOutlined />} onClick={() => setSending(true)} data-testid="sms-send">{L('send')}</PermButton>
            <PermButton perm={sms.SmsPerm.BatchSms} icon={<UnorderedListOutlined />} onClick={() => navigate(`/card/batchoperate/list/${batch.BatchType.Sms}`)} data-testid="sms-batch">
              {L('batch')}
            </PermButton>
            <ExportButton via={sms.exportSmsList} filters={filters} />
            <Button icon={<ReloadOutlined />} onClick={() => void q.refetch()} aria-label={t('common.refresh')} />
          </Space>
        </div>
        <Table<SmsRow>
          size="small" rowKey="smsId" loading={q.isFetching} dataSource={q.data?.list ?? []} pagination={false} scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description={L('empty')} /> }} data-testid="sms-table"
          columns={[
            { title: withZoneLabel(F('createdAt')), dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
            { title: 'ICCID', dataIndex: 'iccid', width: 200, render: (v: string) => <Link to={`/card/card-list/detail/${v}`} translate="no">{v}</Link> },
            { title: 'MSISDN', dataIndex: 'msisdn', width: 140, render: (v: string | null) => v ?? '-' },
            { title: F('direction'), dataIndex: 'direction', width: 130, render: (v: number) => SmsDirection.label(v, lang) },
            { title: F('content'), dataIndex: 'content', width: 280, ellipsis: true },
            { title: F('status'), dataIndex: 'status', width: 130, render: (_: number, r: SmsRow) => <span data-testid="sms-state"><SmsStateTag row={r} /></span> },
            { title: F('source'), dataIndex: 'source', width: 120, render: (v: number) => SmsSource.label(v, lang) },
            { title: F('reportCode'), dataIndex: 'reportCode', width: 120, render: (v: string | null) => <span translate="no">{v ?? '-'}</span> },
            { title: F('failReason'), dataIndex: 'failReason', width: 220, ellipsis: true, render: (v: string | null) => v ?? '-' },
            { title: F('createdBy'), dataIndex: 'createdBy', width: 120, render: (v: string | null) => v ?? '-' },
            {
              title: t('common.actions'), key: 'op', width: 90, fixed: 'right',
              render: (_: unknown, r: SmsRow) => <Button type="link" size="small" onClick={() => setViewing({ iccid: r.iccid, smsId: r.smsId })} data-testid="sms-view">{L('view')}</Button>,
            },
          ]}
        />
        <Space style={{ display: 'flex', justifyContent: 'flex-end', marginTop: 12 }}>
          <Typography.Text type="secondary" data-testid="sms-page">
            {q.data?.totalCapped ? L('pageMany', { page, total: formatCount(total) }) : L('page', { page, total: formatCount(total) })}
          </Typography.Text>
          <Button icon={<LeftOutlined />} disabled={!keys.stack.length || q.isFetching} onClick={() => setKeys((s) => (s.stack.length ? { stack: s.stack.slice(0, -1), after: s.stack[s.stack.length - 1] } : s))}>
            {L('prev')}
          </Button>
          <Button disabled={!q.data?.next || q.isFetching} onClick={() => { const next = q.data?.next; if (next) setKeys((s) => ({ stack: [...s.stack, s.after], after: next })); }} data-testid="sms-next">
            {L('next')} <RightOutlined />
          </Button>
        </Space>
      </div>
      <SendSmsModal open={sending} onClose={() => setSending(false)} onSent={() => { setKeys(START); void q.refetch(); }} />
      <SmsDetail target={viewing} onClose={() => setViewing(null)} />
    </div>
  );
}
