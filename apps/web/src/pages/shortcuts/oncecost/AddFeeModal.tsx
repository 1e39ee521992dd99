import { useEffect } from 'react';
import { DatePicker, Form, Input, Modal, type ButtonProps } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { ErrorCode, bill, fenToMoney, formatMoney, moneyToFen } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { useFormSave } from '../../../components/useFormSave.ts';
import { useConfirmSubmit } from '../../../components/useConfirmSubmit.ts';
import { businessTodayPicker, pickerToDay } from '../../../components/businessTime.ts';
import { CustomerSelect } from '../../home/customer/CustomerSelect.tsx';
import { NoteField } from '../../business/shared/NoteField.tsx';

interface FeeForm { custId?: number; iccid?: string; amount: string; reason: string; feeDay?: Dayjs | null }

/** A money text a user typed: above zero, at most two decimals (the contract's MoneyInput). */
export const isFeeAmount = (v: unknown): boolean => typeof v === 'string' && /^\d{1,12}(\.\d{1,2})?$/.test(v.trim()) && (moneyToFen(v.trim()) ?? 0n) > 0n;
/** An ICCID: 19 or 20 hexadecimal characters. */
export const isIccid = (v: string) => /^[0-9A-Fa-f]{19,20}$/.test(v);

/** Staff put a one-off fee on a customer, or on one of its cards; the customer's next bill run charges it. */
export function AddFeeModal({ open, onClose, onSaved }: { open: boolean; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FeeForm>();
  const { busy, save } = useFormSave(form, { [ErrorCode.OneOffFeeCardNotOwned]: 'iccid', [ErrorCode.MoneyAmountInvalid]: 'amount' });
  const confirmSubmit = useConfirmSubmit(form);
  const O = (k: string, o?: Record<string, unknown>) => t(`bill.oneOff.${k}`, o);
  useEffect(() => {
    if (open) {
      form.resetFields();
      form.setFieldsValue({ feeDay: businessTodayPicker() });
    }
  }, [open, form]);

  const submit = () => confirmSubmit((v) => {
    const amount = fenToMoney(moneyToFen(v.amount.trim())!);
    const iccid = v.iccid?.trim() || undefined;
    return {
      title: O('confirmTitle'),
      content: O(iccid ? 'confirmCard' : 'confirmCustomer', { amount: formatMoney(amount), iccid }),
      testId: 'one-off-confirm',
      onOk: async () => {
        const ok = await save(() => call(bill.addOneOffFee, {
          custId: v.custId!, amount, reason: v.reason.trim(), ...(iccid ? { iccid } : {}), ...(v.feeDay ? { feeDay: pickerToDay(v.feeDay) } : {}),
        }, { silent: true }));
        if (ok) {
          onSaved();
          onClose();
        }
      },
    };
  });

  return (
    <Modal open={open} title={O('addTitle')} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} okText={t('common.save')} cancelText={t('common.cancel')}
      okButtonProps={{ 'data-testid': 'one-off-save' } as ButtonProps} destroyOnHidden forceRender width={560}>
      <Form form={form} layout="vertical" disabled={busy}>
        <Form.Item name="custId" label={O('customer')} rules={[{ required: true, message: t('common.required') }]}>
          <CustomerSelect placeholder={t('common.required')} />
        </Form.Item>
        <Form.Item name="iccid" label="ICCID" extra={O('iccidHint')}
          rules={[{ validator: async (_r, v: string | undefined) => { if (v?.trim() && !isIccid(v.trim())) throw new Error(O('iccidInvalid')); } }]}>
          <Input allowClear maxLength={20} data-testid="one-off-iccid" />
        </Form.Item>
        <Form.Item name="amount" label={t('money.withCurrency', { label: O('amount') })} validateFirst
          rules={[{ required: true, whitespace: true, message: O('amountInvalid') }, { validator: async (_r, v) => { if (!isFeeAmount(v)) throw new Error(O('amountInvalid')); } }]}>
          <Input inputMode="decimal" maxLength={15} placeholder="0.00" style={{ width: 240 }} data-testid="one-off-amount" />
        </Form.Item>
        <NoteField name="reason" label={O('reason')} max={bill.ONE_OFF_REASON_MAX} required testId="one-off-reason" />
        <Form.Item name="feeDay" label={O('feeDay')} extra={O('feeDayHint')}>
          <DatePicker allowClear={false} data-testid="one-off-day" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
