import { useState, type ReactNode } from 'react';
import { Alert, Card, Col, Descriptions, Empty, Progress, Row, Space, Statistic, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  BillLineCategory, BillPublishState, CardActionKind, CardChangeSource, Perm, bill, formatSize, CardState, CommServType, NetworkType, Operator, OverageGrade, PlanCycleUnit, PlanOperationMode, PlanRenewalMode,
  TariffType, ChargeEvent, ChargeState, withholding, carddetail, formatDate, formatDateRange, formatDateTime, formatMoney, formatSizeFromMB, pool, regionName, type ResponseOf, withZoneLabel,
} from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { STATE_COLORS } from '../list/index.tsx';
import { POOL_STATE_COLORS } from '../../pool/shared.tsx';
import { STATE_COLORS as CHARGE_STATE_COLORS } from '../../../report/prepaidCost/shared.tsx';
import { historyReason } from '../../history.ts';
import { useSession } from '../../../../stores/session.ts';

type Basic = ResponseOf<typeof carddetail.getCardDetail>;
const dt = (v: string | null | undefined) => (v ? formatDateTime(v) : '-');

export function useLang() {
  const { t, i18n } = useTranslation();
  return { t, lang: (i18n.language === 'en' ? 'en' : 'zh') as 'zh' | 'en' };
}

/** One section's query, keyed by the card. */
export function useCardQuery<E extends Parameters<typeof call>[0]>(endpoint: E, iccid: string, enabled = true) {
  return useQuery({
    queryKey: [endpoint.name, iccid],
    queryFn: ({ signal }) => call(endpoint, { iccid } as never, { signal, silent: true }),
    enabled,
  });
}

const Section = ({ title, children, extra }: { title: ReactNode; children: ReactNode; extra?: ReactNode }) => (
  <Card size="small" title={title} extra={extra} style={{ marginBottom: 16 }}>{children}</Card>
);

export function BasicTab({ d }: { d: Basic }) {
  const { t, lang } = useLang();
  const f = (k: string) => t(`carddetail.f.${k}`);
  const items: [string, ReactNode][] = [
    [f('iccid'), <Typography.Text copyable>{d.iccid}</Typography.Text>],
    [f('msisdn'), d.msisdn ?? '-'],
    [f('imsi'), d.imsi ?? '-'],
    [f('imei'), d.imei ?? '-'],
    [f('state'), <StatusTag enumOf={CardState} value={d.state} colors={STATE_COLORS} />],
    [f('operator'), Operator.label(d.operatorId, lang)],
    [f('customer'), d.custName ?? <Tag>{t('carddetail.stock')}</Tag>],
    ...(d.rootCustName ? [[f('rootCustomer'), d.rootCustName] as [string, ReactNode]] : []),
    [f('cardType'), d.cardTypeName ?? '-'],
    [f('labels'), d.labels.length ? <Space size={4} wrap>{d.labels.map((l) => <Tag key={l.labelId}>{l.name}</Tag>)}</Space> : '-'],
    [t('pool.card.pool'), d.poolId ? (
      <Space size={4} wrap>
        <Link to={`/card/pool/detail/${d.poolId}`}>{d.poolName ?? d.poolId}</Link>
        {d.poolState != null && <StatusTag enumOf={pool.PoolState} value={d.poolState} colors={POOL_STATE_COLORS} />}
      </Space>
    ) : '-'],
    [f('custom1'), d.custom1 ?? '-'],
    [f('custom2'), d.custom2 ?? '-'],
    [f('online'), <Tag color={d.online ? 'success' : 'default'}>{t(d.online ? 'carddetail.online' : 'carddetail.offline')}</Tag>],
    [withZoneLabel(f('lastSessionAt')), dt(d.lastSessionAt)],
    [f('batch'), d.batchNo ?? '-'],
    [withZoneLabel(f('activatedAt')), dt(d.activatedAt)],
    [withZoneLabel(f('firstUsedAt')), dt(d.firstUsedAt)],
    [withZoneLabel(f('testEndAt')), dt(d.testEndAt)],
    [withZoneLabel(f('silentEndAt')), dt(d.silentEndAt)],
    [f('renewalMode'), d.renewalMode != null ? PlanRenewalMode.label(d.renewalMode, lang) : '-'],
    [f('operationMode'), d.operationMode != null ? PlanOperationMode.label(d.operationMode, lang) : '-'],
    [f('euicc'), t(d.euicc ? 'carddetail.yes' : 'carddetail.no')],
    [f('eid'), d.eid ?? '-'],
    [withZoneLabel(f('createdAt')), dt(d.createdAt)],
    [withZoneLabel(f('updatedAt')), dt(d.updatedAt)],
  ];
  return <Descriptions bordered size="small" column={{ xs: 1, sm: 1, md: 2, xl: 3 }} items={items.map(([label, children], key) => ({ key, label, children }))} />;
}

