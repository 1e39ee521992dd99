import { useQuery } from '@tanstack/react-query';
import { UnicomPlanStatus, formatSizeFromMB, netconfig, type ResponseOf } from '@lynx/contract';
import type { TFunction } from 'i18next';
import { call } from '../../../request/http.ts';

export type UnicomPlanRow = ResponseOf<typeof netconfig.getUnicomCommPlanPage>['list'][number];
export const LTCOMM_LIST_PATH = '/operator/ltcomm/list';
export const P = netconfig.NetconfigPerm;
export const PLAN_STATUS_COLORS = { [UnicomPlanStatus.Enabled]: 'success', [UnicomPlanStatus.Disabled]: 'default' };

/** China Unicom's APNs and its billing period start day (the 26th, spec §9). */
export function useUnicomApns() {
  return useQuery({
    queryKey: [netconfig.getUnicomApnOptions.name],
    queryFn: ({ signal }) => call(netconfig.getUnicomApnOptions, {}, { signal }),
  });
}

/** 'Data / SMS' in the current language. */
export const servicesText = (r: Pick<UnicomPlanRow, 'dataEnabled' | 'smsEnabled' | 'voiceEnabled'>, t: TFunction) =>
  [r.dataEnabled && t('netconfig.ltcomm.data'), r.smsEnabled && t('netconfig.ltcomm.sms'), r.voiceEnabled && t('netconfig.ltcomm.voice')].filter(Boolean).join(' / ') || '-';

export const limitText = (v: number | null, unit: string, t: TFunction) => (v === null ? t('netconfig.ltcomm.unlimited') : `${v} ${unit}`);
/** The data limit (stored in MB) in its scaled size: 10240 → '10 GB'. */
export const dataLimitText = (mb: number | null, t: TFunction) => (mb === null ? t('netconfig.ltcomm.unlimited') : formatSizeFromMB(mb));
