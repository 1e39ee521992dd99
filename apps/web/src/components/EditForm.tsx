import { useEffect, useState, type ReactNode } from 'react';
import { LiveText } from '../request/LiveText.tsx';
import { App, Form, Input, InputNumber, Modal, Select } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import type { ValidationResult } from '@lynx/contract';
import { ruleOf, required } from './rules.ts';

export interface EditField {
  name: string;
  label: string;
  type?: 'text' | 'password' | 'textarea' | 'number' | 'select';
  options?: { value: string | number; label: string }[];
  required?: boolean;
  /** a contract validator: the same rule the server applies */
  validate?: (value: any) => ValidationResult;
  /** a validator that needs other fields (e.g. confirm password) */
  validateWith?: (value: any, get: (name: string) => any) => ValidationResult;
  dependencies?: string[];
  max?: number;
  extra?: ReactNode;
  autoComplete?: string;
}

/**
 * A modal form from field configuration, checked with the contract validators before it calls the
 * server. `onSubmit` returning normally closes it with the success message; throwing keeps it open (the
 * request layer has already shown why).
 */
export function EditForm<T extends Record<string, unknown>>({ open, title, fields, initialValues, onSubmit, onClose, okText }: {
  open: boolean; title: ReactNode; fields: EditField[]; initialValues?: Partial<T>;
  onSubmit: (values: T) => Promise<unknown>; onClose: () => void; okText?: string;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) form.setFieldsValue(initialValues ?? {});
  }, [open, form, initialValues]);

  const submit = async () => {
    let values: T;
    try {
      values = (await form.validateFields()) as T;
    } catch {
      return; // the fields show what is wrong
    }
    setBusy(true);
    try {
      await onSubmit(values);
      message.success(<LiveText k="common.operationSuccess" />);
      form.resetFields();
      onClose();
    } catch {
      /* shown by the request layer; the form stays open with what was typed */
    } finally {
      setBusy(false);
    }
  };

  const rulesOf = (f: EditField): Rule[] => [
    ...(f.required ? [required()] : []),
    ...(f.max ? [{ max: f.max }] : []),
    ...(f.validate ? [ruleOf(f.validate, { optional: !f.required })] : []),
    ...(f.validateWith ? [({ getFieldValue }: { getFieldValue: (n: string) => any }) => ruleOf((v) => f.validateWith!(v, getFieldValue))] : []),
  ];
  const control = (f: EditField) => {
    switch (f.type) {
      case 'password':
        return <Input.Password autoComplete={f.autoComplete} />;
      case 'textarea':
        return <Input.TextArea rows={3} showCount={!!f.max} maxLength={f.max} />;
      case 'number':
        return <InputNumber style={{ width: '100%' }} />;
      case 'select':
        return <Select options={f.options} allowClear={!f.required} />;
      default:
        return <Input autoComplete={f.autoComplete} />;
    }
  };

  return (
    <Modal open={open} title={title} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy}
      okText={okText ?? t('common.save')} cancelText={t('common.cancel')} destroyOnHidden forceRender>
      <Form form={form} layout="vertical" preserve={false}>
        {fields.map((f) => (
          <Form.Item key={f.name} name={f.name} label={f.label} extra={f.extra} rules={rulesOf(f)} dependencies={f.dependencies}>
            {control(f)}
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}
