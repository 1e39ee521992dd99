import { useState } from 'react';
import { App, Button, Descriptions, Modal, Space, Tooltip, Typography } from 'antd';
import { CalendarOutlined, PlusOutlined, SendOutlined, UnorderedListOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Perm, STAFF_ROLE_TYPES, WithdrawState, formatDateTime, formatMoney, withZoneLabel, withdraw } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { pickedDays } from '../../../../components/businessTime.ts';
import { useSession } from '../../../../stores/session.ts';
import { CustomerSelect } from '../../../home/customer/CustomerSelect.tsx';
import { ApplyModal, RejectModal, RunsModal, maskAccount, type WithdrawRow } from '../WithdrawModals.tsx';

const { WithdrawPerm } = withdraw;

export const WITHDRAW_STATE_COLORS: Record<number, string> = {
  [WithdrawState.Applied]: 'processing', [WithdrawState.Approved]: 'gold', [WithdrawState.Paid]: 'success', [WithdrawState.Rejected]: 'default',
  [WithdrawState.PayoutFailed]: 'error',
};

/** The failure column's width; the list sizes columns to their content, so the reason is cut to it here. */
const PAYOUT_FAILURE_WIDTH = 220;

/**
 * Why its payout failed, cut to the cell with the whole story on hover: a payout-failed one, or an approved one awaiting
 * another try. The reason is for staff; a customer (whose rows come without it) reads that finance is handling it.
 */
function PayoutFailureCell({ r }: { r: WithdrawRow }) {
  const { t } = useTranslation();
  const failed = r.state === WithdrawState.PayoutFailed;
  if (failed && !r.payoutError) return <Typography.Text type="danger" data-testid="withdraw-payout-error">{t('withdraw.payoutFailedCustomer')}</Typography.Text>;
  if (!r.payoutError || !(failed || r.state === WithdrawState.Approved)) return <>-</>;
  const tip = failed
    ? t('withdraw.payoutFailureTip', { attempts: r.payoutAttempts, at: r.payoutFailedAt ? formatDateTime(r.payoutFailedAt) : '-', reason: r.payoutError })
    : t('withdraw.payoutRetryingTip', { reason: r.payoutError });
  return (
    <Tooltip title={tip}>
      <Typography.Text type={failed ? 'danger' : 'secondary'} ellipsis style={{ display: 'block', maxWidth: PAYOUT_FAILURE_WIDTH - 32 }} data-testid="withdraw-payout-error">{r.payoutError}</Typography.Text>
    </Tooltip>
  );
}

/** Search form values → the list's filters (the picked days are business days). */
export function withdrawFilters(v: Record<string, any>): Record<string, unknown> {
  const { range, ...rest } = v as { range?: [Dayjs | null, Dayjs | null] | null } & Record<string, unknown>;
  const days = pickedDays(range);
  return { ...rest, ...(days ? { startDate: days[0], endDate: days[1] } : {}) };
}

/**
 * /business/withdraw/list (and /shortcuts/withdraw/list): the withdrawals in the viewer's scope. A customer applies
 * (the dialog shows what it can withdraw and when the money arrives); staff review (approve, or reject with a reason)
 * and start the payout run; a payout that failed 3 times is retried (paid by the next run) or rejected; export by permission. Working days open from the toolbar.
 */
