import { useTranslation } from 'react-i18next';

/**
 * A console text that follows the language: a notice built from one of our own keys shows it in the language of the
 * moment, so a notice still on screen when the user switches language switches with it (a notice fired before the
 * switch but drawn after it would otherwise escape the switch's clean-up in App.tsx and stay in the old language).
 */
export function LiveText({ k }: { k: string }) {
  const { t } = useTranslation();
  return <>{t(k)}</>;
}