export function HistoryTab({ iccid }: { iccid: string }) {
  const { t, lang } = useLang();
  const [page, setPage] = useState({ current: 1, pageSize: 10 });
  const q = useQuery({
    queryKey: [carddetail.getCardHistoryPage.name, iccid, page],
    queryFn: ({ signal }) => call(carddetail.getCardHistoryPage, { iccid, ...page }, { signal }),
  });
  const H = (k: string) => t(`carddetail.history.${k}`);
  const state = (v: number | null) => <StatusTag enumOf={CardState} value={v} colors={STATE_COLORS} />;
  return (
    <Table size="small" rowKey="historyId" loading={q.isFetching} dataSource={q.data?.list ?? []} scroll={{ x: 1000 }}
      locale={{ emptyText: <Empty description={H('empty')} /> }}
      pagination={{ ...page, total: q.data?.total ?? 0, showSizeChanger: true, onChange: (current, pageSize) => setPage({ current, pageSize }) }}
      columns={[
        { title: withZoneLabel(H('at')), dataIndex: 'at', width: 170, render: dt },
        { title: H('action'), dataIndex: 'action', width: 150, render: (v: number | null) => (v != null ? CardActionKind.label(v, lang) : H('stateChange')) },
        { title: H('from'), dataIndex: 'fromState', width: 110, render: state },
        { title: H('to'), dataIndex: 'toState', width: 110, render: state },
        { title: H('source'), dataIndex: 'source', width: 120, render: (v: number) => CardChangeSource.label(v, lang) },
        { title: H('actor'), dataIndex: 'actor', width: 120, render: (v: string | null) => v ?? '-' },
        { title: H('plan'), dataIndex: 'planName', width: 160, render: (v: string | null) => v ?? '-' },
        { title: H('reason'), dataIndex: 'reason', render: (_: unknown, r: { reason: string | null; note: string | null }) => historyReason(r) },
      ]} />
  );
}

const CyclesStat = ({ title, c }: { title: string; c: { total: number; used: number; remaining: number } }) => {
  const { t } = useLang();
  const P = (k: string) => t(`carddetail.plan.${k}`);
  return (
    <Card size="small" title={title}>
      <Row gutter={16}>
        <Col span={8}><Statistic title={P('total')} value={c.total} /></Col>
        <Col span={8}><Statistic title={P('used')} value={c.used} /></Col>
        <Col span={8}><Statistic title={P('remaining')} value={c.remaining} /></Col>
      </Row>
    </Card>
  );
};

