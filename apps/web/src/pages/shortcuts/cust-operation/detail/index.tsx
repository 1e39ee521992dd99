import { useState } from 'react';
import { Alert, Button, Empty, List, Progress, Space, Table, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { custoperation, formatCount, formatDateTime, formatSize, pool, withZoneLabel, type Lang, type ResponseOf } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { DetailPage } from '../../../../components/DetailPage.tsx';
import { Section } from '../../../../components/Section.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { voiceMinutes } from '../../../report/shared.tsx';
import { accountLabel, zoneLabelOf } from '../shared.tsx';

type CardRow = ResponseOf<typeof custoperation.getCustOperationCardPage>['list'][number];
type Alarm = ResponseOf<typeof custoperation.getCustOperationDetail>['alarms'][number];
const ALARM_COLORS: Record<number, string> = { 6: 'warning', 1: 'error', 5: 'success', 3: 'processing' };
const PAGE = 20;

/**
 * /shortcuts/cust-operation/detail/:accountName/:ratePlanName/:zoneName/:queryDate (6030000): one row's pool: the day's
 * usage, the China Unicom billing period (from the 26th) up to the day against the pooled quota, the pooled-usage alarm
 * messages of the period, and the day's cards.
 */
export default function CustOperationDetail() {
  const { t, i18n } = useTranslation();
  const lang = (i18n.language === 'zh' ? 'zh' : 'en') as Lang;
  const navigate = useNavigate();
  const { accountName = '', ratePlanName = '', zoneName = '', queryDate = '' } = useParams();
  const key = { accountName, ratePlanName, zoneName, queryDate };
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(queryDate) && !!accountName && !!ratePlanName && !!zoneName;
  const T = (k: string, o?: Record<string, unknown>) => t(`custoperation.${k}`, o);
  const [current, setCurrent] = useState(1);
  const q = useQuery({
    queryKey: [custoperation.getCustOperationDetail.name, key],
    queryFn: ({ signal }) => call(custoperation.getCustOperationDetail, key, { signal, silent: true }),
    enabled: valid,
  });
  const cards = useQuery({
    queryKey: [custoperation.getCustOperationCardPage.name, key, current],
    queryFn: ({ signal }) => call(custoperation.getCustOperationCardPage, { ...key, current, pageSize: PAGE }, { signal }),
    enabled: valid && !!q.data,
    placeholderData: keepPreviousData,
  });
  const d = q.data;
  const pct = d && d.pooledQuotaBytes > 0 ? Math.round((d.periodBytes * 1000) / d.pooledQuotaBytes) / 10 : null;
  const alarmText = (a: Alarm) => T(`alarm.${a.type}`, {
    pool: a.poolName, used: a.usedBytes == null ? '-' : formatSize(a.usedBytes), quota: a.quotaBytes == null ? '-' : formatSize(a.quotaBytes),
    percent: a.alertPercent, cards: a.memberCount ?? '-',
  });

  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/shortcuts/cust-operation/list')}>{T('back')}</Button>
      </Space>
      <DetailPage
        loading={valid && q.isLoading}
        error={!valid || q.isError ? true : undefined}
        title={d ? T('detailTitle', { plan: d.row.ratePlanName, day: d.row.queryDate }) : ''}
        items={d ? [
          { label: T('account'), value: accountLabel(d.row, lang) },
          { label: T('ratePlan'), value: `${d.row.ratePlanName} (${d.row.ratePlanCode})` },
          { label: T('zone'), value: zoneLabelOf(d.row, lang) },
          { label: T('queryDate'), value: d.row.queryDate },
          { label: T('cards'), value: formatCount(d.row.cards) },
          { label: T('bytes'), value: formatSize(d.row.bytes) },
          { label: T('sms'), value: formatCount(d.row.sms) },
          { label: T('voice'), value: voiceMinutes(d.row.voiceSeconds) },
          { label: T('sessions'), value: formatCount(d.row.sessions) },
          { label: T('period'), value: T('periodValue', { from: d.periodFrom, to: d.periodTo }) },
          { label: T('periodCards'), value: formatCount(d.periodCards) },
          { label: T('quotaPerCard'), value: d.row.quotaMb > 0 ? formatSize(d.row.quotaMb * 1024 * 1024) : T('noQuota') },
          {
            label: T('pooled'), span: 3,
            value: (
              <div data-testid="cuop-pooled">
                <div>{T('pooledValue', { used: formatSize(d.periodBytes), quota: d.pooledQuotaBytes > 0 ? formatSize(d.pooledQuotaBytes) : T('noQuota') })}</div>
                {pct != null && <Progress percent={Math.min(100, pct)} format={() => `${pct}%`} status={pct >= 100 ? 'exception' : 'normal'} style={{ maxWidth: 360 }} />}
              </div>
            ),
          },
        ] : []}
      >
        {d && (
          <>
            <Alert type="info" showIcon style={{ margin: '12px 0' }} title={T('detailHint', { from: d.periodFrom })} />
            <Section title={withZoneLabel(T('alarmsTitle'))} testId="cuop-alarms">
              {d.alarms.length === 0
                ? <Empty description={T('noAlarms')} />
                : (
                  <List<Alarm>
                    size="small"
                    dataSource={d.alarms}
                    renderItem={(a) => (
                      <List.Item key={a.eventId}>
                        <Space wrap>
                          <StatusTag enumOf={pool.PoolEventType} value={a.type} colors={ALARM_COLORS} />
                          <Typography.Text>{alarmText(a)}</Typography.Text>
                          <Typography.Text type="secondary">{formatDateTime(a.at)}</Typography.Text>
                        </Space>
                      </List.Item>
                    )}
                  />
                )}
            </Section>
            <Section title={T('cardsTitle')} testId="cuop-cards">
              <Table<CardRow>
                size="small"
                rowKey="iccid"
                loading={cards.isFetching}
                dataSource={cards.data?.list ?? []}
                scroll={{ x: 'max-content' }}
                pagination={{ current, pageSize: PAGE, total: cards.data?.total ?? 0, showSizeChanger: false, onChange: setCurrent }}
                locale={{ emptyText: <Empty description={T('noCards')} /> }}
                columns={[
                  { title: 'ICCID', dataIndex: 'iccid', key: 'iccid' },
                  { title: 'MSISDN', dataIndex: 'msisdn', key: 'msisdn', render: (v: string | null) => v ?? '-' },
                  { title: T('customer'), dataIndex: 'custName', key: 'custName', render: (v: string | null) => v ?? T('stock') },
                  { title: T('dayBytes'), dataIndex: 'bytes', key: 'bytes', align: 'right', render: (v: number) => formatSize(v) },
                  { title: T('sms'), dataIndex: 'sms', key: 'sms', align: 'right', render: (v: number) => formatCount(v) },
                  { title: T('sessions'), dataIndex: 'sessions', key: 'sessions', align: 'right', render: (v: number) => formatCount(v) },
                  { title: T('periodBytes'), dataIndex: 'periodBytes', key: 'periodBytes', align: 'right', render: (v: number) => formatSize(v) },
                ]}
              />
            </Section>
          </>
        )}
      </DetailPage>
    </>
  );
}
