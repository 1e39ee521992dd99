import { useState } from 'react';
import { LiveText } from '../../request/LiveText.tsx';
import { Alert, App, Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { auth, ErrorCode, validatePassword, validatePasswordPair } from '@lynx/contract';
import { call } from '../../request/http.ts';
import { isLoggedIn, useSession } from '../../stores/session.ts';
import { useTabs } from '../../stores/tabs.ts';
import { ruleOf, required } from '../../components/rules.ts';
import { AuthFrame } from '../AuthFrame.tsx';
import { LoginForm, type Translate } from '../../login/LoginForm.tsx';

function ResetPassword({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  return (
    <Form form={form} layout="vertical" onFinish={async (v) => {
      setBusy(true);
      try {
        await call(auth.resetPassword, v);
        message.success(<LiveText k="auth.resetDone" />);
        onDone();
      } catch {
        /* shown by the request layer */
      } finally {
        setBusy(false);
      }
    }}>
      <Alert type="warning" showIcon message={t('auth.mustReset')} style={{ marginBottom: 16 }} />
      <Form.Item name="oldPassword" label={t('auth.oldPassword')} rules={[required()]}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item name="newPassword" label={t('auth.newPassword')} extra={t('auth.passwordRule')} rules={[required(), ruleOf(validatePassword)]}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label={t('auth.confirmPassword')}
        dependencies={['newPassword']}
        rules={[required(), ({ getFieldValue }) => ruleOf((v) => validatePasswordPair(getFieldValue('newPassword'), v))]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy}>{t('auth.resetSubmit')}</Button>
    </Form>
  );
}

/**
 * /login inside the console (after signing out, or a session that must change its password): the same sign-in form as
 * the light login page (login/LoginForm.tsx), and the forced password change.
 */
export default function LoginPage() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const session = useSession();

  const mustReset = isLoggedIn(session) && session.mustResetPassword;
  // an expired session arrives here with ?status=20003 while its values are being cleared: stay
  if (isLoggedIn(session) && !mustReset && !params.get('reset') && !params.get('status')) {
    queueMicrotask(() => navigate('/', { replace: true }));
  }

  if (mustReset) {
    return (
      <AuthFrame title={t('auth.resetTitle')}>
        <ResetPassword onDone={() => {
          session.setMustReset(false);
          navigate('/', { replace: true });
        }} />
      </AuthFrame>
    );
  }

  return (
    <AuthFrame title={t('auth.title')}>
      <LoginForm
        t={t as Translate}
        lang={i18n.language === 'en' ? 'en' : 'zh'}
        sessionExpired={params.get('status') === String(ErrorCode.SessionInvalid)}
        onSignedIn={(data) => {
          useTabs.getState().clear();
          session.signIn(data);
          message.success(<LiveText k="auth.loginSuccess" />);
          if (!data.mustResetPassword) navigate('/', { replace: true });
        }}
        onRegister={(e) => {
          e.preventDefault();
          navigate('/register');
        }}
      />
    </AuthFrame>
  );
}
