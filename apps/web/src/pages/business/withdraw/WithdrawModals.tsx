import { useEffect, useState } from 'react';
import { Alert, Button, Descriptions, Empty, Form, Input, Modal, Skeleton, Space, Table, Typography, type ButtonProps } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorCode, errorMessage, WithdrawRunState, WithdrawRunTrigger, fenToMoney, formatDateTime, formatMoney, moneyToFen, withZoneLabel, withdraw, type ResponseOf } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { useFormSave } from '../../../components/useFormSave.ts';
import { useConfirmSubmit } from '../../../components/useConfirmSubmit.ts';
import { StatusTag } from '../../../components/StatusTag.tsx';
import { NoteField } from '../shared/NoteField.tsx';

export type WithdrawRow = ResponseOf<typeof withdraw.getWithdrawListPage>['list'][number];

/** A bank account shown with only its last four digits in confirmations and lists (the full number in the details). */
export const maskAccount = (v: string) => (v.length > 8 ? `${v.slice(0, 4)} **** ${v.slice(-4)}` : v);

/**
 * The apply dialog: the caller's withdrawable pre-deposit (grants shown as not withdrawable), the payee from the
 * customer's details, the run day and expected arrival; the amount checked against the withdrawable balance before
 * the confirmation, and again by the server.
 */
export function ApplyModal({ open, onClose, onApplied }: { open: boolean; onClose: () => void; onApplied: () => void }) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<{ amount: string; remark?: string }>();
  const { busy, save } = useFormSave(form, { [ErrorCode.WithdrawInsufficient]: 'amount', [ErrorCode.MoneyAmountInvalid]: 'amount' });
  const confirmSubmit = useConfirmSubmit(form);
  const A = (k: string, o?: Record<string, unknown>) => t(`withdraw.apply.${k}`, o);
  const info = useQuery({
    queryKey: [withdraw.getWithdrawApplyInfo.name],
    queryFn: ({ signal }) => call(withdraw.getWithdrawApplyInfo, {}, { signal }),
    enabled: open,
    staleTime: 0,
  });
  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);

  const d = info.data;
  const maxFen = d ? (moneyToFen(d.withdrawable) ?? 0n) : 0n;
  const blocked = !d || !!d.inProgress || !d.bankAccount || !d.bankName || maxFen <= 0n;

  const submit = async () => {
    if (!d) return;
    await confirmSubmit((v) => {
      const amount = fenToMoney(moneyToFen(v.amount.trim())!);
      return {
        title: A('confirmTitle'),
        content: A('confirm', { amount: formatMoney(amount), bank: d.bankName, account: maskAccount(d.bankAccount ?? '') }),
        testId: 'withdraw-apply-confirm',
        onOk: async () => {
          const ok = await save(() => call(withdraw.applyWithdraw, { amount, ...(v.remark?.trim() ? { remark: v.remark.trim() } : {}) }, { silent: true }));
          if (ok) {
            onApplied();
            onClose();
          } else {
            void info.refetch();
          }
        },
      };
    });
  };

  return (
    <Modal open={open} title={A('title')} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} okText={t('withdraw.action.apply')}
      cancelText={t('common.cancel')} okButtonProps={{ disabled: blocked, 'data-testid': 'withdraw-apply-ok' } as ButtonProps} destroyOnHidden forceRender width={600}>
      {info.isLoading && <Skeleton active />}
      {info.isError && <Alert type="error" showIcon title={(info.error as Error).message} />}
      {d && (
        <>
          <Descriptions column={1} size="small" bordered style={{ marginBottom: 16 }}>
            <Descriptions.Item label={A('withdrawable')}>
              <Typography.Text strong data-testid="withdraw-withdrawable">{formatMoney(d.withdrawable)}</Typography.Text>
              {moneyToFen(d.grants)! > 0n && <Typography.Text type="secondary" style={{ marginLeft: 12 }}>{A('grantsNote', { grants: formatMoney(d.grants) })}</Typography.Text>}
            </Descriptions.Item>
            <Descriptions.Item label={A('payee')}>
              {d.bankAccount && d.bankName ? <span data-testid="withdraw-payee" translate="no">{d.accountName} · {d.bankName} · {d.bankAccount}</span> : '-'}
            </Descriptions.Item>
          </Descriptions>
          {d.inProgress && (
            <Alert type="warning" showIcon style={{ marginBottom: 12 }} data-testid="withdraw-in-progress"
              title={errorMessage(ErrorCode.WithdrawInProgress, i18n.language === 'en' ? 'en' : 'zh')}
              description={A('inProgress', { no: d.inProgress.withdrawNo, amount: formatMoney(d.inProgress.amount) })} />
          )}
          {(!d.bankAccount || !d.bankName) && <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={A('noBank')} />}
          <Alert type="info" showIcon style={{ marginBottom: 16 }} data-testid="withdraw-expected"
            title={A('expected', { run: d.expectedRunDay, arrival: d.expectedArrivalDay })} />
          <Form form={form} layout="vertical" disabled={busy}>
            <Form.Item label={A('amount')} required>
              <Space.Compact style={{ width: '100%' }}>
                <Form.Item name="amount" noStyle validateFirst rules={[
                  { required: true, whitespace: true, message: A('amountInvalid') },
                  {
                    validator: async (_r, v: string | undefined) => {
                      const fen = moneyToFen((v ?? '').trim());
                      if (fen == null || fen <= 0n || !/^\d{1,12}(\.\d{1,2})?$/.test((v ?? '').trim())) throw new Error(A('amountInvalid'));
                      if (fen > maxFen) throw new Error(A('amountOver', { max: formatMoney(d.withdrawable) }));
                    },
                  },
                ]}>
                  <Input inputMode="decimal" disabled={blocked} placeholder={A('amountPlaceholder', { max: formatMoney(d.withdrawable) })} data-testid="withdraw-amount" />
                </Form.Item>
                <Button disabled={blocked} onClick={() => form.setFieldsValue({ amount: d.withdrawable })}>{A('all')}</Button>
              </Space.Compact>
            </Form.Item>
            <NoteField name="remark" label={A('remark')} max={withdraw.WITHDRAW_REMARK_MAX} />
          </Form>
        </>
      )}
    </Modal>
  );
}

