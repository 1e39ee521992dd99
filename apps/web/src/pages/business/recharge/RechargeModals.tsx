import { useEffect, useRef, useState } from 'react';
import { Alert, App, type ButtonProps, DatePicker, Form, Input, Modal, Radio, Result, Select, Space, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import {
  ErrorCode, PayChannel, PayState, RECHARGE_RULES, RefundState, STAFF_ROLE_TYPES, Perm, capital, fenToMoney, formatDateTime, formatMoney, moneyToFen, recharge,
  type ResponseOf,
} from '@lynx/contract';
import { call, upload } from '../../../request/http.ts';
import { useFormSave } from '../../../components/useFormSave.ts';
import { useConfirmSubmit } from '../../../components/useConfirmSubmit.ts';
import { usePerm } from '../../../components/PermButton.tsx';
import { ImageUpload } from '../../../components/ImageUpload.tsx';
import { businessTodayPicker, pickerToDay } from '../../../components/businessTime.ts';
import { useSession } from '../../../stores/session.ts';
import { CustomerSelect } from '../../home/customer/CustomerSelect.tsx';
import { NoteField } from '../shared/NoteField.tsx';

export type RechargeRow = ResponseOf<typeof recharge.getRechargePage>['list'][number];
export type RechargeDetail = ResponseOf<typeof recharge.getRechargeDetail>;

export const PAY_STATE_COLORS: Record<number, string> = {
  [PayState.Unpaid]: 'gold', [PayState.Paid]: 'blue', [PayState.Confirmed]: 'green', [PayState.Closed]: 'default', [PayState.Failed]: 'red',
};
export const AUDIT_STATE_COLORS: Record<number, string> = { 0: 'processing', 1: 'success', 2: 'error' };
export const REFUND_STATE_COLORS: Record<number, string> = { [RefundState.Pending]: 'processing', [RefundState.Done]: 'success', [RefundState.Failed]: 'error' };

const MAX_FEN = moneyToFen(RECHARGE_RULES.maxAmount)!;

/** The amount rule of every money field here: above 0, two decimals, at most the top-up maximum (the server checks again). */
export function useAmountRule(maxFen: bigint = MAX_FEN, tooBig?: string) {
  const { t } = useTranslation();
  return {
    validator: async (_r: unknown, v: string | undefined) => {
      const text = (v ?? '').trim();
      if (!text) throw new Error(t('common.required'));
      const fen = /^\d{1,12}(\.\d{1,2})?$/.test(text) ? moneyToFen(text) : null;
      if (fen === null || fen <= 0n) throw new Error(t('recharge.amountInvalid'));
      if (fen > maxFen) throw new Error(tooBig ?? t('recharge.amountTooBig', { max: formatMoney(fenToMoney(maxFen)) }));
    },
  };
}

/** Whether the viewer picks the customer of a top-up: staff must, a channel customer may (its tree), others top up their own. */
function useCustomerChoice() {
  const staff = useSession((s) => s.roleId !== null && STAFF_ROLE_TYPES.includes(s.roleId));
  const canCustomers = usePerm([Perm.HomeCustomer, Perm.BusinessCustomer]);
  return { staff, show: staff || canCustomers };
}

/**
 * Online top-up: amount, channel (installed ones), note → confirmation → the payment order; the cashier opens in a
 * new tab (opened at the click, so no popup blocker stops it) and this dialog polls the order until it is paid,
 * failed or closed, then shows the new pre-deposit.
 */
export function OnlineTopUpModal({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [form] = Form.useForm<{ custId?: number; amount: string; gateway: string; note?: string }>();
  const { busy, save } = useFormSave(form, { [ErrorCode.MoneyAmountInvalid]: 'amount', [ErrorCode.PaymentChannelNotInstalled]: 'gateway' });
  const confirmSubmit = useConfirmSubmit(form);
  const who = useCustomerChoice();
  const [order, setOrder] = useState<{ rechargeId: number; cashierUrl: string; blocked: boolean; custId?: number } | null>(null);
  const O = (k: string, o?: Record<string, unknown>) => t(`recharge.onlineForm.${k}`, o);
  const amountRule = useAmountRule();
  const channels = useQuery({
    queryKey: [recharge.getPayChannels.name, lang],
    queryFn: ({ signal }) => call(recharge.getPayChannels, {}, { signal }),
    enabled: open,
  });
  useEffect(() => {
    if (open) {
      form.resetFields();
      setOrder(null);
    }
  }, [open, form]);

  const submit = () => confirmSubmit(async (v) => {
    const amount = fenToMoney(moneyToFen(v.amount.trim())!);
    // the customer's name for the confirmation (the caller's own without a choice)
    const cust = await call(capital.getCapitalDetail, v.custId ? { custId: v.custId } : {}, { silent: true }).catch(() => null);
    return {
      title: O('confirmTitle'),
      content: O('confirm', { amount: formatMoney(amount), customer: cust?.custName ?? '-' }),
      okText: O('submit'),
      testId: 'recharge-online-confirm',
      onOk: async () => {
        // opened during the click: a tab opened after the call returns would be stopped as a popup
        const tab = window.open('about:blank', '_blank');
        let created: ResponseOf<typeof recharge.saveRecharge> | null = null;
        const ok = await save(async () => {
          created = await call(recharge.saveRecharge, {
            amount, gateway: v.gateway, ...(v.custId ? { custId: v.custId } : {}), ...(v.note?.trim() ? { note: v.note.trim() } : {}),
          }, { silent: true });
        });
        const c = created as ResponseOf<typeof recharge.saveRecharge> | null;
        if (!ok || !c) {
          tab?.close();
          return;
        }
        if (tab) tab.location.href = c.cashierUrl;
        setOrder({ rechargeId: c.rechargeId, cashierUrl: c.cashierUrl, blocked: !tab, custId: v.custId });
        onDone();
      },
    };
  });

  return (
    <Modal
      open={open}
      title={O('title')}
      onCancel={onClose}
      onOk={order ? onClose : submit}
      okText={order ? t('common.close') : O('submit')}
      cancelButtonProps={order ? { style: { display: 'none' } } : undefined}
      confirmLoading={busy}
      destroyOnHidden
      okButtonProps={{ 'data-testid': order ? 'recharge-online-close' : 'recharge-online-submit' } as Record<string, string>}
    >
      {order ? (
        <PaymentWait order={order} onSettled={onDone} />
      ) : (
        <Form form={form} layout="vertical" initialValues={{ gateway: 'simulator' }} data-testid="recharge-online-form">
          {who.show && (
            <Form.Item name="custId" label={O('customer')} extra={who.staff ? undefined : O('customerHint')}
              rules={who.staff ? [{ required: true, message: t('common.required') }] : []}>
              <CustomerSelect allowClear placeholder={who.staff ? undefined : O('customerHint')} />
            </Form.Item>
          )}
          <Form.Item name="amount" label={O('amount')} extra={O('amountHint', { max: formatMoney(RECHARGE_RULES.maxAmount) })} required rules={[amountRule]}>
            <Input inputMode="decimal" maxLength={15} data-testid="recharge-amount" />
          </Form.Item>
          <Form.Item name="gateway" label={O('gateway')} rules={[{ required: true, message: t('common.required') }]}>
            <Select
              loading={channels.isLoading}
              options={(channels.data ?? [{ code: 'simulator', channel: PayChannel.Online, installed: true, name: lang === 'zh' ? '支付模拟器' : 'Payment simulator' }]).map((c) => ({
                value: c.code, disabled: !c.installed, label: c.installed ? c.name : lang === 'zh' ? `${c.name}（${O('notInstalled')}）` : `${c.name} (${O('notInstalled')})`,
              }))}
            />
          </Form.Item>
          <NoteField name="note" label={O('note')} max={RECHARGE_RULES.noteMax} />
        </Form>
      )}
    </Modal>
  );
}

/** Polls one online order until its channel settles it; then the result and the customer's pre-deposit. */
function PaymentWait({ order, onSettled }: { order: { rechargeId: number; cashierUrl: string; blocked: boolean; custId?: number }; onSettled: () => void }) {
  const { t } = useTranslation();
  const O = (k: string, o?: Record<string, unknown>) => t(`recharge.onlineForm.${k}`, o);
  const settled = useRef(false);
  const q = useQuery({
    queryKey: [recharge.getRechargeDetail.name, order.rechargeId, 'poll'],
    queryFn: ({ signal }) => call(recharge.getRechargeDetail, { rechargeId: order.rechargeId }, { signal, silent: true }),
    refetchInterval: (query) => (query.state.data && query.state.data.payState !== PayState.Unpaid ? false : 1500),
  });
  const state = q.data?.payState;
  const done = state !== undefined && state !== PayState.Unpaid;
  const balance = useQuery({
    queryKey: [capital.getCapitalDetail.name, q.data?.custId, 'after-top-up'],
    queryFn: ({ signal }) => call(capital.getCapitalDetail, { custId: q.data!.custId }, { signal, silent: true }),
    enabled: state === PayState.Confirmed,
  });
  useEffect(() => {
    if (done && !settled.current) {
      settled.current = true;
      onSettled();
    }
  }, [done, onSettled]);

  if (state === PayState.Confirmed) {
    return (
      <Result status="success" title={O('paid', { amount: formatMoney(q.data!.amount) })} data-testid="recharge-paid"
        subTitle={balance.data ? <span data-testid="recharge-balance">{O('balance', { amount: formatMoney(balance.data.preDeposit) })}</span> : balance.isError ? null : <Spin size="small" />} />
    );
  }
  if (state === PayState.Failed) return <Result status="error" title={O('failed')} data-testid="recharge-failed" />;
  if (state === PayState.Closed) return <Result status="warning" title={O('closed')} data-testid="recharge-closed" />;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="recharge-waiting">
      <Alert type="info" showIcon title={O('waitingTitle')} description={O('waiting')} />
      {order.blocked && (
        <Typography.Text>
          {O('popupBlocked')} <a href={order.cashierUrl} target="_blank" rel="noreferrer">{O('openCashier')}</a>
        </Typography.Text>
      )}
      <div style={{ textAlign: 'center' }}><Spin /></div>
    </Space>
  );
}

/**
 * Public (bank) transfer: amount, serial number (checked as typed leaves the field), transfer date (not after today),
 * certificate (uploaded at once, checked against the proof rule), note → confirmation → waiting for review.
 */
export function PublicTopUpModal({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ custId?: number; amount: string; serialNo: string; transferDate: Dayjs; proofFileId: string; note?: string }>();
  const confirmSubmit = useConfirmSubmit(form);
  const { busy, save } = useFormSave(form, {
    [ErrorCode.MoneyAmountInvalid]: 'amount', [ErrorCode.RechargeSerialUsed]: 'serialNo', [ErrorCode.RechargeTransferDateInvalid]: 'transferDate',
    [ErrorCode.RechargeProofInvalid]: 'proofFileId',
  });
  const who = useCustomerChoice();
  const [proofName, setProofName] = useState<string | null>(null);
  const P = (k: string, o?: Record<string, unknown>) => t(`recharge.publicForm.${k}`, o);
  const amountRule = useAmountRule();
  useEffect(() => {
    if (open) {
      form.resetFields();
      setProofName(null);
    }
  }, [open, form]);

  const checkSerial = async () => {
    const serialNo = (form.getFieldValue('serialNo') as string | undefined)?.trim();
    if (!serialNo || !/^[A-Za-z0-9-]{1,40}$/.test(serialNo)) return;
    const r = await call(recharge.checkSerialNumber, { serialNo }, { silent: true }).catch(() => null);
    if (r?.used) form.setFields([{ name: 'serialNo', errors: [P('serialUsed')] }]);
  };

  const submit = () => confirmSubmit((v) => {
    const amount = fenToMoney(moneyToFen(v.amount.trim())!);
    return {
      title: P('confirmTitle'),
      content: P('confirm', { amount: formatMoney(amount), serial: v.serialNo.trim() }),
      testId: 'recharge-public-confirm',
      onOk: async () => {
        let due = '';
        const ok = await save(async () => {
          const r = await call(recharge.savePublicRecharge, {
            amount, serialNo: v.serialNo.trim(), transferDate: pickerToDay(v.transferDate), proofFileId: v.proofFileId,
            ...(v.custId ? { custId: v.custId } : {}), ...(v.note?.trim() ? { note: v.note.trim() } : {}),
          }, { silent: true });
          due = r ? formatDateTime(r.dueAt) : '';
        });
        if (ok) {
          if (due) message.info(P('submitted', { due }));
          onDone();
          onClose();
        }
      },
    };
  });

  return (
    <Modal open={open} title={P('title')} onCancel={onClose} onOk={submit} okText={t('common.submit')} cancelText={t('common.cancel')}
      confirmLoading={busy} destroyOnHidden okButtonProps={{ 'data-testid': 'recharge-public-submit' } as Record<string, string>}>
      <Alert type="info" showIcon style={{ marginBottom: 16 }} title={P('hint')} />
      <Form form={form} layout="vertical" initialValues={{ transferDate: businessTodayPicker() }} data-testid="recharge-public-form">
        {who.show && (
          <Form.Item name="custId" label={P('customer')} rules={who.staff ? [{ required: true, message: t('common.required') }] : []}
            extra={who.staff ? undefined : t('recharge.onlineForm.customerHint')}>
            <CustomerSelect allowClear />
          </Form.Item>
        )}
        <Form.Item name="amount" label={P('amount')} required rules={[amountRule]}>
          <Input inputMode="decimal" maxLength={15} data-testid="recharge-public-amount" />
        </Form.Item>
        <Form.Item name="serialNo" label={P('serialNo')} extra={P('serialHint')} validateTrigger={['onChange', 'onBlur']}
          rules={[
            { required: true, whitespace: true, message: t('common.required') },
            { pattern: /^\s*[A-Za-z0-9-]{1,40}\s*$/, message: P('serialHint') },
          ]}>
          <Input maxLength={40} onBlur={() => void checkSerial()} data-testid="recharge-public-serial" />
        </Form.Item>
        <Form.Item name="transferDate" label={P('transferDate')} rules={[{ required: true, message: t('common.required') }]}>
          <DatePicker style={{ width: '100%' }} disabledDate={(d) => d.isAfter(businessTodayPicker(), 'day')} allowClear={false} />
        </Form.Item>
        <Form.Item name="proofFileId" label={P('proof')} rules={[{ required: true, message: P('proofRequired') }]}>
          <ImageUpload
            use="paymentProof"
            onFile={async (file) => {
              try {
                const r = await upload(recharge.uploadProof, file, {}, { silent: true });
                if (r) {
                  form.setFieldValue('proofFileId', r.fileId);
                  form.setFields([{ name: 'proofFileId', errors: [] }]);
                  setProofName(file.name);
                }
              } catch (e) {
                form.setFields([{ name: 'proofFileId', errors: [(e as Error).message] }]);
              }
            }}
          >
            <p>{proofName ? <span data-testid="recharge-proof-name">{P('proofUploaded', { name: proofName })}</span> : P('proofHint')}</p>
          </ImageUpload>
        </Form.Item>
        <NoteField name="note" label={P('note')} max={RECHARGE_RULES.noteMax} />
      </Form>
    </Modal>
  );
}

/** Finance's review of a public transfer: approve (credited at once) or reject with a reason, each confirmed. */
export function ReviewModal({ row, onClose, onDone }: { row: RechargeRow | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ approve: boolean; reason?: string }>();
  const { busy, save } = useFormSave(form);
  const confirmSubmit = useConfirmSubmit(form);
  const V = (k: string, o?: Record<string, unknown>) => t(`recharge.reviewForm.${k}`, o);
  const approve = Form.useWatch('approve', form);
  useEffect(() => {
    if (row) form.resetFields();
  }, [row, form]);
  if (!row) return null;

  const submit = () => confirmSubmit((v) => ({
    title: V('title'),
    content: v.approve ? V('confirmApprove', { amount: formatMoney(row.amount), customer: row.custName ?? '' }) : V('confirmReject'),
    danger: !v.approve,
    testId: 'recharge-review-confirm',
    onOk: async () => {
      const ok = await save(() => call(recharge.reviewRecharge, { rechargeId: row.rechargeId, approve: v.approve, ...(v.reason?.trim() ? { reason: v.reason.trim() } : {}) }, { silent: true }));
      if (ok) {
        onDone();
        onClose();
      }
    },
  }));

  return (
    <Modal open title={V('title')} onCancel={onClose} onOk={submit} okText={t('common.submit')} cancelText={t('common.cancel')} confirmLoading={busy}
      okButtonProps={{ 'data-testid': 'recharge-review-submit' } as Record<string, string>}>
      <Typography.Paragraph>
        {row.custName} · {formatMoney(row.amount)} · {row.serialNo}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ approve: true }}>
        <Form.Item name="approve" label={V('decision')}>
          <Radio.Group>
            <Radio value data-testid="recharge-review-approve">{V('approve')}</Radio>
            <Radio value={false} data-testid="recharge-review-reject">{V('reject')}</Radio>
          </Radio.Group>
        </Form.Item>
        <NoteField name="reason" label={V('reason')} max={RECHARGE_RULES.reasonMax} required={approve === false && V('reasonRequired')} />
      </Form>
    </Modal>
  );
}

