import { useState } from 'react';
import { App, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { auth, validatePassword, validatePasswordPair } from '@lynx/contract';
import { call } from '../request/http.ts';
import { ruleOf, required } from '../components/rules.ts';

/** Change your own password from the user menu; the server ends your other sessions. */
export function ChangePasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const v = await form.validateFields();
    setBusy(true);
    try {
      await call(auth.resetPassword, v);
      message.success(t('auth.resetDone'));
      form.resetFields();
      onClose();
    } catch {
      /* the request layer showed the reason */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={open} title={t('shell.changePassword')} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} okText={t('common.save')} cancelText={t('common.cancel')} destroyOnHidden>
      <Form form={form} layout="vertical">
        <Form.Item name="oldPassword" label={t('auth.oldPassword')} rules={[required()]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item name="newPassword" label={t('auth.newPassword')} extra={t('auth.passwordRule')} rules={[required(), ruleOf(validatePassword)]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="confirmPassword" label={t('auth.confirmPassword')} dependencies={['newPassword']}
          rules={[required(), ({ getFieldValue }) => ruleOf((x) => validatePasswordPair(getFieldValue('newPassword'), x))]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