/** Reject with a reason (the hold is released); approving is a plain confirmation from the list. */
export function RejectModal({ record, onClose, onDone }: { record: WithdrawRow | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  const { busy, save } = useFormSave(form, { [ErrorCode.WithdrawReasonRequired]: 'reason' });
  const R = (k: string, o?: Record<string, unknown>) => t(`withdraw.review.${k}`, o);
  useEffect(() => {
    if (record) form.resetFields();
  }, [record, form]);
  const submit = async () => {
    if (!record) return;
    let v: { reason: string };
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const ok = await save(() => call(withdraw.checkWithdraw, { withdrawId: record.withdrawId, approve: false, reason: v.reason.trim() }, { silent: true }));
    if (ok) {
      onDone();
      onClose();
    }
  };
  return (
    <Modal open={!!record} title={R('rejectTitle')} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} okText={t('withdraw.action.reject')}
      okButtonProps={{ danger: true, 'data-testid': 'withdraw-reject-ok' } as ButtonProps} cancelText={t('common.cancel')} destroyOnHidden forceRender>
      {record && <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={R('rejectHint', { amount: formatMoney(record.amount) })} />}
      <Form form={form} layout="vertical" disabled={busy}>
        <NoteField name="reason" label={R('reason')} max={withdraw.WITHDRAW_REASON_MAX} required={R('reasonRequired')} rows={3} testId="withdraw-reject-reason" />
      </Form>
    </Modal>
  );
}

/** Staff with the payout code: the payout runs, newest first, with what each paid and left payout failed (refreshed while one is paying out). */
export function RunsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const R = (k: string) => t(`withdraw.run.${k}`);
  const q = useQuery({
    queryKey: [withdraw.getWithdrawRuns.name, page],
    queryFn: ({ signal }) => call(withdraw.getWithdrawRuns, { current: page, pageSize: 10 }, { signal }),
    enabled: open,
    refetchInterval: (query) => (query.state.data?.list.some((r) => r.state === WithdrawRunState.Running) ? 2000 : false),
  });
  type Run = ResponseOf<typeof withdraw.getWithdrawRuns>['list'][number];
  return (
    <Modal open={open} title={R('listTitle')} onCancel={onClose} footer={<Button onClick={onClose}>{t('common.close')}</Button>} width={900} destroyOnHidden>
      {q.isError && <Alert type="error" showIcon title={(q.error as Error).message} style={{ marginBottom: 12 }} />}
      <Table<Run>
        size="small"
        rowKey="runId"
        loading={q.isFetching && !q.data}
        dataSource={q.data?.list ?? []}
        pagination={{ current: page, pageSize: 10, total: q.data?.total ?? 0, onChange: setPage }}
        locale={{ emptyText: <Empty description={t('common.empty')} /> }}
        columns={[
          { title: R('runId'), dataIndex: 'runId', width: 70 },
          { title: R('trigger'), dataIndex: 'trigger', render: (v: number) => <StatusTag enumOf={WithdrawRunTrigger} value={v} /> },
          { title: R('state'), dataIndex: 'state', render: (v: number) => <StatusTag enumOf={WithdrawRunState} value={v} colors={{ [WithdrawRunState.Running]: 'processing', [WithdrawRunState.Finished]: 'success' }} /> },
          { title: R('items'), dataIndex: 'itemCount', align: 'right' },
          { title: R('paid'), dataIndex: 'paidCount', align: 'right' },
          {
            title: R('failed'), dataIndex: 'failedCount', align: 'right',
            render: (v: number) => <span data-testid="withdraw-run-failed">{v > 0 ? <Typography.Text type="danger" strong>{v}</Typography.Text> : v}</span>,
          },
          { title: R('startedBy'), dataIndex: 'startedBy' },
          { title: withZoneLabel(R('startedAt')), dataIndex: 'startedAt', render: (v: string) => formatDateTime(v) },
          { title: withZoneLabel(R('finishedAt')), dataIndex: 'finishedAt', render: (v: string | null) => (v ? formatDateTime(v) : '-') },
        ]}
      />
    </Modal>
  );
}
