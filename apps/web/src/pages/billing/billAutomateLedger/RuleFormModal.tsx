import { useEffect } from 'react';
import { Checkbox, Form, InputNumber, Modal, Radio, Switch, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { BILL_AUTO_DAY_MAX, BILL_AUTO_DAY_MIN, BILL_AUTO_REMARK_MAX, BillAutoWriteOffMode, ErrorCode, billautomate } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { useFormSave } from '../../../components/useFormSave.ts';
import { CustomerSelect } from '../../home/customer/CustomerSelect.tsx';
import { NoteField } from '../../business/shared/NoteField.tsx';
import type { RuleRow } from './shared.tsx';

interface RuleForm { custId?: number; dayOfMonth?: number | null; actions: ('publish' | 'writeOff')[]; writeOffMode: number; enabled: boolean; remark?: string }

/** A day a rule may run on: a whole number 1–28. */
export const isRuleDay = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= BILL_AUTO_DAY_MIN && (v as number) <= BILL_AUTO_DAY_MAX;

/** Staff add a customer's rule or edit one (the customer stays); the server's refusals land on their fields. */
export function RuleFormModal({ open, rule, onClose, onSaved }: { open: boolean; rule: RuleRow | null; onClose: () => void; onSaved: (r: RuleRow) => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [form] = Form.useForm<RuleForm>();
  const { busy, save } = useFormSave(form, { [ErrorCode.BillAutoRuleExists]: 'custId', [ErrorCode.BillAutoNoAction]: 'actions' });
  const F = (k: string) => t(`billautomate.form.${k}`);
  const H = (k: string) => t(`billautomate.help.${k}`);
  const writesOff = (Form.useWatch('actions', form) ?? []).includes('writeOff');
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(rule
      ? {
        custId: rule.custId, dayOfMonth: rule.dayOfMonth, writeOffMode: rule.writeOffMode, enabled: rule.enabled === 1, remark: rule.remark ?? '',
        actions: [...(rule.publish ? ['publish' as const] : []), ...(rule.writeOff ? ['writeOff' as const] : [])],
      }
      : { dayOfMonth: 5, actions: ['publish', 'writeOff'], writeOffMode: BillAutoWriteOffMode.Full, enabled: true });
  }, [open, rule, form]);

  const submit = async () => {
    let v: RuleForm;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const fields = {
      dayOfMonth: v.dayOfMonth!, publish: v.actions.includes('publish') ? 1 : 0, writeOff: v.actions.includes('writeOff') ? 1 : 0,
      writeOffMode: v.writeOffMode, remark: v.remark?.trim() ?? '',
    };
    let saved = null as RuleRow | null;
    const ok = await save(async () => {
      saved = rule
        ? await call(billautomate.editBillAutomateRule, { ruleId: rule.ruleId, ...fields }, { silent: true })
        : await call(billautomate.addBillAutomateRule, { custId: v.custId!, ...fields, enabled: v.enabled ? 1 : 0 }, { silent: true });
    });
    if (ok && saved) {
      onSaved(saved);
      onClose();
    }
  };

  return (
    <Modal open={open} title={F(rule ? 'editTitle' : 'addTitle')} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy}
      okText={t('common.save')} cancelText={t('common.cancel')} okButtonProps={{ 'data-testid': 'auto-ledger-save' } as ButtonProps}
      destroyOnHidden forceRender width={600}>
      <Form form={form} layout="vertical" disabled={busy}>
        <Form.Item name="custId" label={F('customer')} rules={[{ required: true, message: F('customerRequired') }]}>
          {rule ? <CustomerSelect disabled initialLabel={rule.custName} /> : <CustomerSelect placeholder={F('customerRequired')} />}
        </Form.Item>
        <Form.Item name="dayOfMonth" label={F('day')} extra={H('day')} validateFirst
          rules={[{ required: true, message: F('dayInvalid') }, { validator: async (_r, v) => { if (!isRuleDay(v)) throw new Error(F('dayInvalid')); } }]}>
          <InputNumber min={BILL_AUTO_DAY_MIN} max={BILL_AUTO_DAY_MAX} precision={0} style={{ width: 160 }} data-testid="auto-ledger-day"
            addonBefore={lang === 'zh' ? '每月' : undefined} addonAfter={lang === 'zh' ? '日' : undefined} />
        </Form.Item>
        <Form.Item name="actions" label={F('actions')} extra={H('actions')}
          rules={[{ validator: async (_r, v: string[] | undefined) => { if (!v?.length) throw new Error(F('actionsRequired')); } }]}>
          <Checkbox.Group options={[
            { label: t('billautomate.f.publish'), value: 'publish' },
            { label: t('billautomate.f.writeOff'), value: 'writeOff' },
          ]} data-testid="auto-ledger-actions" />
        </Form.Item>
        {/* kept while hidden: a rule that does not write off keeps its mode for when it does again */}
        <Form.Item name="writeOffMode" label={F('mode')} extra={H('mode')} hidden={!writesOff}>
          <Radio.Group options={BillAutoWriteOffMode.options(lang)} data-testid="auto-ledger-mode" />
        </Form.Item>
        {!rule && (
          <Form.Item name="enabled" label={F('enabled')} valuePropName="checked">
            <Switch data-testid="auto-ledger-enabled" />
          </Form.Item>
        )}
        <NoteField name="remark" label={F('remark')} max={BILL_AUTO_REMARK_MAX} testId="auto-ledger-remark" />
      </Form>
    </Modal>
  );
}