/** A refund of a confirmed top-up: at most what is left of it; the reason required; confirmed before it goes. */
export function RefundModal({ row, onClose, onDone }: { row: RechargeRow | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ amount: string; reason: string }>();
  const { busy, save } = useFormSave(form, { [ErrorCode.RechargeRefundTooMuch]: 'amount', [ErrorCode.BalanceInsufficient]: 'amount', [ErrorCode.MoneyAmountInvalid]: 'amount' });
  const confirmSubmit = useConfirmSubmit(form);
  const F = (k: string, o?: Record<string, unknown>) => t(`recharge.refundForm.${k}`, o);
  const d = useQuery({
    queryKey: [recharge.getRechargeDetail.name, row?.rechargeId, 'refund'],
    queryFn: ({ signal }) => call(recharge.getRechargeDetail, { rechargeId: row!.rechargeId }, { signal }),
    enabled: !!row,
    staleTime: 0,
  });
  const refundable = d.data?.refundable ?? '0.00';
  const maxFen = moneyToFen(refundable) ?? 0n;
  const amountRule = useAmountRule(maxFen, F('max', { amount: formatMoney(refundable) }));
  useEffect(() => {
    if (row && d.data) form.setFieldsValue({ amount: d.data.refundable, reason: '' });
  }, [row, d.data, form]);
  if (!row) return null;

  const submit = () => confirmSubmit((v) => {
    const amount = fenToMoney(moneyToFen(v.amount.trim())!);
    return {
      title: F('confirmTitle'),
      content: F('confirm', { amount: formatMoney(amount), customer: row.custName ?? '' }),
      danger: true,
      testId: 'recharge-refund-confirm',
      onOk: async () => {
        const ok = await save(() => call(recharge.refundRecharge, { rechargeId: row.rechargeId, amount, reason: v.reason.trim() }, { silent: true }));
        if (ok) {
          onDone();
          onClose();
        }
      },
    };
  });

  return (
    <Modal open title={F('title')} onCancel={onClose} onOk={submit} okText={t('common.submit')} cancelText={t('common.cancel')} confirmLoading={busy}
      okButtonProps={{ disabled: maxFen <= 0n, 'data-testid': 'recharge-refund-submit' } as ButtonProps}>
      {d.isLoading ? <Spin /> : (
        <Form form={form} layout="vertical">
          <Alert type="info" showIcon style={{ marginBottom: 16 }} title={F('max', { amount: formatMoney(refundable) })} />
          <Form.Item name="amount" label={F('amount')} required rules={[amountRule]}>
            <Input inputMode="decimal" maxLength={15} data-testid="recharge-refund-amount" />
          </Form.Item>
          <NoteField name="reason" label={F('reason')} max={RECHARGE_RULES.reasonMax} required />
        </Form>
      )}
    </Modal>
  );
}
