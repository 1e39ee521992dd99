import { useCallback, useEffect, useState } from 'react';
import { Alert, App, Button, Descriptions, Drawer, Dropdown, Empty, Result, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { CloudUploadOutlined, MoreOutlined, PayCircleOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import {
  PAYMENT_ADAPTERS, PayChannel, PayState, Perm, RechargeAuditState, RefundState, STAFF_ROLE_TYPES, formatDateTime, formatMoney, pathOf, recharge, withZoneLabel,
} from '@lynx/contract';
import { call, downloadFile } from '../../../../request/http.ts';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { pickedDays } from '../../../../components/businessTime.ts';
import { useSession } from '../../../../stores/session.ts';
import { CustomerSelect } from '../../../home/customer/CustomerSelect.tsx';
import { MoneyCell } from '../../capital/shared.tsx';
import {
  AUDIT_STATE_COLORS, OnlineTopUpModal, PAY_STATE_COLORS, PublicTopUpModal, REFUND_STATE_COLORS, RefundModal, ReviewModal, type RechargeDetail, type RechargeRow,
} from '../RechargeModals.tsx';
import { RECHARGE_LIST_PATH, REVIEW_PARAM, REVIEW_VIEW_FILTERS, reviewViewOf } from '../reviewLink.ts';

/** The list's base path: /business/recharge/list or the /shortcuts/recharge/list alias. */
const basePath = (pathname: string) => (pathname.startsWith('/shortcuts/') ? '/shortcuts/recharge/list' : RECHARGE_LIST_PATH);

function transform(values: Record<string, any>): Record<string, unknown> {
  const { range, overdue, ...rest } = values;
  const days = pickedDays(range);
  return { ...rest, ...(overdue ? { overdue: true } : {}), ...(days ? { startDate: days[0], endDate: days[1] } : {}) };
}

/** Finance's reminder: public transfers waiting for review, and those past their due time. */
function ReviewBanner({ onOverdue }: { onOverdue: () => void }) {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: [recharge.getReviewSummary.name],
    queryFn: ({ signal }) => call(recharge.getReviewSummary, {}, { signal, silent: true }),
    refetchInterval: 60_000,
  });
  const s = q.data;
  if (!s || s.pending === 0) return null;
  if (s.overdue > 0) {
    return (
      <Alert type="warning" showIcon role="alert" style={{ marginBottom: 12 }} data-testid="recharge-review-banner"
        title={t('recharge.reviewBanner', { pending: s.pending, overdue: s.overdue })}
        action={<Button size="small" onClick={onOverdue}>{t('recharge.showOverdue')}</Button>} />
    );
  }
  return (
    <Alert type="info" showIcon style={{ marginBottom: 12 }} data-testid="recharge-review-banner"
      title={t('recharge.reviewBannerNone', { pending: s.pending, due: s.nextDueAt ? formatDateTime(s.nextDueAt) : '-' })} />
  );
}

/** The due time of a review, with an "overdue" tag once it has passed. */
function DueCell({ r }: { r: Pick<RechargeRow, 'dueAt' | 'overdue' | 'auditState'> }) {
  const { t } = useTranslation();
  if (!r.dueAt) return <>-</>;
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      {formatDateTime(r.dueAt)}
      {r.overdue && <Tag color="red" style={{ marginLeft: 6 }} data-testid="recharge-overdue">{t('recharge.overdueTag')}</Tag>}
    </span>
  );
}

