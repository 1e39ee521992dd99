import { useState } from 'react';
import { App, Modal, Space, Typography, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { account, FILE_RULES, validateUpload, formatValidationMessage } from '@lynx/contract';
import { upload } from '../request/http.ts';
import { currentLang } from '../locales/i18n.ts';
import { useLogo } from './useLogo.ts';

/** Logo setting: jpg or png under 1500 KB, checked here and again on the server. */
export function LogoModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const logo = useLogo();
  const [busy, setBusy] = useState(false);

  const send = async (file: File) => {
    const err = validateUpload(FILE_RULES.logo, { name: file.name, size: file.size, mimeType: file.type });
    if (err) {
      message.error(formatValidationMessage(err, currentLang()));
      return;
    }
    const form = new FormData();
    form.append('logoFile', file);
    setBusy(true);
    try {
      await upload(account.uploadLogo, form);
      message.success(t('shell.logoSaved'));
      await qc.invalidateQueries({ queryKey: [account.getLogoByCustId.name] });
    } catch {
      /* the request layer showed the reason */
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={open} title={t('shell.logoTitle')} onCancel={onClose} footer={null} destroyOnHidden>
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('shell.logoCurrent')}</Typography.Text>
        {logo ? <img src={logo} alt="logo" style={{ maxHeight: 64, maxWidth: 240 }} /> : <Typography.Text>{t('shell.logoNone')}</Typography.Text>}
        <Upload.Dragger
          accept=".jpg,.jpeg,.png"
          showUploadList={false}
          disabled={busy}
          beforeUpload={(file) => {
            void send(file);
            return false;
          }}
        >
          <p><UploadOutlined style={{ fontSize: 28 }} /></p>
          <p>{t('shell.logoUpload')}</p>
          <Typography.Text type="secondary">{t('shell.logoHint')}</Typography.Text>
        </Upload.Dragger>
      </Space>
    </Modal>
  );
}
