import { App, Modal, Space, Typography } from 'antd';
import { LiveText } from '../request/LiveText.tsx';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { account } from '@lynx/contract';
import { upload } from '../request/http.ts';
import { ImageUpload } from '../components/ImageUpload.tsx';
import { useLogo } from './useLogo.ts';

/** Logo setting: jpg or png under 1500 KB, checked here and again on the server. */
export function LogoModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const logo = useLogo();

  const send = async (file: File) => {
    try {
      await upload(account.uploadLogo, file, {});
      message.success(<LiveText k="shell.logoSaved" />);
      await qc.invalidateQueries({ queryKey: [account.getLogoByCustId.name] });
    } catch {
      /* the request layer showed the reason */
    }
  };

  return (
    <Modal open={open} title={t('shell.logoTitle')} onCancel={onClose} footer={null} destroyOnHidden>
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('shell.logoCurrent')}</Typography.Text>
        {logo ? <img src={logo} alt="logo" style={{ maxHeight: 64, maxWidth: 240 }} /> : <Typography.Text>{t('shell.logoNone')}</Typography.Text>}
        <ImageUpload use="logo" onFile={send}>
          <p>{t('shell.logoUpload')}</p>
          <Typography.Text type="secondary">{t('shell.logoHint')}</Typography.Text>
        </ImageUpload>
      </Space>
    </Modal>
  );
}
