import { Tooltip } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { ReportPeriod, simreport, type ResponseOf } from '@lynx/contract';
import { pickedDays } from '../../components/businessTime.ts';

export type CardReportRow = ResponseOf<typeof simreport.getCardReportPage>['list'][number];
export type UsageRow = ResponseOf<typeof simreport.getDayFlow>['list'][number];

/** Voice seconds as minutes with one decimal ('1.5'); whole minutes without one ('2'). */
export function voiceMinutes(seconds: number): string {
  const tenths = Math.round(seconds / 6);
  return tenths % 10 === 0 ? String(tenths / 10) : (tenths / 10).toFixed(1);
}

/** The monthly SIM report's search form → its filters: the picked month as 'YYYY-MM'. */
export function cardReportFilters(v: Record<string, any>): Record<string, unknown> {
  const { month, ...rest } = v as { month?: Dayjs | null } & Record<string, unknown>;
  return { ...rest, ...(month ? { month: month.format('YYYY-MM') } : {}) };
}

/** The data usage search form → its filters: the picked days (a month picker's first days; the server takes whole months). */
export function usageFilters(v: Record<string, any>): Record<string, unknown> {
  const { range, apn, ...rest } = v as { range?: [Dayjs | null, Dayjs | null] | null; apn?: string } & Record<string, unknown>;
  const days = pickedDays(range);
  const a = typeof apn === 'string' ? apn.trim() : '';
  return { ...rest, ...(a ? { apn: a } : {}), ...(days ? { startDate: days[0], endDate: days[1] } : {}) };
}

/**
 * Days (months) the range picker greys out once a first end is picked: those that would make the range longer than
 * the server takes (31 days by day, 12 months by month), so the limit is met before the search is sent.
 */
export function beyondLimit(current: Dayjs, from: Dayjs | undefined, type: ReportPeriod): boolean {
  if (!from) return false;
  const monthly = type === ReportPeriod.Monthly;
  const span = Math.abs(current.startOf(monthly ? 'month' : 'day').diff(from.startOf(monthly ? 'month' : 'day'), monthly ? 'month' : 'day'));
  return span + 1 > (monthly ? simreport.USAGE_REPORT_MAX_MONTHS : simreport.USAGE_REPORT_MAX_DAYS);
}

/** The list endpoint of a usage view: by day or by month. */
export const usageEndpoint = (type: ReportPeriod) => (type === ReportPeriod.Monthly ? simreport.getMonthFlow : simreport.getDayFlow);

/** A column title with what it counts as a tooltip. */
export function HintTitle({ title, hint }: { title: string; hint: string }) {
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      {title} <Tooltip title={hint}><QuestionCircleOutlined style={{ color: 'rgba(0,0,0,.45)' }} /></Tooltip>
    </span>
  );
}
