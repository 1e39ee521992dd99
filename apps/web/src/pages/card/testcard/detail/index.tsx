import { Alert, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { CardActionKind, CardChangeSource, CardState, Operator, cardcat, formatDateTime, type ResponseOf, withZoneLabel } from '@lynx/contract';
import { DetailPage } from '../../../../components/DetailPage.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { call } from '../../../../request/http.ts';
import { STATE_COLORS } from '../../card-list/list/index.tsx';
import { IccidLink } from '../../card-list/selectionTools.tsx';
import { TestCardActions } from '../TestCardActions.tsx';
import { DaysLeft, TestUsage, kb } from '../shared.tsx';
import { historyReason } from '../../history.ts';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

type History = ResponseOf<typeof cardcat.getTestCardDetail>['history'][number];

/** /card/testcard/detail/:iccid: the card's test period, test data and state history, with end / extend. */
export default function TestCardDetail() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const iccid = useParams().iccid ?? '';
  const valid = /^\d{19,20}$/.test(iccid);
  const detail = useQuery({
    queryKey: [cardcat.getTestCardDetail.name, iccid],
    queryFn: ({ signal }) => call(cardcat.getTestCardDetail, { iccid }, { signal, silent: true }),
    enabled: valid,
  });
  const T = (k: string, o?: Record<string, unknown>) => t(`cardcat.testCard.${k}`, o);
  const d = detail.data;
  usePageTitle(d ? iccid : null);
  const c = d?.card;
  const inTest = c?.state === CardState.Test;

  return (
    <DetailPage
      loading={valid && detail.isLoading}
      error={!valid ? true : (detail.error ?? (detail.isSuccess && !d ? true : undefined))}
      title={T('detailTitle')}
      extra={c && inTest && <TestCardActions iccid={c.iccid} testEndAt={c.testEndAt} size="middle" type="default" />}
      items={
        c
          ? [
              { label: T('iccid'), value: <IccidLink iccid={c.iccid} /> },
              { label: T('msisdn'), value: c.msisdn ?? '-' },
              { label: T('imsi'), value: c.imsi ?? '-' },
              { label: T('state'), value: <StatusTag enumOf={CardState} value={c.state} colors={STATE_COLORS} /> },
              { label: T('customer'), value: c.custName ?? <Tag>{t('carddata.list.stock')}</Tag> },
              { label: T('operator'), value: Operator.label(c.operatorId, lang) },
              { label: T('plan'), value: c.planName ?? '-' },
              { label: T('silentPeriod'), value: c.goodsReleaseId !== null ? T('silentMonths', { n: d.silentPeriodMonths }) : '-' },
              { label: T('online'), value: <Tag color={c.online ? 'success' : 'default'}>{T(c.online ? 'onlineYes' : 'onlineNo')}</Tag> },
              { label: withZoneLabel(T('testStartAt')), value: c.testStartAt ? formatDateTime(c.testStartAt) : '-' },
              { label: withZoneLabel(T('testEndAt')), value: c.testEndAt ? formatDateTime(c.testEndAt) : '-' },
              { label: T('daysLeft'), value: inTest ? <DaysLeft testEndAt={c.testEndAt} /> : '-' },
              { label: withZoneLabel(T('latestTestEnd')), value: d.latestTestEnd ? formatDateTime(d.latestTestEnd) : '-' },
              { label: T('testQuota'), value: kb(c.testQuotaKb) },
              { label: T('testUsed'), value: <TestUsage usedKb={c.testUsedKb} quotaKb={c.testQuotaKb} /> },
            ]
          : []
      }
    >
      {c && !inTest && <Alert type="info" showIcon style={{ marginTop: 16 }} message={T('notInTest', { state: CardState.label(c.state, lang) })} />}
      <div className="lx-card">
        <Typography.Title level={5} style={{ marginTop: 0 }}>{T('history')}</Typography.Title>
        <Table<History>
          rowKey={(h) => `${h.at}-${h.fromState}-${h.toState}-${h.action}`}
          dataSource={d?.history ?? []}
          pagination={false}
          size="small"
          scroll={{ x: 'max-content' }}
          columns={[
            { title: withZoneLabel(T('at')), dataIndex: 'at', width: 170, render: (v: string) => formatDateTime(v) },
            { title: T('from'), dataIndex: 'fromState', width: 120, render: (v: number | null) => (v == null ? '-' : <StatusTag enumOf={CardState} value={v} colors={STATE_COLORS} />) },
            { title: T('to'), dataIndex: 'toState', width: 120, render: (v: number | null) => (v == null ? '-' : <StatusTag enumOf={CardState} value={v} colors={STATE_COLORS} />) },
            { title: T('action'), dataIndex: 'action', width: 140, render: (v: number | null) => (v == null ? '-' : CardActionKind.label(v, lang)) },
            { title: T('source'), dataIndex: 'source', width: 120, render: (v: number) => CardChangeSource.label(v, lang) },
            { title: T('actor'), dataIndex: 'actor', width: 120, render: (v: string | null) => v ?? '-' },
            { title: T('reason'), dataIndex: 'reason', render: (_: unknown, r: History) => historyReason(r) },
          ]}
        />
      </div>
    </DetailPage>
  );
}
