import { useState, type ReactNode } from 'react';
import { App, Button, Col, Descriptions, Result, Row, Skeleton, Space, Statistic, Typography } from 'antd';
import { ArrowLeftOutlined, AuditOutlined, ReloadOutlined, SendOutlined, WalletOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { BillPublishState, BillStatus, Perm, bill, formatDateTime, formatMoney, formatSize, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { usePerm } from '../../../../components/PermButton.tsx';
import { usePageTitle } from '../../../../layout/pageTitle.ts';
import { capitalDetailPath, isNegative } from '../../../business/capital/shared.tsx';
import { WriteOffModal, type WriteOffTarget } from '../../../financial/cancel-bill/WriteOffModal.tsx';
import { BILL_STATUS_COLORS, PUBLISH_COLORS, WRITE_OFF_TABS, WithHelp, billPaths, daysInclusive, isPositive, type BillDetailData } from '../shared.tsx';
import { useBillActions } from '../useBillActions.tsx';
import { CardLines } from './CardLines.tsx';
import { Breakdowns, CategoryTotals, OneOffFees, WriteOffs } from './Sections.tsx';
import { OperatorCost } from './OperatorCost.tsx';

const { BillPerm } = bill;

/** The bill's money in one row: total, tax, withheld, due, written off, arrears. */
function Totals({ b }: { b: BillDetailData['bill'] }) {
  const { t } = useTranslation();
  const F = (k: string) => t('money.withCurrency', { label: t(`bill.f.${k}`) });
  const items: [string, ReactNode, string][] = [
    ['total', F('total'), b.total],
    ['tax', F('taxIncluded'), b.tax],
    ['withheld', <WithHelp label={F('withheld')} help={t('bill.help.withheld')} />, b.withheld],
    ['amountDue', <WithHelp label={F('amountDue')} help={t('bill.help.amountDue')} />, b.amountDue],
    ['writtenOff', F('writtenOff'), b.writtenOff],
    ['arrears', <WithHelp label={F('arrears')} help={t('bill.help.arrears')} />, b.arrears],
  ];
  return (
    <Row gutter={[16, 12]} style={{ marginTop: 16 }} data-testid="bill-totals">
      {items.map(([k, title, v]) => (
        <Col key={k} flex="1 0 150px">
          <div data-testid={`bill-total-${k}`}>
            <Statistic title={title} value={formatMoney(v)}
              styles={{ content: { fontVariantNumeric: 'tabular-nums', ...(k === 'arrears' && isPositive(v) ? { color: '#cf1322' } : isNegative(v) ? { color: '#cf1322' } : {}) } }} />
          </div>
        </Col>
      ))}
    </Row>
  );
}

/**
 * /billing/bill/spending/detail/:billId: one spending bill: status, period, due date and totals; its expenses by
 * category; by plan, operator and card type; the card lines; write-offs; one-off fees; usage over quota not charged.
 * Staff publish or re-run an unpublished bill; a permitted user writes a published one off.
 */
export default function BillDetail() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { message } = App.useApp();
  const id = Number(useParams().billId);
  const billId = Number.isInteger(id) && id > 0 ? id : 0;
  const canPublish = usePerm(BillPerm.Publish);
  const canRun = usePerm(BillPerm.Run);
  const canWriteOff = usePerm(BillPerm.WriteOffDo);
  const canLedger = usePerm([Perm.BusinessCapital, Perm.HomeTileCapital]);
  const D = (k: string, o?: Record<string, unknown>) => t(`bill.detail.${k}`, o);
  const F = (k: string) => t(`bill.f.${k}`);
  const q = useQuery({
    queryKey: [bill.getBillDetail.name, billId],
    queryFn: ({ signal }) => call(bill.getBillDetail, { billId }, { signal, silent: true }),
    enabled: billId > 0,
  });
  const d = q.data;
  usePageTitle(d?.bill.billNo);
  const refresh = () => {
    void q.refetch();
    void qc.invalidateQueries({ queryKey: [bill.getBillCardLines.name] });
    void qc.invalidateQueries({ queryKey: [bill.getBillListPage.name] });
    void qc.invalidateQueries({ queryKey: [bill.getWriteOffListPage.name] });
  };
  // a re-run rates in the background: the bill shows its new lines as the run lands
  const { publish, rerun } = useBillActions(() => {
    refresh();
    for (const ms of [1500, 4000, 8000]) setTimeout(refresh, ms);
  });
  const [writing, setWriting] = useState<WriteOffTarget | null>(null);

  /** What the customer can pay with now, as the write-off list reckons it (pre-deposit above zero + grants). */
  const startWriteOff = async () => {
    if (!d) return;
    const b = d.bill;
    for (const tab of [WRITE_OFF_TABS.pending, WRITE_OFF_TABS.overdue]) {
      const page = await call(bill.getWriteOffListPage, { tab, custId: b.custId, periodKey: b.periodKey, pageSize: 50 });
      const row = page.list.find((r) => r.billId === b.billId);
      if (row) {
        setWriting({ billId: b.billId, billNo: b.billNo, custName: b.custName, periodKey: b.periodKey, dueDate: row.dueDate, arrears: row.arrears, payable: row.payable });
        return;
      }
    }
    message.info(D('nothingDue'));
    refresh();
  };

  if (!billId || q.isError) {
    return <div className="lx-card"><Result status="404" subTitle={t('common.notFound')} extra={<Button onClick={() => navigate(billPaths.list)}>{D('back')}</Button>} /></div>;
  }
  if (!d) return <div className="lx-card"><Skeleton active /></div>;
  const b = d.bill;
  const unpublished = b.published === BillPublishState.Unpublished;
  const days = daysInclusive(b.periodFrom, b.periodTo);

  return (
    <>
      <div className="lx-card" data-testid="bill-detail">
        <div style={{ display: 'flex', alignItems: 'center', gap: 8, flexWrap: 'wrap', marginBottom: 12 }}>
          <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(billPaths.list)}>{D('back')}</Button>
          <Typography.Title level={5} style={{ margin: 0 }}>{D('title', { no: b.billNo })}</Typography.Title>
          <span data-testid="bill-detail-status"><StatusTag enumOf={BillStatus} value={b.status} colors={BILL_STATUS_COLORS} /></span>
          <span data-testid="bill-detail-published"><StatusTag enumOf={BillPublishState} value={b.published} colors={PUBLISH_COLORS} /></span>
          <Space style={{ marginLeft: 'auto' }} wrap>
            <Button icon={<ReloadOutlined />} onClick={refresh} aria-label={t('common.refresh')} />
            {canRun && unpublished && <Button icon={<AuditOutlined />} onClick={() => rerun(b)} data-testid="bill-detail-rerun">{t('bill.action.rerun')}</Button>}
            {canPublish && unpublished && <Button type="primary" icon={<SendOutlined />} onClick={() => publish(b)} data-testid="bill-detail-publish">{t('bill.action.publish')}</Button>}
            {canWriteOff && !unpublished && isPositive(b.arrears) && (
              <Button type="primary" icon={<WalletOutlined />} onClick={() => void startWriteOff()} data-testid="bill-detail-write-off">{t('bill.action.writeOff')}</Button>
            )}
          </Space>
        </div>
        <Descriptions bordered size="small" column={{ xs: 1, md: 2, xl: 3 }} items={([
          [F('customer'), b.custName],
          [F('period'), <span data-testid="bill-detail-period">{D('periodText', { key: b.periodKey, from: b.periodFrom, to: b.periodTo, days })}</span>],
          [F('cardCount'), b.cardCount],
          [<WithHelp label={F('dueDate')} help={t('bill.help.dueDate', { days: bill.BILL_DUE_DAYS })} />, b.dueDate ?? (unpublished ? D('dueOnPublish', { days: bill.BILL_DUE_DAYS }) : '-')],
          [withZoneLabel(F('publishedAt')), b.publishedAt ? `${formatDateTime(b.publishedAt)}${b.publishedBy ? ` · ${b.publishedBy}` : ''}` : '-'],
          [withZoneLabel(F('ratedAt')), b.ratedAt ? formatDateTime(b.ratedAt) : '-'],
          [withZoneLabel(F('writtenOffAt')), b.writtenOffAt ? formatDateTime(b.writtenOffAt) : '-'],
          // usage beyond quotas no plan charged (not overdrawing): for the reconciliation with the operator's bill
          [<WithHelp label={D('unbilled')} help={D('unbilledHelp')} />, <span data-testid="bill-unbilled">{formatSize(d.unbilledOverBytes)}</span>],
        ] as [ReactNode, ReactNode][]).map(([label, children], key) => ({ key, label, children }))} />
        <Totals b={b} />
        {canLedger && d.writeOffs.length > 0 && (
          <Typography.Paragraph style={{ marginTop: 12, marginBottom: 0 }}>
            <Typography.Link onClick={() => navigate(capitalDetailPath(b.custId))} data-testid="bill-detail-ledger">{D('toLedger')}</Typography.Link>
          </Typography.Paragraph>
        )}
      </div>
      <CategoryTotals d={d} />
      <Breakdowns d={d} />
      <CardLines billId={b.billId} />
      <WriteOffs d={d} />
      <OneOffFees d={d} />
      <OperatorCost billId={b.billId} />
      <WriteOffModal target={writing} onClose={() => setWriting(null)} onDone={refresh} />
    </>
  );
}
