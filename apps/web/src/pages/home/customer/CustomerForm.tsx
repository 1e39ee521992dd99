import { useEffect, useState, type ReactNode } from 'react';
import { LiveText } from '../../../request/LiveText.tsx';
import { Alert, App, Button, Col, Divider, Drawer, Form, Input, InputNumber, Row, Select, Space } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  account, CustomerLevel, CustomerStatus, InvoiceType, NOTE_LIMITS, PaymentModel, STAFF_ROLE_TYPES,
  validateEmailList, validateLength, validatePhoneList, type BodyOf,
} from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { required, ruleOf } from '../../../components/rules.ts';
import { useSession } from '../../../stores/session.ts';
import { CustomerSelect } from './CustomerSelect.tsx';
import { customerBody, customerFormValues, type CustomerFormValues } from './body.ts';
import type { CustomerRecord } from './CustomerDetail.tsx';

const max = (n: number) => ruleOf((v) => validateLength(v, n));

/** Every query showing customers: lists, pickers, details. */
export function invalidateCustomers(qc: ReturnType<typeof useQueryClient>) {
  for (const e of [account.getCustomerListPage, account.getCustomerInfo]) void qc.invalidateQueries({ queryKey: [e.name] });
}

/**
 * Creates (record null) or edits an enterprise customer with the fields of spec §3. Staff choose the parent:
 * a first-level customer makes a second-level one, none makes a first-level customer. A channel customer's
 * new customers are always second-level under its own customer (the server places them).
 */
export function CustomerForm({ open, record, onClose }: { open: boolean; record: CustomerRecord | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<CustomerFormValues>();
  const [busy, setBusy] = useState(false);
  const roleType = useSession((s) => s.roleId);
  const ownCustId = useSession((s) => s.custId);
  const staff = roleType !== null && STAFF_ROLE_TYPES.includes(roleType);
  const editing = record !== null;
  // state, payment model and sales contact are the operator's: a customer's own record shows them read-only
  // (a channel customer sets them on its second-level customers); the server refuses changes the same way
  const operatorFieldsLocked = editing && !staff && (record.level !== CustomerLevel.Second || record.custId === ownCustId);
  const lockedExtra = operatorFieldsLocked ? t('home.customer.operatorFieldHint') : undefined;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(record ? customerFormValues(record) : { status: CustomerStatus.Online });
  }, [open, record, form]);

  const submit = async (values: CustomerFormValues) => {
    setBusy(true);
    try {
      if (record) await call(account.updateCustomer, { custId: record.custId, ...customerBody(values, 'update') });
      else await call(account.saveCustomer, customerBody(values, 'create') as BodyOf<typeof account.saveCustomer>);
      message.success(<LiveText k="common.operationSuccess" />);
      invalidateCustomers(qc);
      onClose();
    } catch {
      /* the request layer shows why */
    } finally {
      setBusy(false);
    }
  };

  const item = (name: keyof CustomerFormValues, label: string, control: ReactNode, rules: object[] = [], extra?: string, span = 12) => (
    <Col xs={24} md={span}>
      <Form.Item name={name} label={label} rules={rules as never} extra={extra}>{control}</Form.Item>
    </Col>
  );
  const f = (k: string) => t(`home.customer.fields.${k}`);
  return (
    <Drawer
      open={open}
      size={760}
      title={editing ? t('home.customer.editTitle', { name: record.custName }) : t('home.customer.createTitle')}
      onClose={onClose}
      forceRender
      footer={
        <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" loading={busy} onClick={() => form.submit()} data-testid="customer-save">{t('common.save')}</Button>
        </Space>
      }
    >
      <Form<CustomerFormValues> form={form} layout="vertical" onFinish={submit} scrollToFirstError>
        {!editing && !staff && <Alert type="info" showIcon title={t('home.customer.channelCreateHint')} style={{ marginBottom: 16 }} />}
        <Divider titlePlacement="start" plain>{t('home.customer.sections.basic')}</Divider>
        <Row gutter={16}>
          {item('custName', f('custName'), <Input />, [
            required(), { whitespace: true, min: 2, message: t('home.customer.nameMin') }, max(100),
          ])}
          {!editing && staff && item('parentCustId', f('parentCustName'),
            <CustomerSelect level={CustomerLevel.First} allowClear placeholder={t('home.customer.noParent')} />, [], t('home.customer.parentHint'))}
          {editing && (
            <Col xs={24} md={12}>
              <Form.Item label={f('parentCustName')}>
                <Input disabled value={record.parentCustName ?? t('home.customer.noParentValue')} />
              </Form.Item>
            </Col>
          )}
          {item('status', t('common.status'), <Select options={CustomerStatus.options(lang)} disabled={operatorFieldsLocked} />, [required()], lockedExtra)}
          {item('businessUnit', f('businessUnit'), <Input />, [max(100)])}
        </Row>
        <Divider titlePlacement="start" plain>{t('home.customer.sections.admin')}</Divider>
        <Row gutter={16}>
          {item('adminName', f('adminName'), <Input />, [required(), { whitespace: true, message: t('common.required') }, max(40)])}
          {item('adminPhone', f('adminPhone'), <Input />, [required(), ruleOf(validatePhoneList, { optional: true }), max(200)], t('home.customer.phoneHint'))}
          {item('adminEmail', f('adminEmail'), <Input />, [required(), ruleOf(validateEmailList, { optional: true }), max(500)], t('home.customer.emailHint'))}
        </Row>
        <Divider titlePlacement="start" plain>{t('home.customer.sections.enterprise')}</Divider>
        <Row gutter={16}>
          {item('businessLicense', f('businessLicense'), <Input />, [max(40)])}
          {item('website', f('website'), <Input placeholder="https://" />, [max(200)])}
          {item('registeredCapital', f('registeredCapital'),
            <InputNumber<string> stringMode min="0" max="999999999999.99" precision={2} style={{ width: '100%' }} />)}
          {item('invoiceType', f('invoiceType'), <Select allowClear options={InvoiceType.options(lang)} />)}
          {item('taxNumber', f('taxNumber'), <Input />, [max(40)])}
          {item('bankName', f('bankName'), <Input />, [max(100)])}
          {item('bankAccount', f('bankAccount'), <Input />, [max(40)])}
          {item('paymentModel', f('paymentModel'), <Select allowClear options={PaymentModel.options(lang)} disabled={operatorFieldsLocked} />, [], lockedExtra)}
          {item('industryLevel1', f('industryLevel1'), <Input />, [max(40)])}
          {item('industryLevel2', f('industryLevel2'), <Input />, [max(40)])}
          {item('industryAttribute', f('industryAttribute'), <Input />, [max(100)], undefined, 24)}
        </Row>
        <Divider titlePlacement="start" plain>{t('home.customer.sections.sales')}</Divider>
        <Row gutter={16}>
          {item('salesName', f('salesName'), <Input disabled={operatorFieldsLocked} />, [max(40)], lockedExtra)}
          {item('salesPhone', f('salesPhone'), <Input disabled={operatorFieldsLocked} />, [ruleOf(validatePhoneList, { optional: true }), max(200)], t('home.customer.phoneHint'))}
          {item('salesEmail', f('salesEmail'), <Input disabled={operatorFieldsLocked} />, [ruleOf(validateEmailList, { optional: true }), max(500)], t('home.customer.emailHint'))}
          {item('remark', t('common.remark'), <Input.TextArea rows={3} showCount maxLength={NOTE_LIMITS.long} />, [max(NOTE_LIMITS.long)], undefined, 24)}
        </Row>
      </Form>
    </Drawer>
  );
}
