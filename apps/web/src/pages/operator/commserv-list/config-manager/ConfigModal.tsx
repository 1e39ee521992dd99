import { useEffect, type ReactNode } from 'react';
import { Form, Modal } from 'antd';
import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormSave } from '../../../../components/useFormSave.ts';

/**
 * The add / edit modal of a speed-limit or redirect configuration: the caller gives the fields; a taken
 * name is shown on the name field.
 */
export function ConfigModal<T extends object>({ open, title, initialValues, nameField, nameTakenCode, onSubmit, onClose, children }: {
  open: boolean; title: ReactNode; initialValues: Partial<T>; nameField: string; nameTakenCode: number;
  onSubmit: (values: T) => Promise<unknown>; onClose: () => void; children: (form: FormInstance<T>) => ReactNode;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<T>();
  const { busy, save } = useFormSave(form, { [nameTakenCode]: nameField });
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(initialValues as never);
  }, [open, initialValues, form]);

  const submit = async () => {
    let v: T;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    if (await save(() => onSubmit(v))) onClose();
  };
  return (
    <Modal open={open} title={title} onCancel={onClose} onOk={() => void submit()} okText={t('common.save')} cancelText={t('common.cancel')}
      confirmLoading={busy} width={560} destroyOnHidden>
      <Form form={form} layout="vertical" disabled={busy} style={{ marginTop: 12 }}>
        {children(form)}
      </Form>
    </Modal>
  );
}
