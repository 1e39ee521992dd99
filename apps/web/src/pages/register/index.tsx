import { useState } from 'react';
import { Button, Form, Input, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { auth, validateEmailList, validatePassword, validatePasswordPair, validatePhoneList } from '@lynx/contract';
import { call } from '../../request/http.ts';
import { ruleOf, required } from '../../components/rules.ts';
import { AuthFrame } from '../AuthFrame.tsx';

/** /register: an enterprise customer applies; operator staff approve or reject in the customer screens. */
export default function RegisterPage() {
  const { t } = useTranslation();
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  if (done) {
    return (
      <AuthFrame title={t('auth.registerTitle')}>
        <Result status="success" title={t('auth.registerDone')} subTitle={t('auth.registerDoneHint')} extra={<Link to="/login">{t('auth.backToLogin')}</Link>} />
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title={t('auth.registerTitle')}>
      <Form layout="vertical" onFinish={async (v) => {
        setBusy(true);
        try {
          const clean = Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined && x !== ''));
          await call(auth.register, clean as never);
          setDone(true);
        } catch {
          /* the request layer shows why */
        } finally {
          setBusy(false);
        }
      }}>
        <Form.Item name="custName" label={t('auth.custName')} rules={[required(), { min: 2, max: 100 }]}><Input /></Form.Item>
        <Form.Item name="loginName" label={t('auth.loginName')} rules={[required(), { pattern: /^[A-Za-z0-9_.@-]{2,32}$/ }]}><Input autoComplete="username" /></Form.Item>
        <Form.Item name="password" label={t('auth.password')} extra={t('auth.passwordRule')} rules={[required(), ruleOf(validatePassword)]}><Input.Password autoComplete="new-password" /></Form.Item>
        <Form.Item name="confirmPassword" label={t('auth.confirmPassword')} dependencies={['password']}
          rules={[required(), ({ getFieldValue }) => ruleOf((x) => validatePasswordPair(getFieldValue('password'), x))]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="adminName" label={t('auth.adminName')} rules={[required(), { max: 40 }]}><Input /></Form.Item>
        <Form.Item name="adminPhone" label={t('auth.adminPhone')} extra={t('auth.phoneHint')} rules={[required(), ruleOf(validatePhoneList)]}><Input /></Form.Item>
        <Form.Item name="adminEmail" label={t('auth.adminEmail')} extra={t('auth.emailHint')} rules={[required(), ruleOf(validateEmailList)]}><Input /></Form.Item>
        <Form.Item name="businessLicense" label={t('auth.businessLicense')} rules={[{ max: 40 }]}><Input /></Form.Item>
        <Form.Item name="website" label={t('auth.website')} rules={[{ max: 200 }]}><Input /></Form.Item>
        <Form.Item name="remark" label={t('auth.remark')} rules={[{ max: 500 }]}><Input.TextArea rows={2} showCount maxLength={500} /></Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy}>{t('auth.registerSubmit')}</Button>
      </Form>
      <div style={{ marginTop: 16, textAlign: 'center' }}><Link to="/login">{t('auth.backToLogin')}</Link></div>
    </AuthFrame>
  );
}
