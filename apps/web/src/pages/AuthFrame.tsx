import type { ReactNode } from 'react';
import { Button, Typography } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { currentLang, setLanguage } from '../locales/i18n.ts';
import { useLogo } from '../layout/useLogo.ts';

/** The frame of the open pages (login, register): logo, title, language toggle. */
export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const logo = useLogo();
  return (
    <div className="lx-auth-page">
      <div className="lx-auth-card">
        <div className="lx-auth-top">
          <img src={logo ?? '/favicon.svg'} alt="logo" style={{ height: 36, maxWidth: 160, objectFit: 'contain' }} />
          <Button type="text" icon={<GlobalOutlined />} onClick={() => setLanguage(currentLang() === 'zh' ? 'en' : 'zh')} data-testid="lang-toggle">
            {t('common.langSwitch')}
          </Button>
        </div>
        <Typography.Title level={3} style={{ marginTop: 0 }}>{title}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('common.appName')}</Typography.Paragraph>
        {children}
      </div>
    </div>
  );
}
