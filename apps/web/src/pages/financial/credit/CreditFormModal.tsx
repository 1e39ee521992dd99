import { useEffect } from 'react';
import { DatePicker, Form, Input, InputNumber, Modal, Radio, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  CREDIT_PROVISIONAL_DAYS_MAX, CREDIT_REASON_MAX, CREDIT_TERM_MAX, CreditPaymentUnit, CreditType, ErrorCode, credit, validateLength,
} from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { required, ruleOf } from '../../../components/rules.ts';
import { useFormSave } from '../../../components/useFormSave.ts';
import { businessTodayPicker, pickerToDay } from '../../../components/businessTime.ts';
import { CustomerSelect } from '../../home/customer/CustomerSelect.tsx';
import { isCreditAmount, type CreditRow } from './shared.tsx';

interface CreditForm {
  custId?: number;
  creditType: number;
  amount: string;
  paymentTerm: number;
  paymentUnit: number;
  validTo?: Dayjs | null;
  remark?: string;
  reason?: string;
}

/** Grant credit to a customer, or change a valid credit order (with a reason). Platform finance staff only. */
export function CreditFormModal({ open, record, onClose, onSaved, presetCustId }: {
  open: boolean; record: CreditRow | null; onClose: () => void; onSaved: (c: CreditRow) => void; presetCustId?: number;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [form] = Form.useForm<CreditForm>();
  const { busy, save } = useFormSave(form, {
    [ErrorCode.CreditValidToInvalid]: 'validTo', [ErrorCode.CreditTermInvalid]: 'paymentTerm', [ErrorCode.MoneyAmountInvalid]: 'amount',
    [ErrorCode.CreditBelowUsed]: 'amount', [ErrorCode.MoneySelfReview]: 'custId', [ErrorCode.CreditStaffOnly]: 'custId',
  });
  const F = (k: string) => t(`credit.f.${k}`);
  const R = (k: string) => t(`credit.rule.${k}`);
  const type = Form.useWatch('creditType', form);
  const unit = Form.useWatch('paymentUnit', form);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      record
        ? {
          creditType: record.creditType, amount: record.amount, paymentTerm: record.paymentTerm, paymentUnit: record.paymentUnit,
          validTo: record.validTo ? dayjs(record.validTo) : null, remark: record.remark ?? '',
        }
        : { custId: presetCustId, creditType: CreditType.Fixed, paymentTerm: 30, paymentUnit: CreditPaymentUnit.Day },
    );
  }, [open, record, presetCustId, form]);

  const today = businessTodayPicker();
  const lastDay = today.add(CREDIT_PROVISIONAL_DAYS_MAX - 1, 'day');
  const maxTerm = CREDIT_TERM_MAX[(unit as keyof typeof CREDIT_TERM_MAX) ?? CreditPaymentUnit.Day] ?? 365;

  const submit = async () => {
    let v: CreditForm;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const terms = {
      creditType: v.creditType,
      amount: v.amount.trim(),
      paymentTerm: v.paymentTerm,
      paymentUnit: v.paymentUnit,
      ...(v.creditType === CreditType.Provisional && v.validTo ? { validTo: pickerToDay(v.validTo) } : {}),
      ...(v.remark?.trim() ? { remark: v.remark.trim() } : {}),
    };
    let saved: CreditRow | null = null;
    const ok = await save(async () => {
      saved = record
        ? await call(credit.updateCredit, { creditId: record.creditId, ...terms, reason: (v.reason ?? '').trim() }, { silent: true })
        : await call(credit.saveCredit, { custId: v.custId!, ...terms }, { silent: true });
    });
    if (ok && saved) {
      onSaved(saved);
      onClose();
    }
  };

  return (
    <Modal open={open} title={record ? t('credit.editTitle', { no: record.creditNo }) : t('credit.addTitle')} onCancel={onClose} onOk={() => void submit()}
      confirmLoading={busy} okText={t('common.save')} cancelText={t('common.cancel')} okButtonProps={{ 'data-testid': 'credit-save' } as Record<string, string>}
      destroyOnHidden forceRender width={600}>
      <Form form={form} layout="vertical" disabled={busy}>
        {!record && (
          <Form.Item name="custId" label={F('customer')} rules={[{ required: true, message: R('customer') }]}>
            <CustomerSelect placeholder={t('common.required')} />
          </Form.Item>
        )}
        <Form.Item name="creditType" label={F('creditType')} rules={[required()]}>
          <Radio.Group options={CreditType.options(lang)} data-testid="credit-type" />
        </Form.Item>
        <Form.Item name="amount" label={F('amount')}
          rules={[{ required: true, message: R('amount') }, { validator: async (_, v) => { if (v && !isCreditAmount(v)) throw new Error(R('amount')); } }]}>
          <Input inputMode="decimal" maxLength={15} style={{ width: 240 }} placeholder="10000.00" data-testid="credit-amount" />
        </Form.Item>
        <Form.Item label={F('paymentTerm')} required extra={F('paymentTermHint')}>
          <Space.Compact>
            <Form.Item name="paymentTerm" noStyle rules={[{ required: true, message: R('term') }]}>
              <InputNumber min={1} max={maxTerm} precision={0} style={{ width: 140 }} data-testid="credit-term" />
            </Form.Item>
            <Form.Item name="paymentUnit" noStyle>
              <Select options={CreditPaymentUnit.options(lang)} style={{ width: 120 }}
                onChange={(u: number) => {
                  const n = form.getFieldValue('paymentTerm') as number | undefined;
                  const max = CREDIT_TERM_MAX[u as keyof typeof CREDIT_TERM_MAX];
                  if (n && max && n > max) form.setFieldValue('paymentTerm', max);
                }} />
            </Form.Item>
          </Space.Compact>
        </Form.Item>
        {type === CreditType.Provisional && (
          <Form.Item name="validTo" label={F('validTo')} extra={F('validToHint')} rules={[{ required: true, message: R('validTo') }]}>
            <DatePicker disabledDate={(d) => d.isBefore(today, 'day') || d.isAfter(lastDay, 'day')} data-testid="credit-valid-to" />
          </Form.Item>
        )}
        <Form.Item name="remark" label={F('remark')} rules={[ruleOf((v) => validateLength(v, CREDIT_REASON_MAX))]}>
          <Input.TextArea rows={2} maxLength={CREDIT_REASON_MAX} showCount />
        </Form.Item>
        {record && (
          <Form.Item name="reason" label={F('reason')} rules={[{ required: true, whitespace: true, message: R('reason') }]}>
            <Input.TextArea rows={2} maxLength={CREDIT_REASON_MAX} showCount data-testid="credit-reason" />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
