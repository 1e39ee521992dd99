import { useEffect, useState } from 'react';
import { Alert, App, Button, Form, Input, Space } from 'antd';
import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { auth, ErrorCode, validatePassword, validatePasswordPair } from '@lynx/contract';
import { call, LogicError } from '../../request/http.ts';
import { isLoggedIn, useSession } from '../../stores/session.ts';
import { useTabs } from '../../stores/tabs.ts';
import { ruleOf, required } from '../../components/rules.ts';
import { AuthFrame } from '../AuthFrame.tsx';

interface Captcha {
  captchaKey: string;
  image: string;
}

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
        message.success(t('auth.resetDone'));
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

/** /login: login name and password, a captcha when the server asks, a forced password change. */
export default function LoginPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const session = useSession();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const [captcha, setCaptcha] = useState<Captcha | null>(null);
  const [error, setError] = useState<string | null>(null);

  const loadCaptcha = async () => {
    const c = await call(auth.captcha, {}, { silent: true }).catch(() => null);
    if (c) setCaptcha(c);
    form.setFieldValue('captchaCode', '');
  };

  useEffect(() => {
    // the server may require a captcha for every login
    void call(auth.captcha, {}, { silent: true }).then((c) => c?.required && setCaptcha(c)).catch(() => null);
  }, []);

  const mustReset = isLoggedIn(session) && session.mustResetPassword;
  // an expired session arrives here with ?status=20003 while its values are being cleared: stay
  if (isLoggedIn(session) && !mustReset && !params.get('reset') && !params.get('status')) {
    queueMicrotask(() => navigate('/', { replace: true }));
  }

  const submit = async (v: { loginName: string; password: string; captchaCode?: string }) => {
    setBusy(true);
    setError(null);
    try {
      const data = await call(
        auth.login,
        { loginName: v.loginName.trim(), password: v.password, ...(captcha && v.captchaCode ? { captchaKey: captcha.captchaKey, captchaCode: v.captchaCode } : {}) },
        { silent: true },
      );
      if (!data) return;
      useTabs.getState().clear();
      session.signIn(data);
      message.success(t('auth.loginSuccess'));
      if (!data.mustResetPassword) navigate('/', { replace: true });
    } catch (e) {
      if (e instanceof LogicError) {
        setError(e.message);
        const needs = (e.data as { captchaRequired?: boolean } | null)?.captchaRequired || e.errorCode === ErrorCode.CaptchaRequired;
        if (needs || captcha) await loadCaptcha();
      } else {
        setError(e instanceof Error ? e.message : String(e));
      }
    } finally {
      setBusy(false);
    }
  };

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
      {params.get('status') === String(ErrorCode.SessionInvalid) && !error && (
        <Alert type="warning" showIcon message={t('auth.sessionExpired')} style={{ marginBottom: 16 }} />
      )}
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="login-error" />}
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
        <Form.Item name="loginName" label={t('auth.loginName')} rules={[required()]}>
          <Input prefix={<UserOutlined />} autoComplete="username" autoFocus />
        </Form.Item>
        <Form.Item name="password" label={t('auth.password')} rules={[required()]}>
          <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
        </Form.Item>
        {captcha && (
          <Form.Item label={t('auth.captcha')} required>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="captchaCode" noStyle rules={[required()]}>
                <Input prefix={<SafetyOutlined />} maxLength={8} autoComplete="off" />
              </Form.Item>
              <button type="button" className="lx-captcha" title={t('auth.captchaRefresh')} onClick={() => void loadCaptcha()}
                style={{ border: '1px solid #d9d9d9', borderLeft: 0, background: '#fff', padding: 0, cursor: 'pointer', height: 32 }}
                dangerouslySetInnerHTML={{ __html: captcha.image.replace('<svg ', '<svg height="30" width="100" ') }} />
            </Space.Compact>
          </Form.Item>
        )}
        <Button type="primary" htmlType="submit" block loading={busy} size="large">{t('auth.submit')}</Button>
      </Form>
      <div style={{ marginTop: 16, textAlign: 'center' }}>
        {t('auth.noAccount')} <Link to="/register">{t('auth.register')}</Link>
      </div>
    </AuthFrame>
  );
}