/** One top-up: its fields, refunds and (staff) the channel's notifications; opened by /list/:id. */
function DetailDrawer({ id, onClose, actions }: { id: number | null; onClose: () => void; actions: (r: RechargeRow) => React.ReactNode }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const F = (k: string) => t(`recharge.f.${k}`);
  const D = (k: string) => t(`recharge.detail.${k}`);
  const q = useQuery({
    queryKey: [recharge.getRechargeDetail.name, id],
    queryFn: ({ signal }) => call(recharge.getRechargeDetail, { rechargeId: id! }, { signal, silent: true }),
    enabled: id !== null,
    retry: false,
  });
  const d: RechargeDetail | undefined = q.data ?? undefined;
  return (
    <Drawer open={id !== null} onClose={onClose} size="large" title={d ? `${D('title')} ${d.rechargeNo}` : D('title')} destroyOnHidden
      extra={d ? <Space>{actions(d)}</Space> : null} data-testid="recharge-drawer">
      {q.isLoading && <Skeleton active />}
      {q.isError && <Result status="404" title={t('common.notFound')} />}
      {d && (
        <>
          <Descriptions bordered size="small" column={2} items={[
            { key: 'no', label: F('rechargeNo'), children: d.rechargeNo },
            { key: 'cust', label: F('customer'), children: d.custName ?? '-' },
            { key: 'channel', label: F('channel'), children: PayChannel.label(d.channel, lang) },
            { key: 'amount', label: F('amount'), children: <MoneyCell v={d.amount} /> },
            { key: 'payState', label: F('payState'), children: <StatusTag enumOf={PayState} value={d.payState} colors={PAY_STATE_COLORS} /> },
            { key: 'auditState', label: F('auditState'), children: <StatusTag enumOf={RechargeAuditState} value={d.auditState} colors={AUDIT_STATE_COLORS} /> },
            { key: 'refunded', label: F('refunded'), children: <MoneyCell v={d.refunded} /> },
            { key: 'refundable', label: F('refundable'), children: <MoneyCell v={d.refundable} /> },
            ...(d.channel === PayChannel.Public ? [
              { key: 'serial', label: F('serialNo'), children: d.serialNo ?? '-' },
              { key: 'transfer', label: F('transferDate'), children: d.transferDate ?? '-' },
              { key: 'due', label: withZoneLabel(F('dueAt')), children: <DueCell r={d} /> },
              { key: 'reviewedBy', label: F('reviewedBy'), children: d.reviewedBy ?? '-' },
              { key: 'reviewedAt', label: withZoneLabel(F('reviewedAt')), children: d.reviewedAt ? formatDateTime(d.reviewedAt) : '-' },
              { key: 'reason', label: F('reviewReason'), children: d.reviewReason ?? '-' },
            ] : [
              { key: 'gateway', label: F('gateway'), children: PAYMENT_ADAPTERS.find((a) => a.code === d.gateway)?.[lang] ?? d.gateway ?? '-' },
              { key: 'order', label: F('payOrderNo'), children: d.payOrderNo ?? '-' },
              { key: 'trade', label: F('tradeNo'), children: d.tradeNo ?? '-' },
              { key: 'expires', label: withZoneLabel(F('expiresAt')), children: d.expiresAt && d.payState === PayState.Unpaid ? formatDateTime(d.expiresAt) : '-' },
            ]),
            { key: 'created', label: withZoneLabel(F('createdAt')), children: formatDateTime(d.createdAt) },
            { key: 'paid', label: withZoneLabel(F('paidAt')), children: d.paidAt ? formatDateTime(d.paidAt) : '-' },
            { key: 'by', label: F('createdBy'), children: d.createdBy ?? '-' },
            { key: 'note', label: F('note'), span: 'filled', children: <Typography.Text style={{ whiteSpace: 'pre-wrap' }}>{d.note ?? '-'}</Typography.Text> },
          ]} />
          <Typography.Title level={5} style={{ marginTop: 24 }}>{D('refunds')}</Typography.Title>
          {d.refunds.some((r) => r.state === RefundState.Pending) && (
            <Alert type="info" showIcon style={{ marginBottom: 12 }} title={D('refundPending')} data-testid="recharge-refund-pending" />
          )}
          <Table size="small" rowKey="refundId" dataSource={d.refunds} pagination={false} data-testid="recharge-refunds"
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={D('noRefunds')} /> }}
            columns={[
              { title: D('refundNo'), dataIndex: 'refundNo', width: 130 },
              { title: F('amount'), dataIndex: 'amount', align: 'right', width: 115, render: (v: string) => <MoneyCell v={v} /> },
              {
                title: D('refundState'), dataIndex: 'state', width: 110,
                render: (v: number) => <span data-testid="recharge-refund-state"><StatusTag enumOf={RefundState} value={v} colors={REFUND_STATE_COLORS} /></span>,
              },
              { title: D('reason'), dataIndex: 'reason', ellipsis: true },
              { title: F('createdBy'), dataIndex: 'createdBy', width: 90, ellipsis: true },
              { title: withZoneLabel(F('createdAt')), dataIndex: 'createdAt', width: 130, render: (v: string) => formatDateTime(v) },
            ]} />
          {d.channel !== PayChannel.Public && d.notifications.length > 0 && (
            <>
              <Typography.Title level={5} style={{ marginTop: 24 }}>{D('notifications')}</Typography.Title>
              <Table size="small" rowKey="notificationId" dataSource={d.notifications} pagination={false}
                columns={[
                  { title: withZoneLabel(D('receivedAt')), dataIndex: 'receivedAt', render: (v: string) => formatDateTime(v) },
                  { title: D('state'), dataIndex: 'state', render: (v: string | null) => v ?? '-' },
                  { title: D('outcome'), dataIndex: 'outcome', render: (v: string) => t(`recharge.outcome.${v}`, { defaultValue: v }) },
                ]} />
            </>
          )}
        </>
      )}
    </Drawer>
  );
}

