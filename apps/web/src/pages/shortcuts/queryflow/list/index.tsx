import { useEffect, useState } from 'react';
import { Button, Col, DatePicker, Empty, Form, Input, Radio, Row, Space, Tag, Typography } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { NetworkType, Operator, Perm, formatDateTime, formatDuration, formatSize, usage, type ResponseOf, withZoneLabel } from '@lynx/contract';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { businessTodayPicker } from '../../../../components/businessTime.ts';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { CustomerSelect } from '../../../home/customer/CustomerSelect.tsx';

type Kind = 'daily' | 'session';
type DailyRow = ResponseOf<typeof usage.getFlowDailyPage>['list'][number];
type SessionRow = ResponseOf<typeof usage.getFlowSessionPage>['list'][number];
type FlowPage = { startDate: string; endDate: string; total: number; totalBytes: number } | null | undefined;

const MAX_DAYS = usage.FLOW_QUERY_MAX_DAYS;
// the last seven business days, today included
const defaultRange = (): [Dayjs, Dayjs] => [businessTodayPicker().subtract(6, 'day'), businessTodayPicker()];

/** Search form values → the query's filters (dates as China days). */
export function flowFilters(v: Record<string, any>): Record<string, unknown> {
  const { range, kind: _kind, ...rest } = v as { range?: [Dayjs, Dayjs] | null; kind?: Kind } & Record<string, unknown>;
  return { ...rest, ...(range?.[0] ? { startDate: range[0].format('YYYY-MM-DD'), endDate: range[1].format('YYYY-MM-DD') } : {}) };
}

