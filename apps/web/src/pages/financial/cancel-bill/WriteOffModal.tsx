import { useEffect } from 'react';
import { Alert, Button, Descriptions, Form, Input, Modal, Space, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorCode, bill, fenToMoney, formatMoney, moneyToFen } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { useFormSave } from '../../../components/useFormSave.ts';
import { useConfirmSubmit } from '../../../components/useConfirmSubmit.ts';
import { NoteField } from '../../business/shared/NoteField.tsx';
import { MoneyCell } from '../../business/capital/shared.tsx';
import { WithHelp, isPositive } from '../../billing/bill/shared.tsx';
import { defaultWriteOffAmount, writeOffAmountError } from './writeOff.ts';

/** The bill a write-off is for, with what is due and what the customer can pay now. */
export interface WriteOffTarget {
  billId: number;
  billNo: string;
  custName: string;
  periodKey: string;
  dueDate: string | null;
  arrears: string;
  payable: string;
}

/**
 * Writes off (part of) a published bill from the customer's grants first, then pre-deposit; credit is not used. The
 * amount starts at the smaller of the arrears and the payable balance and is checked here with the server's messages
 * before a confirmation; the server checks it again.
 */
export function WriteOffModal({ target, onClose, onDone }: { target: WriteOffTarget | null; onClose: () => void; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [form] = Form.useForm<{ amount: string; remark?: string }>();
  const { busy, save } = useFormSave(form, {
    [ErrorCode.WriteOffZero]: 'amount', [ErrorCode.WriteOffAboveDue]: 'amount', [ErrorCode.WriteOffAboveBalance]: 'amount', [ErrorCode.MoneyAmountInvalid]: 'amount',
  });
  const confirmSubmit = useConfirmSubmit(form);
  const W = (k: string, o?: Record<string, unknown>) => t(`bill.writeOff.${k}`, o);
  useEffect(() => {
    if (!target) return;
    form.resetFields();
    const amount = defaultWriteOffAmount(target);
    form.setFieldsValue({ amount: isPositive(amount) ? amount : '' });
  }, [target, form]);

  const noBalance = !!target && !isPositive(target.payable);

  const submit = async () => {
    if (!target) return;
    await confirmSubmit((v) => {
      const amount = fenToMoney(moneyToFen(v.amount.trim())!);
      return {
        title: W('confirmTitle'),
        content: W('confirm', { amount: formatMoney(amount), no: target.billNo, cust: target.custName }),
        okText: W('ok'),
        testId: 'write-off-confirm',
        onOk: async () => {
          const ok = await save(() => call(bill.writeOffBill, { billId: target.billId, amount, ...(v.remark?.trim() ? { remark: v.remark.trim() } : {}) }, { silent: true }));
          // refused or not, the list shows the bill as it is now (someone may have written it off first)
          onDone();
          if (ok) onClose();
        },
      };
    });
  };

  return (
    <Modal open={!!target} title={W('title')} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} okText={W('ok')} cancelText={t('common.cancel')}
      okButtonProps={{ disabled: noBalance, 'data-testid': 'write-off-ok' } as ButtonProps} destroyOnHidden forceRender width={600}>
      {target && (
        <>
          <Descriptions column={1} size="small" bordered style={{ marginBottom: 16 }}>
            <Descriptions.Item label={t('bill.f.billNo')}>{target.billNo}</Descriptions.Item>
            <Descriptions.Item label={t('bill.f.customer')}>{target.custName}</Descriptions.Item>
            <Descriptions.Item label={t('bill.f.period')}>{target.periodKey}</Descriptions.Item>
            <Descriptions.Item label={<WithHelp label={t('bill.f.dueDate')} help={t('bill.help.dueDate', { days: bill.BILL_DUE_DAYS })} />}>{target.dueDate ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={t('money.withCurrency', { label: t('bill.f.arrears') })}>
              <span data-testid="write-off-arrears"><MoneyCell v={target.arrears} /></span>
            </Descriptions.Item>
            <Descriptions.Item label={<WithHelp label={t('money.withCurrency', { label: t('bill.f.payable') })} help={t('bill.help.payable')} />}>
              <span data-testid="write-off-payable"><MoneyCell v={target.payable} /></span>
            </Descriptions.Item>
          </Descriptions>
          <Alert type="info" showIcon style={{ marginBottom: 16 }} title={W('how')} />
          {noBalance && <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={W('noBalance')} data-testid="write-off-no-balance" />}
          <Form form={form} layout="vertical" disabled={busy || noBalance}>
            <Form.Item label={t('money.withCurrency', { label: W('amount') })} required>
              <Space.Compact style={{ width: '100%' }}>
                <Form.Item name="amount" noStyle validateFirst rules={[
                  { required: true, whitespace: true, message: W('amountInvalid') },
                  { validator: async (_r, v: string | undefined) => { const e = writeOffAmountError(v, target, lang, W('amountInvalid')); if (e) throw new Error(e); } },
                ]}>
                  <Input inputMode="decimal" maxLength={15} placeholder="0.00" data-testid="write-off-amount" />
                </Form.Item>
                <Button onClick={() => form.setFieldsValue({ amount: defaultWriteOffAmount(target) })}>{W('max')}</Button>
              </Space.Compact>
            </Form.Item>
            <NoteField name="remark" label={W('remark')} max={bill.WRITE_OFF_REMARK_MAX} testId="write-off-remark" />
          </Form>
        </>
      )}
    </Modal>
  );
}
