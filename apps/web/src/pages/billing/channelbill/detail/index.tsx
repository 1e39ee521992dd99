import { useState, type ReactNode } from 'react';
import { Alert, Button, Descriptions, Result, Skeleton, Space, Table, Typography } from 'antd';
import { ArrowLeftOutlined, ReloadOutlined, SyncOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ChannelBillLineState, ChannelBillSource, ChannelBillState, Operator, channelbill, formatCount, formatDateTime, formatSize, withZoneLabel, type ResponseOf } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { usePerm } from '../../../../components/PermButton.tsx';
import { Section } from '../../../../components/Section.tsx';
import { usePageTitle } from '../../../../layout/pageTitle.ts';
import { MoneyCell } from '../../../business/capital/shared.tsx';
import { WithHelp } from '../../bill/shared.tsx';
import { LINE_COLORS, StateCell, channelBillPaths, isBusy, signedSize } from '../shared.tsx';
import { useChannelBillActions } from '../useChannelBillActions.tsx';
import { Lines } from './Lines.tsx';
import { OperatorBillOrigin } from '../OperatorBillOrigin.tsx';
import ChannelBillList from '../list/index.tsx';

type Summary = ResponseOf<typeof channelbill.getChannelBillDetail>['summaries'][number];

/** A failed import's errors by line (line 0: the file as a whole). */
function Errors({ billId }: { billId: number }) {
  const { t } = useTranslation();
  const [current, setCurrent] = useState(1);
  const q = useQuery({
    queryKey: [channelbill.getChannelBillErrors.name, billId, current],
    queryFn: ({ signal }) => call(channelbill.getChannelBillErrors, { billId, current, pageSize: 20 }, { signal }),
  });
  const D = (k: string) => t(`channelbill.detail.${k}`);
  return (
    <Section title={D('errors')} testId="channel-bill-errors">
      <Table size="small" rowKey={(r) => `${r.lineNo}-${r.column}`} loading={q.isFetching} dataSource={q.data?.list ?? []}
        pagination={{ current, pageSize: 20, total: q.data?.total ?? 0, onChange: setCurrent, showSizeChanger: false }}
        columns={[
          { title: D('line'), dataIndex: 'lineNo', width: 90, render: (v: number) => (v === 0 ? D('fileLine') : v) },
          { title: 'ICCID', dataIndex: 'iccid', width: 200, render: (v: string | null) => v ?? '-' },
          { title: D('column'), dataIndex: 'column', width: 140 },
          { title: D('reason'), dataIndex: 'reason' },
        ]} />
    </Section>
  );
}

/**
 * /billing/channelbill/detail/:billId?: one channel bill: what it is (operator, period and the days compared, issuer,
 * file), the job's progress, the reconciliation per result (click a row to list its lines), the lines, or a failed
 * import's errors. Without an id: the list.
 */
