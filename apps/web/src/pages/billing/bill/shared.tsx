import { Tooltip } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import type { Dayjs } from 'dayjs';
import { BillLineCategory, BillPublishState, BillStatus, bill, moneyToFen, type ResponseOf } from '@lynx/contract';

export type BillRow = ResponseOf<typeof bill.getBillListPage>['list'][number];
export type BillDetailData = ResponseOf<typeof bill.getBillDetail>;
export type BillLine = ResponseOf<typeof bill.getBillCardLines>['list'][number];
export type BillRun = ResponseOf<typeof bill.getBillRuns>['list'][number];
export type BillPeriod = ResponseOf<typeof bill.getBillPeriods>[number];

export const BILL_STATUS_COLORS: Record<number, string> = {
  [BillStatus.Normal]: 'default', [BillStatus.ToWriteOff]: 'processing', [BillStatus.WrittenOff]: 'success',
  [BillStatus.OverdueWrittenOff]: 'gold', [BillStatus.OverdueNotWrittenOff]: 'error',
};
export const PUBLISH_COLORS: Record<number, string> = { [BillPublishState.Unpublished]: 'orange', [BillPublishState.Published]: 'green' };
export const CATEGORY_COLORS: Record<number, string> = {
  [BillLineCategory.PlanFee]: 'blue', [BillLineCategory.PrepaidPlanFee]: 'cyan', [BillLineCategory.OutOfPlanUsage]: 'volcano',
  [BillLineCategory.TestFee]: 'purple', [BillLineCategory.DowntimeFee]: 'default', [BillLineCategory.PackFee]: 'geekblue', [BillLineCategory.OneOffFee]: 'magenta',
};

/** The bill's per-category amounts, in the order of the categories (the contract's BillCategoryAmounts). */
export const CATEGORY_FIELDS: readonly { key: keyof BillRow['categories']; category: number }[] = [
  { key: 'planFee', category: BillLineCategory.PlanFee },
  { key: 'prepaidFee', category: BillLineCategory.PrepaidPlanFee },
  { key: 'overageFee', category: BillLineCategory.OutOfPlanUsage },
  { key: 'testFee', category: BillLineCategory.TestFee },
  { key: 'downtimeFee', category: BillLineCategory.DowntimeFee },
  { key: 'packFee', category: BillLineCategory.PackFee },
  { key: 'oneOffFee', category: BillLineCategory.OneOffFee },
];

export const billPaths = {
  list: '/billing/bill/list',
  detail: (billId: number) => `/billing/bill/spending/detail/${billId}`,
  writeOff: (tab: WriteOffTabName = 'pending') => `/financial/cancel-bill/list/${tab}`,
  capital: (custId: number) => `/business/capital/detail/info/${custId}`,
};

/** The write-off screen's tabs by name in the path, and the contract's numbers behind them. */
export const WRITE_OFF_TABS = { pending: bill.WriteOffTab.ToWriteOff, done: bill.WriteOffTab.WrittenOff, overdue: bill.WriteOffTab.Overdue } as const;
export type WriteOffTabName = keyof typeof WRITE_OFF_TABS;
/** A path's tab (a name, or the number the old console used) → its name; anything else is the first tab. */
export function writeOffTabOf(param: string | undefined): WriteOffTabName {
  if (param && param in WRITE_OFF_TABS) return param as WriteOffTabName;
  const byNumber = (Object.keys(WRITE_OFF_TABS) as WriteOffTabName[]).find((k) => String(WRITE_OFF_TABS[k]) === param);
  return byNumber ?? 'pending';
}

/** Number of calendar days from one day to another, both included ('2026-10-01'…'2026-10-31' → 31). */
export function daysInclusive(from: string, to: string): number {
  const ms = Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`);
  return Number.isFinite(ms) ? Math.round(ms / 86_400_000) + 1 : 0;
}

/** True for a money text above zero ('0.01'), compared exactly. */
export const isPositive = (v: string | null | undefined) => !!v && (moneyToFen(v) ?? 0n) > 0n;

/** Search form values → bill filters: the picked month is the period key. */
export function billFilters(v: Record<string, any>): Record<string, unknown> {
  const { period, ...rest } = v as { period?: Dayjs | null } & Record<string, unknown>;
  return { ...rest, ...(period ? { periodKey: period.format('YYYY-MM') } : {}) };
}

/**
 * Keyset paging of a bill's card lines: the `after` keys of the pages before this one form a stack, so "previous"
 * goes back without offsets. The first page has no key.
 */
export interface KeysetState { stack: (string | undefined)[]; after: string | undefined }
export const keysetStart: KeysetState = { stack: [], after: undefined };
export const keysetNext = (s: KeysetState, next: string | null | undefined): KeysetState => (next ? { stack: [...s.stack, s.after], after: next } : s);
export const keysetPrev = (s: KeysetState): KeysetState => (s.stack.length ? { stack: s.stack.slice(0, -1), after: s.stack[s.stack.length - 1] } : s);

/** A label with its explanation on hover. */
export function WithHelp({ label, help, testId }: { label: ReactNode; help: ReactNode; testId?: string }) {
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      {label}{' '}
      <Tooltip title={help}><QuestionCircleOutlined style={{ color: 'rgba(0,0,0,.45)' }} data-testid={testId} /></Tooltip>
    </span>
  );
}