export default function WithdrawList() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const staff = useSession((s) => s.roleId !== null && STAFF_ROLE_TYPES.includes(s.roleId));
  const canCustomers = usePerm([Perm.HomeCustomer, Perm.BusinessCustomer]);
  const canReview = usePerm(WithdrawPerm.Review) && staff;
  const canPay = usePerm(WithdrawPerm.Pay) && staff;
  const canExport = usePerm(WithdrawPerm.Export);
  const table = useSearchTable(withdraw.getWithdrawListPage, { transform: withdrawFilters });
  const [applying, setApplying] = useState(false);
  const [rejecting, setRejecting] = useState<WithdrawRow | null>(null);
  const [runsOpen, setRunsOpen] = useState(false);
  const [showing, setShowing] = useState<WithdrawRow | null>(null);
  const F = (k: string) => t(`withdraw.f.${k}`);
  const A = (k: string) => t(`withdraw.action.${k}`);

  /** Finance's decision on one withdrawal, confirmed with who, how much and where to first. */
  const confirmDecision = (r: WithdrawRow, o: { title: string; confirm: string; ok: string; testId: string; done: string; send: () => Promise<unknown> }) => {
    modal.confirm({
      title: t(o.title),
      content: t(o.confirm, { cust: r.custName, amount: formatMoney(r.amount), bank: r.bankName, account: maskAccount(r.bankAccount) }),
      okText: A(o.ok),
      cancelText: t('common.cancel'),
      okButtonProps: { 'data-testid': o.testId } as Record<string, string>,
      onOk: async () => {
        try {
          await o.send();
          message.success(t(o.done));
        } finally {
          // also when refused because someone else moved it first: the list shows where it is now
          table.refresh();
        }
      },
    });
  };

  const retryPayout = (r: WithdrawRow) => confirmDecision(r, {
    title: 'withdraw.retry.title', confirm: 'withdraw.retry.confirm', ok: 'retry', testId: 'withdraw-retry-ok', done: 'withdraw.retry.done',
    send: () => call(withdraw.retryWithdrawPayout, { withdrawId: r.withdrawId }),
  });

  const approve = (r: WithdrawRow) => confirmDecision(r, {
    title: 'withdraw.review.approveTitle', confirm: 'withdraw.review.approveConfirm', ok: 'approve', testId: 'withdraw-approve-ok', done: 'withdraw.review.approved',
    send: () => call(withdraw.checkWithdraw, { withdrawId: r.withdrawId, approve: true }),
  });

  const runPayouts = async () => {
    const due = await call(withdraw.getWithdrawListPage, { state: WithdrawState.Approved, pageSize: 1 });
    if (!due.total) {
      message.info(t('withdraw.run.none'));
      return;
    }
    modal.confirm({
      title: t('withdraw.run.title'),
      content: t('withdraw.run.confirm', { count: due.total }),
      okText: A('run'),
      cancelText: t('common.cancel'),
      okButtonProps: { 'data-testid': 'withdraw-run-ok' } as Record<string, string>,
      onOk: async () => {
        const run = await call(withdraw.runWithdrawPayouts, {});
        message.success(t('withdraw.run.started', { id: run.runId, count: run.itemCount }));
        setRunsOpen(true);
        // the run pays in the background: the list shows the payments as they land
        for (const ms of [1500, 4000, 8000]) setTimeout(() => table.refresh(), ms);
      },
    });
  };

  const fields: SearchField[] = [
    { name: 'withdrawNo', label: F('withdrawNo') },
    { name: 'state', label: F('state'), type: 'enum', enumOf: WithdrawState },
    ...(staff && canCustomers ? [{ name: 'custId', label: F('customer'), type: 'custom' as const, control: <CustomerSelect allowClear placeholder={t('common.all')} /> }] : []),
    ...(!staff ? [{ name: 'custName', label: F('customer') }] : []),
    { name: 'range', label: F('range'), type: 'dateRange', names: ['range'] },
  ];

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 12px' }}>{t('withdraw.intro')}</Typography.Paragraph>
      <SearchTable<WithdrawRow>
        table={table}
        title={t('withdraw.title')}
        rowKey="withdrawId"
        emptyHint={t('withdraw.emptyHint')}
        fields={fields}
        exportVia={canExport ? withdraw.exportWithdraws : undefined}
        toolbar={
          <>
            <Button icon={<CalendarOutlined />} onClick={() => navigate('/business/withdraw/holidays')} data-testid="withdraw-calendar">{A('calendar')}</Button>
            {canPay && <Button icon={<UnorderedListOutlined />} onClick={() => setRunsOpen(true)} data-testid="withdraw-runs">{A('runs')}</Button>}
            {canPay && <PermButton perm={WithdrawPerm.Pay} icon={<SendOutlined />} onClick={() => void runPayouts()} data-testid="withdraw-run">{A('run')}</PermButton>}
            {!staff && (
              <PermButton perm={[WithdrawPerm.Page, WithdrawPerm.Home]} type="primary" icon={<PlusOutlined />} onClick={() => setApplying(true)} data-testid="withdraw-apply">
                {A('apply')}
              </PermButton>
            )}
          </>
        }
        columns={[
          { title: F('withdrawNo'), dataIndex: 'withdrawNo', width: 190, render: (v: string, r) => <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setShowing(r)}>{v}</Button> },
          { title: F('customer'), dataIndex: 'custName', width: 180, ellipsis: true },
          { title: F('amount'), dataIndex: 'amount', width: 130, align: 'right', render: (v: string) => <span data-testid="withdraw-amount-cell">{formatMoney(v)}</span> },
          {
            title: F('bankAccount'), key: 'bank', width: 220, ellipsis: true,
            render: (_: unknown, r) => <Tooltip title={`${r.accountName} · ${r.bankName} · ${r.bankAccount}`}><span translate="no">{r.bankName} {maskAccount(r.bankAccount)}</span></Tooltip>,
          },
          { title: F('state'), dataIndex: 'state', width: 150, render: (v: number) => <span data-testid="withdraw-state"><StatusTag enumOf={WithdrawState} value={v} colors={WITHDRAW_STATE_COLORS} /></span> },
          { title: withZoneLabel(F('appliedAt')), dataIndex: 'appliedAt', width: 170, render: (v: string) => formatDateTime(v) },
          {
            title: F('reviewed'), key: 'reviewed', width: 200, ellipsis: true,
            render: (_: unknown, r) => (r.reviewedAt ? <Tooltip title={r.reviewReason ?? undefined}><span>{formatDateTime(r.reviewedAt)} · {r.reviewedBy}</span></Tooltip> : '-'),
          },
          {
            title: F('expectedArrival'), dataIndex: 'expectedArrivalDay', width: 120,
            render: (v: string, r) => (r.state === WithdrawState.Rejected || r.state === WithdrawState.PayoutFailed ? '-' : v),
          },
          { title: withZoneLabel(F('paidAt')), dataIndex: 'paidAt', width: 170, render: (v: string | null) => (v ? formatDateTime(v) : '-') },
          { title: F('payoutFailure'), key: 'payoutFailure', width: PAYOUT_FAILURE_WIDTH, ellipsis: { showTitle: false }, render: (_: unknown, r) => <PayoutFailureCell r={r} /> },
          ...(canReview || canPay ? [{
            title: t('common.actions'), key: 'actions', fixed: 'right' as const, width: 160,
            render: (_: unknown, r: WithdrawRow) => {
              const applied = r.state === WithdrawState.Applied;
              const failed = r.state === WithdrawState.PayoutFailed;
              if (!(canReview && (applied || failed)) && !(canPay && failed)) return '-';
              return (
                <Space size={0}>
                  {canReview && applied && <Button type="link" size="small" onClick={() => approve(r)} data-testid={`withdraw-approve-${r.withdrawId}`}>{A('approve')}</Button>}
                  {canPay && failed && (
                    <PermButton perm={WithdrawPerm.Pay} type="link" size="small" onClick={() => retryPayout(r)} data-testid={`withdraw-retry-${r.withdrawId}`}>{A('retry')}</PermButton>
                  )}
                  {canReview && <Button type="link" size="small" danger onClick={() => setRejecting(r)} data-testid={`withdraw-reject-${r.withdrawId}`}>{A('reject')}</Button>}
                </Space>
              );
            },
          }] : []),
        ]}
      />
      <ApplyModal open={applying} onClose={() => setApplying(false)} onApplied={() => table.refresh()} />
      <RejectModal record={rejecting} onClose={() => setRejecting(null)} onDone={() => table.refresh()} />
      <RunsModal open={runsOpen} onClose={() => { setRunsOpen(false); table.refresh(); }} />
      <Modal open={!!showing} title={t('withdraw.info.title')} onCancel={() => setShowing(null)} footer={<Button onClick={() => setShowing(null)}>{t('common.close')}</Button>} width={640}>
        {showing && (
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={F('withdrawNo')}>{showing.withdrawNo}</Descriptions.Item>
            <Descriptions.Item label={F('customer')}>{showing.custName}</Descriptions.Item>
            <Descriptions.Item label={F('amount')}>{formatMoney(showing.amount)}</Descriptions.Item>
            <Descriptions.Item label={F('bankAccount')}><span translate="no">{showing.accountName} · {showing.bankName} · {showing.bankAccount}</span></Descriptions.Item>
            <Descriptions.Item label={F('state')}><StatusTag enumOf={WithdrawState} value={showing.state} colors={WITHDRAW_STATE_COLORS} /></Descriptions.Item>
            <Descriptions.Item label={F('appliedBy')}>{showing.appliedBy} · {formatDateTime(showing.appliedAt)}</Descriptions.Item>
            <Descriptions.Item label={F('remark')}>{showing.remark ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={F('reviewed')}>{showing.reviewedAt ? `${showing.reviewedBy} · ${formatDateTime(showing.reviewedAt)}` : '-'}</Descriptions.Item>
            <Descriptions.Item label={F('reviewReason')}><span translate="no">{showing.reviewReason ?? '-'}</span></Descriptions.Item>
            <Descriptions.Item label={F('expectedRun')}>{showing.expectedRunDay}</Descriptions.Item>
            <Descriptions.Item label={F('expectedArrival')}>{showing.expectedArrivalDay}</Descriptions.Item>
            <Descriptions.Item label={F('paidAt')}>{showing.paidAt ? formatDateTime(showing.paidAt) : '-'}</Descriptions.Item>
            {(showing.payoutAttempts > 0 || showing.payoutError) && (
              <>
                <Descriptions.Item label={F('payoutAttempts')}>{showing.payoutAttempts}</Descriptions.Item>
                <Descriptions.Item label={withZoneLabel(F('payoutFailedAt'))}>{showing.payoutFailedAt ? formatDateTime(showing.payoutFailedAt) : '-'}</Descriptions.Item>
                <Descriptions.Item label={F('payoutError')}>
                  <Typography.Text type={showing.state === WithdrawState.PayoutFailed ? 'danger' : undefined} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="withdraw-info-payout-error">
                    {showing.payoutError ?? (showing.state === WithdrawState.PayoutFailed ? t('withdraw.payoutFailedCustomer') : '-')}
                  </Typography.Text>
                </Descriptions.Item>
              </>
            )}
          </Descriptions>
        )}
      </Modal>
    </>
  );
}
