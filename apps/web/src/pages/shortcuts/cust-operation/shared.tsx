import type { Dayjs } from 'dayjs';
import { custoperation, type Lang, type ResponseOf } from '@lynx/contract';
import { pickedDays } from '../../../components/businessTime.ts';

export type CustOperationRow = ResponseOf<typeof custoperation.getCustOperationPage>['list'][number];

/** The built-in network's account (no access configuration) in the reader's language. */
export const BUILT_IN_ACCOUNT = { zh: '内置网络模拟器', en: 'Built-in network simulator' } as const;

export const accountLabel = (r: { operAccountId: number; accountName: string }, lang: Lang) =>
  (r.operAccountId === 0 ? BUILT_IN_ACCOUNT[lang] : r.accountName);

export const zoneLabelOf = (r: { zoneName: string | null; zoneNameEn: string | null }, lang: Lang) =>
  (r.zoneName == null ? '-' : lang === 'en' ? (r.zoneNameEn ?? r.zoneName) : r.zoneName);

/** The route of a row's pool detail (spec §2: names of the row, then the day). */
export const detailPath = (r: CustOperationRow) =>
  `/shortcuts/cust-operation/detail/${[r.accountName, r.ratePlanName, r.zoneName ?? '', r.queryDate].map(encodeURIComponent).join('/')}`;

/** The search form → the list's filters: the picked days, a trimmed zone name. */
export function custOperationFilters(v: Record<string, any>): Record<string, unknown> {
  const { range, zoneName, ...rest } = v as { range?: [Dayjs | null, Dayjs | null] | null; zoneName?: string } & Record<string, unknown>;
  const days = pickedDays(range);
  const zone = typeof zoneName === 'string' ? zoneName.trim() : '';
  return { ...rest, ...(zone ? { zoneName: zone } : {}), ...(days ? { startDate: days[0], endDate: days[1] } : {}) };
}

/** Days the range picker greys out once one end is picked: those making the range longer than the server takes. */
export function beyondSpan(current: Dayjs, from: Dayjs | undefined): boolean {
  if (!from) return false;
  return Math.abs(current.startOf('day').diff(from.startOf('day'), 'day')) + 1 > custoperation.CUST_OPERATION_MAX_DAYS;
}