export function PlanTab({ iccid }: { iccid: string }) {
  const { t, lang } = useLang();
  const q = useCardQuery(carddetail.getCardCycle, iccid);
  const P = (k: string, o?: Record<string, unknown>) => t(`carddetail.plan.${k}`, o);
  const d = q.data;
  if (!d) return <Card loading />;
  return (
    <>
      <Section title={P('current')}>
        {d.plan ? (
          <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} items={([
            [P('current'), d.plan.name],
            [P('tariff'), TariffType.label(d.plan.tariffType, lang)],
            [P('cycle'), `${d.plan.cycleValue} ${PlanCycleUnit.label(d.plan.cycleUnit, lang)}`],
            [P('duration'), P('months', { n: d.plan.durationMonths })],
            [P('quota'), formatSizeFromMB(d.plan.quotaMb)],
            [P('apns'), d.plan.apns.length ? d.plan.apns.join(', ') : '-'],
            // periods are the business days they cover, not instants: 2026-11-01 – 2026-11-30
            [P('contract'), d.contractStartAt ? (d.contractEndAt ? formatDateRange(d.contractStartAt, d.contractEndAt) : `${formatDate(d.contractStartAt)} –`) : '-'],
            [P('currentCycle'), d.cycleStartAt && d.cycleEndAt ? formatDateRange(d.cycleStartAt, d.cycleEndAt) : '-'],
            [withZoneLabel(P('lastChange')), dt(d.lastPlanChangeAt)],
          ] as [string, ReactNode][]).map(([label, children], key) => ({ key, label, children }))} />
        ) : <Empty description={P('noPlan')} />}
      </Section>
      {d.pendingPlan && (
        <Alert style={{ marginBottom: 16 }} type="info" showIcon message={`${P('pending')}: ${d.pendingPlan.plan.name}`}
          description={`${P('pendingAt')}: ${d.pendingPlan.effectiveAt ? dt(d.pendingPlan.effectiveAt) : P('onActivation')} · ${P('requestedAt')}: ${dt(d.pendingPlan.requestedAt)}`} />
      )}
      {d.pendingPriceChange && <Alert style={{ marginBottom: 16 }} type="warning" showIcon message={P('pendingPrice')} />}
      <Row gutter={16} style={{ marginBottom: 16 }}>
        <Col xs={24} md={12}><CyclesStat title={P('bCycles')} c={d.bCycles} /></Col>
        <Col xs={24} md={12}>
          {d.cCycles ? <CyclesStat title={P('cCycles')} c={d.cCycles} /> : (
            <Card size="small" title={P('cCycles')}><Typography.Text type="secondary">{P('cNone')}</Typography.Text></Card>
          )}
        </Col>
      </Row>
      <Section title={P('packs')}>
        <Table size="small" rowKey="orderId" pagination={false} dataSource={d.eventPacks} locale={{ emptyText: <Empty description={P('noPacks')} /> }}
          columns={[
            { title: P('packName'), dataIndex: 'packName', render: (v: string | null, r) => v ?? `#${r.packId}` },
            { title: P('quota'), dataIndex: 'quotaMb', width: 110, render: (v: number | null) => (v != null ? formatSizeFromMB(v) : '-') },
            { title: withZoneLabel(P('packPeriod')), key: 'p', width: 340, render: (_: unknown, r) => `${dt(r.startsAt)} ~ ${dt(r.endsAt)}` },
            { title: P('orderedBy'), dataIndex: 'orderedBy', width: 120, render: (v: string | null) => v ?? '-' },
            { title: '', dataIndex: 'active', width: 90, render: (v: boolean) => <Tag color={v ? 'success' : 'default'}>{P(v ? 'packActive' : 'packEnded')}</Tag> },
          ]} />
      </Section>
    </>
  );
}

export function PolicyTab({ iccid }: { iccid: string }) {
  const { t, lang } = useLang();
  const q = useCardQuery(carddetail.getCardPolicy, iccid);
  const apn = useCardQuery(carddetail.getCardApnOnline, iccid);
  const P = (k: string) => t(`carddetail.policy.${k}`);
  const A = (k: string) => t(`carddetail.apn.${k}`);
  const d = q.data;
  const a = apn.data;
  return (
    <>
      <Section title={A('title')}>
        {a && (
          <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} items={([
            [t('carddetail.f.online'), <Tag color={a.online ? 'success' : 'default'}>{t(a.online ? 'carddetail.online' : 'carddetail.offline')}</Tag>],
            [A('lastApn'), a.apn ?? A('noSession')],
            [withZoneLabel(t('carddetail.f.lastSessionAt')), dt(a.lastSessionAt)],
            [withZoneLabel(A('sessionStart')), dt(a.sessionStartAt)],
            [A('sessionEnd'), a.sessionStartAt && !a.sessionEndAt ? <Tag color="processing">{t('carddetail.usage.open')}</Tag> : dt(a.sessionEndAt)],
            [A('planApns'), a.planApns.length ? a.planApns.join(', ') : '-'],
          ] as [string, ReactNode][]).map(([label, children], key) => ({ key, label, children }))} />
        )}
      </Section>
      <Section title={P('zones')}>
        <Table size="small" rowKey="zoneId" pagination={false} loading={q.isFetching} dataSource={d?.zones ?? []} locale={{ emptyText: <Empty description={P('noZones')} /> }}
          columns={[
            { title: P('zone'), dataIndex: 'zoneName', width: 150 },
            { title: P('regions'), dataIndex: 'regions', width: 180, render: (v: string[]) => v.map((r) => regionName(r, lang)).join(', ') || '-' },
            { title: P('quota'), dataIndex: 'quotaMb', width: 110, render: (v: number | null) => (v != null ? formatSizeFromMB(v) : '-') },
            {
              title: P('services'), dataIndex: 'services',
              render: (v: { commservId: number; name: string; type: number }[]) => <Space size={4} wrap>{v.map((s) => <Tag key={s.commservId}>{s.name} · {CommServType.label(s.type, lang)}</Tag>)}</Space>,
            },
            { title: '', dataIndex: 'blocked', width: 90, render: (v: boolean) => <Tag color={v ? 'error' : 'success'}>{P(v ? 'blocked' : 'allowed')}</Tag> },
          ]} />
      </Section>
      <Section title={P('blocks')}>
        <Table size="small" rowKey={(r) => `${r.kind}-${r.targetId}`} pagination={false} dataSource={d?.blocks ?? []} locale={{ emptyText: <Empty description={P('noBlocks')} /> }}
          columns={[
            { title: P('kind'), dataIndex: 'kind', width: 100, render: (v: string) => P(`kinds.${v}`) },
            { title: P('target'), key: 'target', render: (_: unknown, r) => (r.kind === 'network' ? NetworkType.label(r.targetId, lang) : r.name ?? `#${r.targetId}`) },
            { title: P('byDeactivation'), dataIndex: 'byDeactivation', width: 140, render: (v: boolean) => t(v ? 'carddetail.yes' : 'carddetail.no') },
            { title: withZoneLabel(P('blockedAt')), dataIndex: 'blockedAt', width: 170, render: dt },
            { title: P('blockedBy'), dataIndex: 'blockedBy', width: 120, render: (v: string | null) => v ?? '-' },
          ]} />
      </Section>
    </>
  );
}

