import { useEffect, useState } from 'react';
import { type ButtonProps, App, Button, DatePicker, Empty, Space, Table, Tag, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import type { Dayjs } from 'dayjs';
import {
  CardState, DsimSwitchReason, DsimSwitchState, Operator, dsim, formatCount, formatDateTime, formatSize, withZoneLabel, type ResponseOf,
} from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { LiveText } from '../../../../request/LiveText.tsx';
import { DetailPage } from '../../../../components/DetailPage.tsx';
import { Section } from '../../../../components/Section.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { businessTodayPicker } from '../../../../components/businessTime.ts';
import { OperatorTag, StrategySelect, SWITCH_COLORS, failText, useLang } from '../shared.tsx';

type Member = ResponseOf<typeof dsim.getDsimInfo>['members'][number];
type Flow = ResponseOf<typeof dsim.getDsimFlowUse>['list'][number];
type SwitchRecord = ResponseOf<typeof dsim.getDsimChangeRecordPage>['list'][number];
const PAGE = 10;
const FLOW_MAX_DAYS = 93;

/**
 * /card/dsimlist/detail/:sn/:isSupplierCard (2090000): one super SIM: its profiles per operator with a switch by hand
 * (after a confirmation), its strategy, usage per operator over a date range, and its switch records.
 */
export default function DsimDetail() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { message, modal } = App.useApp();
  const { sn = '' } = useParams();
  const T = (k: string, o?: Record<string, unknown>) => t(`dsim.${k}`, o);
  const valid = new RegExp(dsim.DSIM_SN_PATTERN).test(sn);
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [businessTodayPicker().subtract(29, 'day'), businessTodayPicker()]);
  const [current, setCurrent] = useState(1);
  const [strategy, setStrategy] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const info = useQuery({
    queryKey: [dsim.getDsimInfo.name, sn],
    queryFn: ({ signal }) => call(dsim.getDsimInfo, { snNumber: sn }, { signal, silent: true }),
    enabled: valid,
  });
  const d = info.data;
  useEffect(() => {
    if (d) setStrategy(d.strategyId);
  }, [d]);
  const flow = useQuery({
    queryKey: [dsim.getDsimFlowUse.name, sn, range[0].format('YYYY-MM-DD'), range[1].format('YYYY-MM-DD')],
    queryFn: ({ signal }) => call(dsim.getDsimFlowUse, { snNumber: sn, startDate: range[0].format('YYYY-MM-DD'), endDate: range[1].format('YYYY-MM-DD') }, { signal }),
    enabled: !!d,
  });
  const records = useQuery({
    queryKey: [dsim.getDsimChangeRecordPage.name, sn, current],
    queryFn: ({ signal }) => call(dsim.getDsimChangeRecordPage, { snNumber: sn, current, pageSize: PAGE }, { signal }),
    enabled: !!d,
    placeholderData: keepPreviousData,
    // an open request is asked again by the server's sweep: follow it
    refetchInterval: (q) => (q.state.data?.list.some((r) => r.state === DsimSwitchState.Requested) ? 5000 : false),
  });
  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: [dsim.getDsimInfo.name, sn] });
    await qc.invalidateQueries({ queryKey: [dsim.getDsimChangeRecordPage.name, sn] });
    await qc.invalidateQueries({ queryKey: [dsim.getDsimPage.name] });
  };

  const switchTo = (m: Member) => {
    if (!d) return;
    const to = Operator.label(m.operatorId, lang);
    modal.confirm({
      title: T('switchTitle'),
      content: T('switchConfirm', { sn: d.sn, from: Operator.label(d.currentOperatorId, lang), to }),
      okButtonProps: { 'data-testid': 'dsim-switch-ok' } as ButtonProps,
      onOk: async () => {
        try {
          const r = await call(dsim.switchOperator, { snNumber: d.sn, operator: m.operatorId });
          if (r.state === DsimSwitchState.Succeeded) message.success(T('switchOk', { to }));
          else if (r.state === DsimSwitchState.Requested) message.info(T('switchPending'));
          else message.error(T('switchFailed', { reason: failText(r, t) }));
          setCurrent(1);
          await refresh();
        } catch { /* shown by the request layer */ }
      },
    });
  };
  const saveStrategy = async () => {
    setSaving(true);
    try {
      await call(dsim.chooseStrategy, { snNumbers: [sn], strategyId: strategy });
      message.success(<LiveText k="dsim.strategySaved" />);
      await refresh();
      await qc.invalidateQueries({ queryKey: [dsim.getOemStrategyPage.name] });
    } catch { /* shown */ } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/card/dsimlist/list')}>{T('back')}</Button>
      </Space>
      <DetailPage
        loading={valid && info.isLoading}
        error={!valid || info.isError ? true : undefined}
        title={d ? T('detailTitle', { sn: d.sn }) : ''}
        items={d ? [
          { label: T('sn'), value: d.sn },
          { label: T('supplier'), value: d.isSupplierCard ? <Tag color="gold">{T('yes')}</Tag> : T('no') },
          { label: T('customer'), value: d.custName ?? T('stock') },
          { label: T('currentOperator'), value: <span data-testid="dsim-current-operator"><OperatorTag value={d.currentOperatorId} /></span> },
          { label: T('currentIccid'), value: d.currentIccid },
          { label: withZoneLabel(T('switchedAt')), value: d.switchedAt ? formatDateTime(d.switchedAt) : '-' },
          {
            label: T('strategy'), span: 3,
            value: (
              <Space wrap>
                <StrategySelect value={strategy} onChange={setStrategy} testId="dsim-detail-strategy" />
                <Button type="primary" loading={saving} disabled={strategy === d.strategyId} onClick={() => void saveStrategy()}>{T('saveStrategy')}</Button>
              </Space>
            ),
          },
        ] : []}
      >
        {d && (
          <>
            <Section title={T('profiles')} testId="dsim-profiles">
              <Table<Member>
                size="small" rowKey="operatorId" dataSource={d.members} pagination={false} scroll={{ x: 'max-content' }}
                columns={[
                  { title: T('operator'), dataIndex: 'operatorId', key: 'operatorId', render: (v: number) => <OperatorTag value={v} /> },
                  { title: 'ICCID', dataIndex: 'iccid', key: 'iccid' },
                  { title: 'IMSI', dataIndex: 'imsi', key: 'imsi', render: (v: string | null) => v ?? '-' },
                  { title: 'MSISDN', dataIndex: 'msisdn', key: 'msisdn', render: (v: string | null) => v ?? '-' },
                  { title: T('cardState'), dataIndex: 'state', key: 'state', render: (v: number) => <StatusTag enumOf={CardState} value={v} /> },
                  { title: T('online'), dataIndex: 'online', key: 'online', render: (v: boolean) => <Tag color={v ? 'success' : 'default'}>{v ? T('online') : T('offline')}</Tag> },
                  { title: withZoneLabel(T('lastSession')), dataIndex: 'lastSessionAt', key: 'lastSessionAt', render: (v: string | null) => (v ? formatDateTime(v) : '-') },
                  {
                    title: t('common.actions'), key: 'actions', fixed: 'right',
                    render: (_: unknown, m) => (m.current
                      ? <Tag color="success">{T('current')}</Tag>
                      : <Button size="small" onClick={() => switchTo(m)} data-testid={`dsim-switch-${m.operatorId}`}>{T('switchTo')}</Button>),
                  },
                ]}
              />
            </Section>
            <Section
              title={T('usage')} testId="dsim-usage"
              extra={(
                <DatePicker.RangePicker
                  value={range} allowClear={false}
                  disabledDate={(day, i) => (i?.from ? Math.abs(day.diff(i.from, 'day')) >= FLOW_MAX_DAYS : false)}
                  onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
                />
              )}
            >
              <Typography.Paragraph type="secondary">{T('usageHint', { max: FLOW_MAX_DAYS })}</Typography.Paragraph>
              <Table<Flow>
                size="small" rowKey="operatorId" loading={flow.isFetching} dataSource={flow.data?.list ?? []} pagination={false}
                columns={[
                  { title: T('operator'), dataIndex: 'operatorId', key: 'operatorId', render: (v: number) => <OperatorTag value={v} /> },
                  { title: 'ICCID', dataIndex: 'iccid', key: 'iccid' },
                  { title: T('bytes'), dataIndex: 'bytes', key: 'bytes', align: 'right', render: (v: number) => formatSize(v) },
                  { title: T('sms'), dataIndex: 'sms', key: 'sms', align: 'right', render: (v: number) => formatCount(v) },
                  { title: T('sessions'), dataIndex: 'sessions', key: 'sessions', align: 'right', render: (v: number) => formatCount(v) },
                  { title: T('days'), dataIndex: 'days', key: 'days', align: 'right' },
                ]}
              />
            </Section>
            <Section title={T('records')} testId="dsim-records">
              <Table<SwitchRecord>
                size="small" rowKey="switchId" loading={records.isFetching} dataSource={records.data?.list ?? []} scroll={{ x: 'max-content' }}
                locale={{ emptyText: <Empty description={T('noRecords')} /> }}
                pagination={{ current, pageSize: PAGE, total: records.data?.total ?? 0, onChange: setCurrent, showSizeChanger: false }}
                columns={[
                  { title: withZoneLabel(T('requestedAt')), dataIndex: 'requestedAt', key: 'requestedAt', render: (v: string) => formatDateTime(v) },
                  { title: T('from'), dataIndex: 'fromOperatorId', key: 'from', render: (v: number | null) => (v == null ? '-' : <OperatorTag value={v} />) },
                  { title: T('to'), dataIndex: 'toOperatorId', key: 'to', render: (v: number) => <OperatorTag value={v} /> },
                  {
                    title: T('reason'), dataIndex: 'reason', key: 'reason',
                    render: (v: number, r) => <>{DsimSwitchReason.label(v, lang)}{r.strategyName ? ` · ${r.strategyName}` : ''}</>,
                  },
                  { title: T('state'), dataIndex: 'state', key: 'state', render: (v: number) => <StatusTag enumOf={DsimSwitchState} value={v} colors={SWITCH_COLORS} /> },
                  { title: T('failReason'), dataIndex: 'failReason', key: 'failReason', render: (_: string | null, r) => (r.state === DsimSwitchState.Failed ? failText(r, t) : '-') },
                  { title: T('actor'), dataIndex: 'actor', key: 'actor', render: (v: string) => (v === 'strategy' ? T('strategyAuto') : v) },
                  { title: withZoneLabel(T('doneAt')), dataIndex: 'doneAt', key: 'doneAt', render: (v: string | null) => (v ? formatDateTime(v) : '-') },
                  { title: T('requestId'), dataIndex: 'requestId', key: 'requestId', render: (v: string | null) => v ?? '-' },
                ]}
              />
            </Section>
          </>
        )}
      </DetailPage>
    </>
  );
}