/**
 * /business/recharge/list/:id? (and /shortcuts/recharge/list/:id?): top-ups in the viewer's scope. Online top-up
 * (cashier in a new tab, polled until settled), public top-up with its certificate, finance's review (due in two
 * working days, overdue flagged), certificate download, refunds and export, each by its permission code.
 */
export default function RechargeList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const params = useParams();
  const openId = params.id && /^\d+$/.test(params.id) ? Number(params.id) : null;
  const base = basePath(pathname);
  const queryClient = useQueryClient();
  // ?review=overdue|pending (the header's review badge) opens the list on those reviews; the parameter is then
  // dropped, so the next click on the badge applies it again even after the form was changed
  const [searchParams, setSearchParams] = useSearchParams();
  const reviewView = reviewViewOf(searchParams.get(REVIEW_PARAM));
  const table = useSearchTable(recharge.getRechargePage, { transform, initialFilters: reviewView ? transform(REVIEW_VIEW_FILTERS[reviewView]) : {} });
  useEffect(() => {
    if (!reviewView) return;
    const filters = REVIEW_VIEW_FILTERS[reviewView];
    table.form.resetFields();
    table.form.setFieldsValue(filters);
    table.search({ ...table.form.getFieldsValue(), ...filters });
    setSearchParams((p) => {
      p.delete(REVIEW_PARAM);
      return p;
    }, { replace: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reviewView]);
  const staff = useSession((s) => s.roleId !== null && STAFF_ROLE_TYPES.includes(s.roleId));
  const canCustomers = usePerm([Perm.HomeCustomer, Perm.BusinessCustomer]);
  const canAudit = usePerm(Perm.BusinessRechargeAudit);
  const canDownload = usePerm(Perm.BusinessRechargeDownload);
  const canRefund = usePerm(Perm.BusinessRechargeRefund) && staff;
  const canTopUp = usePerm(Perm.BusinessRecharge);
  const canExport = usePerm(Perm.BusinessRechargeExport);
  const [onlineOpen, setOnlineOpen] = useState(false);
  const [publicOpen, setPublicOpen] = useState(false);
  const [reviewing, setReviewing] = useState<RechargeRow | null>(null);
  const [refunding, setRefunding] = useState<RechargeRow | null>(null);
  const F = (k: string) => t(`recharge.f.${k}`);
  const A = (k: string) => t(`recharge.action.${k}`);

  const refresh = useCallback(() => {
    void table.refresh();
    void queryClient.invalidateQueries({ queryKey: [recharge.getReviewSummary.name] });
    void queryClient.invalidateQueries({ queryKey: [recharge.getRechargeDetail.name] });
  }, [table, queryClient]);

  const download = (r: RechargeRow) => void downloadFile(pathOf(recharge.downloadProof), { rechargeId: String(r.rechargeId), lang }).catch((e: Error) => message.error(e.message));
  const closeOrder = (r: RechargeRow) => modal.confirm({
    title: A('close'),
    content: `${r.rechargeNo} · ${formatMoney(r.amount)}`,
    okText: t('common.ok'),
    cancelText: t('common.cancel'),
    onOk: async () => {
      try {
        await call(recharge.closeRecharge, { rechargeId: r.rechargeId }, { silent: true });
        message.success(t('common.operationSuccess'));
      } catch (e) {
        message.error((e as Error).message);
      }
      refresh();
    },
  });

  const rowActions = (r: RechargeRow, inDrawer = false) => {
    const reviewable = canAudit && r.channel === PayChannel.Public && r.auditState === RechargeAuditState.Submitted;
    const refundable = canRefund && r.payState === PayState.Confirmed && r.refunded !== r.amount;
    const more = [
      ...(canDownload && r.hasProof ? [{ key: 'download', label: A('download') }] : []),
      ...(canTopUp && r.payState === PayState.Unpaid && r.channel !== PayChannel.Public ? [{ key: 'close', label: A('close') }] : []),
      ...(refundable ? [{ key: 'refund', label: A('refund'), danger: true }] : []),
    ];
    return (
      <Space size={0}>
        {!inDrawer && <Button type="link" size="small" onClick={() => navigate(`${base}/${r.rechargeId}`)} data-testid={`recharge-detail-${r.rechargeId}`}>{A('detail')}</Button>}
        {reviewable && <Button type="link" size="small" onClick={() => setReviewing(r)} data-testid={`recharge-review-${r.rechargeId}`}>{A('review')}</Button>}
        {more.length > 0 && (
          <Dropdown menu={{
            items: more,
            onClick: ({ key }) => {
              if (key === 'download') download(r);
              else if (key === 'close') closeOrder(r);
              else if (key === 'refund') setRefunding(r);
            },
          }}>
            <Button type="link" size="small" icon={<MoreOutlined />} aria-label={t('common.more')} data-testid={`recharge-more-${r.rechargeId}`} />
          </Dropdown>
        )}
      </Space>
    );
  };

  const fields: SearchField[] = [
    { name: 'channel', label: F('channel'), type: 'enum', enumOf: PayChannel },
    { name: 'payState', label: F('payState'), type: 'enum', enumOf: PayState },
    { name: 'auditState', label: F('auditState'), type: 'enum', enumOf: RechargeAuditState },
    ...(staff && canCustomers
      ? [{ name: 'custId', label: F('customer'), type: 'custom' as const, control: <CustomerSelect allowClear placeholder={t('common.all')} /> }]
      : canCustomers ? [{ name: 'custName', label: F('customer') }] : []),
    { name: 'range', label: F('dateRange'), type: 'dateRange' },
    { name: 'serialNo', label: F('serialNo') },
    { name: 'rechargeNo', label: F('rechargeNo') },
    { name: 'overdue', label: t('recharge.showOverdue'), type: 'select', options: [{ value: 1, label: t('common.yes') }] },
  ];

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 12px' }}>{t('recharge.intro')}</Typography.Paragraph>
      <ReviewBanner onOverdue={() => {
        table.form.setFieldsValue(REVIEW_VIEW_FILTERS.overdue);
        table.search({ ...table.form.getFieldsValue(), ...REVIEW_VIEW_FILTERS.overdue });
      }} />
      <SearchTable<RechargeRow>
        table={table}
        title={t('recharge.title')}
        rowKey="rechargeId"
        emptyHint={t('recharge.emptyHint')}
        fields={fields}
        exportVia={canExport ? recharge.exportRecharges : undefined}
        toolbar={
          <>
            <PermButton perm={Perm.BusinessRechargePublic} icon={<CloudUploadOutlined />} onClick={() => setPublicOpen(true)} data-testid="recharge-public">
              {t('recharge.public')}
            </PermButton>
            <PermButton perm={Perm.BusinessRecharge} type="primary" icon={<PayCircleOutlined />} onClick={() => setOnlineOpen(true)} data-testid="recharge-online">
              {t('recharge.online')}
            </PermButton>
          </>
        }
        columns={[
          { title: F('rechargeNo'), dataIndex: 'rechargeNo', fixed: 'left', width: 200, render: (v: string, r) => <a onClick={() => navigate(`${base}/${r.rechargeId}`)}>{v}</a> },
          ...(staff || canCustomers ? [{ title: F('customer'), dataIndex: 'custName', sorter: true, width: 180, ellipsis: true, render: (v: string | null) => v ?? '-' }] : []),
          { title: F('channel'), dataIndex: 'channel', width: 140, render: (v: number) => PayChannel.label(v, lang) },
          { title: F('amount'), dataIndex: 'amount', sorter: true, align: 'right', width: 140, render: (v: string) => <MoneyCell v={v} /> },
          { title: F('payState'), dataIndex: 'payState', width: 140, render: (v: number) => <StatusTag enumOf={PayState} value={v} colors={PAY_STATE_COLORS} /> },
          { title: F('auditState'), dataIndex: 'auditState', width: 110, render: (v: number | null) => <StatusTag enumOf={RechargeAuditState} value={v} colors={AUDIT_STATE_COLORS} /> },
          { title: withZoneLabel(F('dueAt')), dataIndex: 'dueAt', sorter: true, width: 230, render: (_: unknown, r) => <DueCell r={r} /> },
          { title: F('serialNo'), dataIndex: 'serialNo', width: 170, ellipsis: true, render: (v: string | null) => v ?? '-' },
          { title: F('transferDate'), dataIndex: 'transferDate', width: 120, render: (v: string | null) => v ?? '-' },
          { title: withZoneLabel(F('createdAt')), dataIndex: 'createdAt', sorter: true, width: 170, render: (v: string) => formatDateTime(v) },
          { title: withZoneLabel(F('paidAt')), dataIndex: 'paidAt', sorter: true, width: 170, render: (v: string | null) => (v ? formatDateTime(v) : '-') },
          { title: t('common.actions'), key: 'actions', fixed: 'right', width: 170, render: (_: unknown, r) => rowActions(r) },
        ]}
      />
      <DetailDrawer id={openId} onClose={() => navigate(base)} actions={(r) => rowActions(r, true)} />
      <OnlineTopUpModal open={onlineOpen} onClose={() => setOnlineOpen(false)} onDone={refresh} />
      <PublicTopUpModal open={publicOpen} onClose={() => setPublicOpen(false)} onDone={refresh} />
      <ReviewModal row={reviewing} onClose={() => setReviewing(null)} onDone={refresh} />
      <RefundModal row={refunding} onClose={() => setRefunding(null)} onDone={refresh} />
    </>
  );
}