function FlowList({ kind, onKind, values, onValues }: { kind: Kind; onKind: (k: Kind) => void; values: Record<string, unknown>; onValues: (v: Record<string, unknown>) => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const L = (k: string, o?: Record<string, unknown>) => t(`usage.flow.${k}`, o);
  const endpoint = kind === 'daily' ? usage.getFlowDailyPage : usage.getFlowSessionPage;
  const table = useSearchTable(endpoint, { transform: flowFilters });
  const duration = (seconds: number) => <span style={{ whiteSpace: 'nowrap' }}>{formatDuration(seconds, lang)}</span>;
  const canCustomers = usePerm([Perm.HomeCustomer, Perm.BusinessCustomer]);
  // the filters of the other record type carry over
  useEffect(() => {
    if (Object.keys(values).length) table.search(values);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const page = table.query.data as FlowPage;
  const size = (v: number) => <span style={{ whiteSpace: 'nowrap' }}>{formatSize(v)}</span>;
  const common = [
    { title: L('iccid'), dataIndex: 'iccid', width: 210, render: (v: string) => <Typography.Text copyable style={{ whiteSpace: 'nowrap' }}>{v}</Typography.Text> },
    { title: L('msisdn'), dataIndex: 'msisdn', width: 140, render: (v: string | null) => v ?? '-' },
    { title: L('customer'), dataIndex: 'custName', width: 180, ellipsis: true, render: (v: string | null) => v ?? <Tag>{L('stock')}</Tag> },
    { title: L('operator'), dataIndex: 'operatorId', width: 120, render: (v: number) => <span style={{ whiteSpace: 'nowrap' }}>{Operator.label(v, lang)}</span> },
    { title: L('apn'), dataIndex: 'apn', width: 140, ellipsis: true },
    { title: L('bytes'), dataIndex: 'bytes', width: 120, align: 'right' as const, render: size },
    { title: L('bytesUp'), dataIndex: 'bytesUp', width: 120, align: 'right' as const, render: size },
    { title: L('bytesDown'), dataIndex: 'bytesDown', width: 120, align: 'right' as const, render: size },
  ];
  const dailyColumns = [
    { title: L('day'), dataIndex: 'day', width: 110, fixed: 'left' as const },
    ...common,
    { title: L('sessions'), dataIndex: 'sessions', width: 90, align: 'right' as const },
    { title: L('sms'), dataIndex: 'sms', width: 100, align: 'right' as const },
    { title: L('voice'), dataIndex: 'voiceSeconds', width: 120, render: (v: number) => (v ? duration(v) : '-') },
  ];
  const sessionColumns = [
    { title: withZoneLabel(L('startedAt')), dataIndex: 'startedAt', width: 170, fixed: 'left' as const, render: (v: string) => formatDateTime(v) },
    { title: withZoneLabel(L('endedAt')), dataIndex: 'endedAt', width: 170, render: (v: string | null) => (v ? formatDateTime(v) : <Tag color="processing">{L('open')}</Tag>) },
    { title: L('duration'), dataIndex: 'durationSeconds', width: 140, render: (v: number) => duration(v) },
    ...common,
    { title: L('rat'), dataIndex: 'rat', width: 130, render: (v: number | null) => (v ? NetworkType.label(v, lang) : '-') },
    { title: L('cell'), dataIndex: 'cell', width: 220, render: (v: string | null) => <span style={{ whiteSpace: 'nowrap' }}>{v ?? '-'}</span> },
    { title: L('sessionId'), dataIndex: 'sessionId', width: 200, render: (v: string) => <Typography.Text copyable style={{ whiteSpace: 'nowrap' }}>{v}</Typography.Text> },
  ];
  const digits = (min: number, max: number, message: string) => ({ pattern: new RegExp(`^\\d{${min},${max}}$`), message });

  return (
    <>
      <div className="lx-card">
        <Form form={table.form} layout="vertical" data-testid="flow-search" initialValues={{ kind, range: defaultRange(), ...values }}
          onFinish={(v) => { onValues(v); table.search(v); }}>
          <Row gutter={16} align="bottom">
            <Col xs={24} sm={12} md={8} xl={6}>
              <Form.Item name="kind" label={L('kind')}>
                <Radio.Group optionType="button" buttonStyle="solid" onChange={(e) => { onValues(table.form.getFieldsValue()); onKind(e.target.value); }}
                  options={[{ value: 'daily', label: L('daily') }, { value: 'session', label: L('session') }]} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12} md={8} xl={6}>
              <Form.Item name="iccid" label={L('iccid')} rules={[digits(19, 20, L('iccidRule'))]}><Input allowClear maxLength={20} placeholder={L('iccid')} /></Form.Item>
            </Col>
            <Col xs={24} sm={12} md={8} xl={6}>
              <Form.Item name="msisdn" label={L('msisdn')} rules={[digits(5, 15, L('msisdnRule'))]}><Input allowClear maxLength={15} placeholder={L('msisdn')} /></Form.Item>
            </Col>
            <Col xs={24} sm={12} md={8} xl={6}>
              <Form.Item name="range" label={withZoneLabel(L('range'))} tooltip={L('rangeRule', { max: MAX_DAYS })}
                rules={[
                  { required: true, message: L('rangeRequired') },
                  { validator: (_, v?: [Dayjs, Dayjs]) => (!v?.[0] || v[1].diff(v[0], 'day') < MAX_DAYS ? Promise.resolve() : Promise.reject(new Error(L('rangeRule', { max: MAX_DAYS })))) },
                ]}>
                <DatePicker.RangePicker style={{ width: '100%' }} allowClear={false} disabledDate={(d) => d.isAfter(businessTodayPicker(), 'day')} />
              </Form.Item>
            </Col>
            {canCustomers && (
              <Col xs={24} sm={12} md={8} xl={6}>
                <Form.Item name="custId" label={L('customer')}>
                  <CustomerSelect allowClear placeholder={t('common.all')} />
                </Form.Item>
              </Col>
            )}
            <Col flex="auto">
              <Form.Item>
                <Space>
                  <PermButton perm={usage.UsagePerm.QueryFlow} type="primary" htmlType="submit" icon={<SearchOutlined />}>{t('common.search')}</PermButton>
                  <Button onClick={() => { table.reset(); table.form.setFieldsValue({ kind, range: defaultRange() }); onValues({}); }}>{t('common.reset')}</Button>
                </Space>
              </Form.Item>
            </Col>
          </Row>
        </Form>
      </div>
      {kind === 'daily' ? (
        <SearchTable<DailyRow>
          table={table} rowKey={(r) => `${r.day}|${r.iccid}`} exportSource={endpoint} emptyHint={L('emptyHint')} columns={dailyColumns}
          title={<Title page={page} />}
        />
      ) : (
        <SearchTable<SessionRow>
          table={table} rowKey={(r) => `${r.iccid}|${r.startedAt}|${r.sessionId}`} exportSource={endpoint} emptyHint={L('emptyHint')} columns={sessionColumns}
          title={<Title page={page} />}
        />
      )}
    </>
  );
}

function Title({ page }: { page: FlowPage }) {
  const { t } = useTranslation();
  return (
    <Space size={12} wrap>
      <span>{t('usage.flow.title')}</span>
      {page && (
        <Typography.Text type="secondary" style={{ fontSize: 13, fontWeight: 'normal' }} data-testid="flow-summary">
          {t('usage.flow.summary', { start: page.startDate, end: page.endDate, total: page.total, size: formatSize(page.totalBytes) })}
        </Typography.Text>
      )}
    </Space>
  );
}

/** /shortcuts/queryflow/list: traffic details by day or by session, in the viewer's tenant; exported through download tasks. */
export default function QueryFlow() {
  const { t } = useTranslation();
  const canQuery = usePerm(usage.UsagePerm.QueryFlow);
  const [kind, setKind] = useState<Kind>('daily');
  const [values, setValues] = useState<Record<string, unknown>>({});
  if (!canQuery) {
    return (
      <div className="lx-card">
        <Empty description={<>{t('usage.flow.title')}<br /><Typography.Text type="secondary">{t('usage.flow.noQueryPerm')}</Typography.Text></>} />
      </div>
    );
  }
  const keep = ({ kind: _kind, ...rest }: Record<string, unknown>) => setValues(rest);
  return <FlowList key={kind} kind={kind} onKind={setKind} values={values} onValues={keep} />;
}