export function BillingTab({ iccid }: { iccid: string }) {
  const { t, lang } = useLang();
  const q = useCardQuery(carddetail.getCardBilling, iccid);
  const B = (k: string) => t(`carddetail.billing.${k}`);
  const d = q.data;
  if (!d) return <Card loading />;
  if (!d.plan) return <Empty description={B('noPlan')} />;
  return (
    <>
      <Descriptions bordered size="small" column={{ xs: 1, md: 2, xl: 3 }} items={([
        [t('carddetail.plan.current'), d.plan.name],
        [B('price'), d.price != null ? formatMoney(d.price) : '-'],
        [B('currency'), d.currency === 'CNY' ? B('cny') : (d.currency ?? '-')],
        [B('tax'), d.taxRate != null ? `${d.taxRate}%` : '-'],
        [B('overage'), d.overagePrice != null ? `${formatMoney(d.overagePrice)} / ${d.overageGrade != null ? OverageGrade.label(d.overageGrade, lang) : '-'}` : '-'],
        [B('renewal'), d.renewalMode != null ? PlanRenewalMode.label(d.renewalMode, lang) : '-'],
        [B('contractMonths'), d.contractMonths],
        [withZoneLabel(B('contractEnd')), dt(d.contractEndAt)],
        [t('carddetail.plan.bCycles'), `${d.bCycles.used} / ${d.bCycles.total}`],
        [B('packs'), d.eventPackCount],
      ] as [string, ReactNode][]).map(([label, children], key) => ({ key, label, children }))} />
      <div style={{ marginTop: 16 }}><CardBillLines iccid={iccid} /></div>
      <div style={{ marginTop: 16 }}><CardCharges iccid={iccid} /></div>
    </>
  );
}

type CardBillLine = ResponseOf<typeof bill.getCardBillLines>['list'][number];

