import { Alert, App, Button, Input, Modal, Space, Typography } from 'antd';
import { LiveText } from '../../../request/LiveText.tsx';
import { CopyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** Copies text; the async clipboard needs a secure context, the hidden text area works elsewhere too. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

/**
 * Shows a generated password once (new account without a password, or a reset). It is not kept anywhere, so
 * the modal only closes on an explicit acknowledgement.
 */
export function OneTimePassword({ loginName, password, onClose }: { loginName: string; password: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <Modal
      open={password !== null}
      title={t('home.account.oneTimeTitle')}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      destroyOnHidden
      footer={<Button type="primary" onClick={onClose} data-testid="one-time-close">{t('home.account.oneTimeDone')}</Button>}
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Alert type="warning" showIcon title={t('home.account.oneTimeWarning')} />
        <div>
          <Typography.Text type="secondary">{t('home.account.loginName')}: </Typography.Text>
          <Typography.Text strong>{loginName}</Typography.Text>
        </div>
        <Space.Compact style={{ width: '100%' }}>
          <Input readOnly value={password ?? ''} size="large" style={{ fontFamily: 'monospace', letterSpacing: 1 }} data-testid="one-time-password"
            onFocus={(e) => e.target.select()} />
          <Button
            size="large"
            icon={<CopyOutlined />}
            onClick={async () => {
              if (password && (await copyText(password))) message.success(<LiveText k="common.copied" />);
            }}
          >
            {t('common.copy')}
          </Button>
        </Space.Compact>
        <Typography.Text type="secondary">{t('home.account.oneTimeHint')}</Typography.Text>
      </Space>
    </Modal>
  );
}
