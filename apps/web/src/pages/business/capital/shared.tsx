import { Col, Row, Statistic, Tooltip, Typography } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@lynx/contract';

/** The balances every money screen shows, in this order (the contract's Balances). */
export const BALANCE_KEYS = ['preDeposit', 'grants', 'contractPayment', 'credit', 'withdrawHold', 'available'] as const;
export type BalanceKey = (typeof BALANCE_KEYS)[number];
export type BalanceValues = Record<BalanceKey, string>;

/** Balance keys that carry an explanation (shown as a tooltip). */
const HINTS: Partial<Record<BalanceKey, string>> = { available: 'money.balanceHint.available', credit: 'money.balanceHint.credit' };

/** True for a decimal string below zero ('-0.01'), without turning it into a float. */
export const isNegative = (v: string | null | undefined) => typeof v === 'string' && v.startsWith('-') && /[1-9]/.test(v);

/** An amount in a table: tabular figures, red below zero, an optional sign for movements. */
export function MoneyCell({ v, signed }: { v: string | null | undefined; signed?: boolean }) {
  const neg = isNegative(v);
  const text = formatMoney(v);
  return (
    <span style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap', color: neg ? '#cf1322' : signed ? '#389e0d' : undefined }}>
      {signed && !neg && text !== '-' ? `+${text}` : text}
    </span>
  );
}

/** The title of a balance, with its explanation when it has one. */
export function BalanceTitle({ k, currency = true }: { k: BalanceKey | 'withdrawable'; currency?: boolean }) {
  const { t } = useTranslation();
  const label = t(`money.balance.${k}`);
  const hint = HINTS[k as BalanceKey];
  const title = currency ? t('money.withCurrency', { label }) : label;
  if (!hint) return <>{title}</>;
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      {title}{' '}
      <Tooltip title={t(hint)}><QuestionCircleOutlined style={{ color: 'rgba(0,0,0,.45)' }} /></Tooltip>
    </span>
  );
}

/** Table columns of the six balances (right-aligned, sortable where the list sorts by them). */
export function balanceColumns<Row extends Partial<BalanceValues>>(opts: { sortable?: boolean } = {}) {
  return BALANCE_KEYS.map((k) => ({
    key: k,
    dataIndex: k,
    title: <BalanceTitle k={k} />,
    align: 'right' as const,
    width: k === 'available' ? 170 : 150,
    sorter: opts.sortable,
    render: (v: string, _row: Row) => (k === 'available' ? <Typography.Text strong><MoneyCell v={v} /></Typography.Text> : <MoneyCell v={v} />),
  }));
}

/** One customer's balances as statistics (the capital detail, the customer detail, the home overview). */
export function BalanceStats({ b, keys = BALANCE_KEYS, testId }: { b: Partial<BalanceValues> & { withdrawable?: string }; keys?: readonly (BalanceKey | 'withdrawable')[]; testId?: string }) {
  return (
    <Row gutter={[16, 12]} data-testid={testId}>
      {keys.map((k) => (
        <Col key={k} flex="1 0 160px">
          <div data-testid={testId ? `${testId}-${k}` : undefined}>
            <Statistic
              title={<BalanceTitle k={k} />}
              value={formatMoney(b[k as BalanceKey] ?? null)}
              styles={{ content: { fontVariantNumeric: 'tabular-nums', ...(isNegative(b[k as BalanceKey]) ? { color: '#cf1322' } : {}) } }}
            />
          </div>
        </Col>
      ))}
    </Row>
  );
}

/** Where one customer's capital detail opens: under the business group, or under the shortcut alias it was opened from. */
export function capitalDetailPath(custId: number | null | undefined, from = '/business/capital') {
  const base = from.startsWith('/shortcuts') ? '/shortcuts/capital' : '/business/capital';
  return `${base}/detail/info${custId ? `/${custId}` : ''}`;
}