/** The card's lines on bills, newest period first (withheld ones included), each linking to its bill for those who may open bills. */
function CardBillLines({ iccid }: { iccid: string }) {
  const { t, lang } = useLang();
  const B = (k: string) => t(`carddetail.billing.${k}`);
  const canBills = useSession((s) => s.permissions.has(Perm.BillingBill));
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: [bill.getCardBillLines.name, iccid, page],
    queryFn: ({ signal }) => call(bill.getCardBillLines, { iccid, current: page, pageSize: 10 }, { signal, silent: true }),
  });
  return (
    <Section title={B('lines')}>
      {q.isError ? <Alert type="warning" showIcon title={B('linesUnavailable')} /> : (
        <Table<CardBillLine>
          size="small"
          rowKey={(r) => `${r.billId}-${r.category}-${r.fromDay}`}
          loading={q.isFetching}
          dataSource={q.data?.list ?? []}
          scroll={{ x: 'max-content' }}
          pagination={{ current: page, pageSize: 10, total: q.data?.total ?? 0, onChange: setPage, hideOnSinglePage: true }}
          locale={{ emptyText: <Empty description={<>{t('common.empty')}<br /><Typography.Text type="secondary">{B('noLines')}</Typography.Text></>} /> }}
          columns={[
            { title: B('period'), dataIndex: 'periodKey', width: 90 },
            { title: B('billNo'), dataIndex: 'billNo', width: 190, render: (v: string, r) => (canBills ? <Link to={`/billing/bill/spending/detail/${r.billId}`}>{v}</Link> : v) },
            { title: B('category'), dataIndex: 'category', width: 160, render: (v: number) => BillLineCategory.label(v, lang) },
            { title: B('days'), key: 'days', width: 200, render: (_: unknown, r) => (r.fromDay === r.toDay ? r.fromDay : `${r.fromDay} ~ ${r.toDay}`) },
            { title: t('carddetail.plan.current'), dataIndex: 'planName', width: 160, ellipsis: true, render: (v: string | null) => v ?? '-' },
            { title: B('usage'), key: 'usage', width: 160, render: (_: unknown, r) => (r.usedBytes == null ? '-' : r.quotaBytes ? `${formatSize(r.usedBytes)} / ${formatSize(r.quotaBytes)}` : formatSize(r.usedBytes)) },
            { title: t('money.withCurrency', { label: B('amount') }), dataIndex: 'amount', width: 130, align: 'right', render: (v: string) => formatMoney(v) },
            { title: B('withheld'), dataIndex: 'withheld', width: 100, render: (v: boolean) => (v ? <Tag color="cyan">{B('withheldTag')}</Tag> : '-') },
            { title: B('published'), dataIndex: 'published', width: 100, render: (v: number) => <Tag color={v ? 'green' : 'orange'}>{BillPublishState.label(v, lang)}</Tag> },
          ]}
        />
      )}
    </Section>
  );
}

type CardCharge = ResponseOf<typeof withholding.getCardCharges>['list'][number];

/** The card's charges at the event (prepaid terms, packs), newest first, each linking to its withholding record for those who may open them. */
function CardCharges({ iccid }: { iccid: string }) {
  const { t, lang } = useLang();
  const W = (k: string) => t(`withholding.${k}`);
  const canRecords = useSession((s) => s.permissions.has(Perm.ReportPrepaidCost));
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: [withholding.getCardCharges.name, iccid, page],
    queryFn: ({ signal }) => call(withholding.getCardCharges, { iccid, current: page, pageSize: 10 }, { signal, silent: true }),
  });
  return (
    <Section title={W('card.title')}>
      {q.isError ? <Alert type="warning" showIcon title={W('card.unavailable')} /> : (
        <Table<CardCharge>
          size="small"
          rowKey={(r) => `${r.chargeId}`}
          loading={q.isFetching}
          dataSource={q.data?.list ?? []}
          scroll={{ x: 'max-content' }}
          pagination={{ current: page, pageSize: 10, total: q.data?.total ?? 0, onChange: setPage, hideOnSinglePage: true }}
          locale={{ emptyText: <Empty description={<>{t('common.empty')}<br /><Typography.Text type="secondary">{W('card.empty')}</Typography.Text></>} /> }}
          columns={[
            { title: W('chargeNo'), dataIndex: 'chargeNo', width: 140, render: (v: string, r) => (canRecords ? <Link to={`/report/prepaidCost/detail/${r.chargeId}`}>{v}</Link> : v) },
            { title: withZoneLabel(W('at')), dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
            { title: W('event'), dataIndex: 'event', width: 170, render: (v: number) => ChargeEvent.label(v, lang) },
            { title: W('goods'), dataIndex: 'goodsName', width: 180, ellipsis: true },
            { title: W('period'), dataIndex: 'periodKey', width: 90 },
            { title: t('withholding.cardList.days'), key: 'days', width: 200, render: (_: unknown, r) => (r.fromDay === r.toDay ? r.fromDay : `${r.fromDay} ~ ${r.toDay}`) },
            { title: t('money.withCurrency', { label: W('amount') }), dataIndex: 'amount', width: 120, align: 'right', render: (v: string) => formatMoney(v) },
            { title: W('state'), dataIndex: 'state', width: 170, render: (v: number) => <StatusTag enumOf={ChargeState} value={v} colors={CHARGE_STATE_COLORS} /> },
          ]}
        />
      )}
    </Section>
  );
}

/** A quota bar for the usage tab. */
export const QuotaBar = ({ used, quota }: { used: number; quota: number | null }) =>
  quota ? <Progress percent={Math.min(100, Math.round((used / quota) * 1000) / 10)} status={used >= quota ? 'exception' : 'active'} /> : null;
