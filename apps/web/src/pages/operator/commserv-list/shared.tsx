import { Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CommServDirectional, CommServStatus, CommServType, commserv, type ResponseOf } from '@lynx/contract';
import { call } from '../../../request/http.ts';

export type CommServRow = ResponseOf<typeof commserv.getCommServListPage>['list'][number];
export type CommServDetailRecord = ResponseOf<typeof commserv.getCommServDetail>;
export type QosRow = ResponseOf<typeof commserv.getQosList>[number];
export type SpeedLimitRow = ResponseOf<typeof commserv.getSpeedLimitListPage>['list'][number];
export type RedirectRow = ResponseOf<typeof commserv.getRedirectListPage>['list'][number];

export const PERM_ADD = 7030001;
export const PERM_EDIT = 7030002;
export const PERM_DELETE = 7030003;
export const PERM_CONFIG = 7030004;

export const BASE = '/operator/commserv-list';

export const TYPE_COLORS: Record<number, string> = { [CommServType.Data]: 'blue', [CommServType.Voice]: 'purple', [CommServType.Sms]: 'cyan' };
export const STATUS_COLORS: Record<number, string> = { [CommServStatus.Enabled]: 'green', [CommServStatus.Disabled]: 'default' };

export function DirectionalTag({ value }: { value: boolean }) {
  const { i18n } = useTranslation();
  const label = CommServDirectional.label(value ? CommServDirectional.Yes : CommServDirectional.No, i18n.language === 'en' ? 'en' : 'zh');
  return value ? <Tag color="orange">{label}</Tag> : <>{label}</>;
}

/** The QoS count, red when none is configured (a plan cannot use such a service). */
export function QosCountTag({ count }: { count: number }) {
  const { t } = useTranslation();
  return count > 0 ? <Tag color="green">{count}</Tag> : <Tag color="red">{t('commserv.list.noQos')}</Tag>;
}

/** All speed-limit and redirect configurations for the service form's selects (a few dozen at most). */
export function useConfigOptions() {
  const speedLimits = useQuery({
    queryKey: [commserv.getSpeedLimitListPage.name, 'options'],
    queryFn: ({ signal }) => call(commserv.getSpeedLimitListPage, { pageSize: 500 }, { signal }),
  });
  const redirects = useQuery({
    queryKey: [commserv.getRedirectListPage.name, 'options'],
    queryFn: ({ signal }) => call(commserv.getRedirectListPage, { pageSize: 500 }, { signal }),
  });
  return {
    loading: speedLimits.isLoading || redirects.isLoading,
    speedLimits: (speedLimits.data?.list ?? []).map((s) => ({ value: s.speedLimitId, label: `${s.speedLimitName} (↑${s.uplinkKbps} / ↓${s.downlinkKbps} kbps)` })),
    redirects: (redirects.data?.list ?? []).map((r) => ({ value: r.redirectId, label: `${r.redirectName} (${r.redirectUrl})` })),
  };
}
