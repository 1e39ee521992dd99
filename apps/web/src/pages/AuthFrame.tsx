import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLang, setLanguage } from '../locales/i18n.ts';
import { useLogo } from '../layout/useLogo.ts';
import { AuthShell } from './AuthShell.tsx';

/** The frame of the open pages inside the console (login, register): logo, title, language toggle. */
export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const logo = useLogo();
  return (
    <AuthShell title={title} appName={t('common.appName')} langLabel={t('common.langSwitch')} logo={logo}
      onToggleLang={() => void setLanguage(currentLang() === 'zh' ? 'en' : 'zh')}>
      {children}
    </AuthShell>
  );
}
