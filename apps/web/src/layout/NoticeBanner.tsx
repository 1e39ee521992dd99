import { useQuery } from '@tanstack/react-query';
import { NotificationOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { notice } from '@lynx/contract';
import { call } from '../request/http.ts';

/** Scrolling announcement while the newest announcement's end date is in the future (spec §2 Layout). */
export function NoticeBanner() {
  const { t, i18n } = useTranslation();
  const { data } = useQuery({
    queryKey: [notice.getNewestNotification.name],
    queryFn: () => call(notice.getNewestNotification, {}, { silent: true }),
    refetchInterval: 5 * 60_000,
  });
  if (!data || new Date(data.endDate).getTime() <= Date.now()) return <div className="lx-notice-empty" />;
  const text = i18n.language === 'en' ? data.englishContent : data.content;
  return (
    <div className="lx-notice" role="status" aria-label={t('shell.notice')} data-testid="notice-banner">
      <NotificationOutlined />
      <div className="lx-notice-track">
        <span className="lx-notice-text">{text}</span>
      </div>
    </div>
  );
}
