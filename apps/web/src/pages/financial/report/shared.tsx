import { Tooltip, Typography } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { ReportPeriod, fenToMoney, moneyToFen, report, type ResponseOf } from '@lynx/contract';
import { pickedDays } from '../../../components/businessTime.ts';
import { MoneyCell } from '../../business/capital/shared.tsx';

export type ReportRow = ResponseOf<typeof report.getAccountingReportListPage>['list'][number];
export type ReportCustomerRow = ResponseOf<typeof report.getAccountingReportDetail>['list'][number];
export type Amounts = NonNullable<ResponseOf<typeof report.getAccountingReportListPage>['totals']>;

/** The amount columns of a report, in the order the screens and exports show them (the contract's AccountingAmounts). */
export const AMOUNT_KEYS = [
  'opening', 'carriedIn', 'recharge', 'grant', 'refund', 'refundReversal', 'spend', 'writeOff', 'withdrawPaid', 'adjust', 'other', 'closing',
] as const satisfies readonly (keyof Amounts)[];
export type AmountKey = (typeof AMOUNT_KEYS)[number];
const MOVEMENT_KEYS = AMOUNT_KEYS.filter((k) => k !== 'opening' && k !== 'closing');

/** Where a report's customer statements open: /financial/report/detail/2026-11-25/1, /financial/report/detail/2026-11/2. */
export const reportDetailPath = (id: string, type: number) => `/financial/report/detail/${id}/${type}`;

/** The route's :type, when it is one (anything else: null). */
export const periodOf = (v: string | undefined): ReportPeriod | null => {
  const n = Number(v);
  return ReportPeriod.has(n) ? n : null;
};

/** Search form values → the list's filters: the picked days (a month picker's first days; the server takes whole months). */
export function reportFilters(v: Record<string, any>): Record<string, unknown> {
  const { range, ...rest } = v as { range?: [Dayjs | null, Dayjs | null] | null } & Record<string, unknown>;
  const days = pickedDays(range);
  return { ...rest, ...(days ? { startDate: days[0], endDate: days[1] } : {}) };
}

/** Money in and money out of a row (exact, in fen): what the movements add and what they take. */
export function inAndOut(a: Partial<Amounts>): { in: string; out: string } {
  let inFen = 0n;
  let outFen = 0n;
  for (const k of MOVEMENT_KEYS) {
    const f = moneyToFen(a[k] ?? '0') ?? 0n;
    if (f > 0n) inFen += f;
    else outFen += f;
  }
  return { in: fenToMoney(inFen), out: fenToMoney(outFen) };
}

/** True when opening + every movement = closing (what every row the server sends must satisfy). */
export function balances(a: Partial<Amounts>): boolean {
  const f = (k: AmountKey) => moneyToFen(a[k] ?? '0') ?? 0n;
  return f('opening') + MOVEMENT_KEYS.reduce((s, k) => s + f(k), 0n) === f('closing');
}

/** The movement columns worth a column: all but "other", which shows only when something is in it. */
export const shownKeys = (totals: Partial<Amounts> | null | undefined): AmountKey[] =>
  AMOUNT_KEYS.filter((k) => k !== 'other' || (totals?.other != null && (moneyToFen(totals.other) ?? 0n) !== 0n));

/** A column title with what it counts as a tooltip. */
function AmountTitle({ k }: { k: AmountKey }) {
  const { t } = useTranslation();
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      {t(`report.col.${k}`)}{' '}
      <Tooltip title={t(`report.hint.${k}`)}><QuestionCircleOutlined style={{ color: 'rgba(0,0,0,.45)' }} /></Tooltip>
    </span>
  );
}

/** The amount columns of a report table (right-aligned, movements signed, the closing bold). */
export function amountColumns<Row extends Partial<Amounts>>(keys: AmountKey[], opts: { sortable?: boolean } = {}) {
  return keys.map((k) => ({
    key: k,
    dataIndex: k,
    title: <AmountTitle k={k} />,
    align: 'right' as const,
    width: k === 'opening' || k === 'closing' ? 160 : 140,
    // the closing stays in view while the movements scroll
    ...(k === 'closing' ? { fixed: 'right' as const } : {}),
    sorter: opts.sortable,
    render: (v: string, _row: Row) => (k === 'closing'
      ? <Typography.Text strong><MoneyCell v={v} /></Typography.Text>
      : <MoneyCell v={v} signed={k !== 'opening' && v !== '0.00'} />),
  }));
}