export default function ChannelBillDetail() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const qc = useQueryClient();
  const param = useParams().billId;
  const id = Number(param);
  const billId = Number.isInteger(id) && id > 0 ? id : 0;
  const canImport = usePerm(channelbill.ChannelBillPerm.Import);
  const [state, setState] = useState<number | undefined>();
  const q = useQuery({
    queryKey: [channelbill.getChannelBillDetail.name, billId],
    queryFn: ({ signal }) => call(channelbill.getChannelBillDetail, { billId }, { signal, silent: true }),
    enabled: billId > 0,
    refetchInterval: (s) => (s.state.data && isBusy(s.state.data.bill) ? 1500 : false),
  });
  // the tab and breadcrumb name the bill by its number and period (the route's title already says "channel bill")
  usePageTitle(q.data ? `${q.data.bill.billId} · ${q.data.bill.periodKey}` : undefined);
  const refresh = () => {
    void q.refetch();
    void qc.invalidateQueries({ queryKey: [channelbill.getChannelBillLines.name] });
    void qc.invalidateQueries({ queryKey: [channelbill.getChannelBillPage.name] });
  };
  const { remove, reconcile } = useChannelBillActions((deleted) => (deleted ? navigate(channelBillPaths.list) : refresh()));
  const D = (k: string, o?: Record<string, unknown>) => t(`channelbill.detail.${k}`, o);
  const F = (k: string) => t(`channelbill.f.${k}`);

  // the route's id is optional (spec §2): without one, the bills to choose from, on this route's own page
  if (param === undefined) return <ChannelBillList />;
  if (!billId || q.isError) {
    return <div className="lx-card"><Result status="404" subTitle={t('common.notFound')} extra={<Button onClick={() => navigate(channelBillPaths.list)}>{D('back')}</Button>} /></div>;
  }
  const d = q.data;
  if (!d) return <div className="lx-card"><Skeleton active /></div>;
  const b = d.bill;
  const reconciled = b.state === ChannelBillState.Reconciled;

  return (
    <>
      <div className="lx-card" data-testid="channel-bill-detail">
        <div style={{ display: 'flex', alignItems: 'center', gap: 8, flexWrap: 'wrap', marginBottom: 12 }}>
          <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(channelBillPaths.list)}>{D('back')}</Button>
          <Typography.Title level={5} style={{ margin: 0 }}>{D('title', { id: b.billId })}</Typography.Title>
          <StateCell b={b} />
          <Space style={{ marginLeft: 'auto' }} wrap>
            <Button icon={<ReloadOutlined />} onClick={refresh} aria-label={t('common.refresh')} />
            {canImport && reconciled && <Button icon={<SyncOutlined />} onClick={() => void reconcile(b)} data-testid="channel-bill-detail-reconcile">{t('channelbill.action.reconcile')}</Button>}
            {canImport && !isBusy(b) && <Button danger onClick={() => remove(b)} data-testid="channel-bill-detail-delete">{t('channelbill.action.delete')}</Button>}
          </Space>
        </div>
        {isBusy(b) && <Alert type="info" showIcon title={t('channelbill.help.progress')} style={{ marginBottom: 12 }} />}
        <Descriptions bordered size="small" column={{ xs: 1, md: 2, xl: 3 }} items={([
          [F('operator'), Operator.label(b.operatorId, lang)],
          [F('period'), b.periodKey],
          [<WithHelp label={F('periodDays')} help={t('channelbill.help.periodDays')} />, <span data-testid="channel-bill-days">{`${b.periodFrom} ~ ${b.periodTo}`}</span>],
          [F('sourceName'), `${b.sourceName} (${ChannelBillSource.label(b.sourceType, lang)})`],
          b.operatorBill ? [F('origin'), <OperatorBillOrigin origin={b.operatorBill} />] : [F('fileName'), `${b.fileName} · ${formatSize(b.fileSize)}`],
          [F('lines'), b.totalLines ? formatCount(b.totalLines) : '-'],
          [t('money.withCurrency', { label: F('channelAmount') }), b.state === ChannelBillState.Failed ? '-' : <MoneyCell v={b.channelAmount} />],
          [<WithHelp label={t('money.withCurrency', { label: F('disputedAmount') })} help={t('channelbill.help.disputed')} />, reconciled ? <MoneyCell v={b.disputedAmount} /> : '-'],
          [F('findMissing'), b.findMissing ? t('common.yes') : t('common.no')],
          [withZoneLabel(F('createdAt')), `${formatDateTime(b.createdAt)} · ${b.createdBy}`],
          [withZoneLabel(F('reconciledAt')), b.reconciledAt ? formatDateTime(b.reconciledAt) : '-'],
          [F('remark'), b.remark ?? '-'],
        ] as [ReactNode, ReactNode][]).map(([label, children], key) => ({ key, label, children }))} />
      </div>
      {reconciled && (
        <Section title={D('summary')} testId="channel-bill-summary">
          <Table<Summary> size="small" rowKey="state" pagination={false} dataSource={d.summaries}
            onRow={(r) => ({ onClick: () => setState(r.state), style: { cursor: 'pointer' } })}
            columns={[
              { title: F('state'), dataIndex: 'state', width: 170, render: (v: number) => <StatusTag enumOf={ChannelBillLineState} value={v} colors={LINE_COLORS} /> },
              { title: F('lines'), dataIndex: 'lines', width: 110, align: 'right', render: (v: number) => <span data-testid="channel-bill-summary-lines">{formatCount(v)}</span> },
              { title: `${D('dataCol')} · ${D('channel')}`, dataIndex: 'channelBytes', width: 140, align: 'right', render: (v: number) => formatSize(v) },
              { title: `${D('dataCol')} · ${D('platform')}`, dataIndex: 'platformBytes', width: 140, align: 'right', render: (v: number) => formatSize(v) },
              { title: `${D('dataCol')} · ${D('diff')}`, key: 'diff', width: 140, align: 'right', render: (_: unknown, r) => signedSize(r.channelBytes - r.platformBytes, formatSize) },
              { title: `${D('smsCol')} · ${D('channel')} / ${D('platform')}`, key: 'sms', width: 150, align: 'right', render: (_: unknown, r) => `${formatCount(r.channelSms)} / ${formatCount(r.platformSms)}` },
              { title: t('money.withCurrency', { label: F('channelAmount') }), dataIndex: 'channelAmount', width: 150, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
            ]} />
        </Section>
      )}
      {b.state === ChannelBillState.Failed && <Errors billId={b.billId} />}
      {b.state !== ChannelBillState.Failed && (reconciled ? <Lines billId={b.billId} state={state} onState={setState} />
        : <Section title={D('lines')}><Typography.Text type="secondary">{D('notReconciled')}</Typography.Text></Section>)}
    </>
  );
}
