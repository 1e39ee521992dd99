import { Button, DatePicker, Result, Skeleton, Space, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { capital, CUSTOMER_ACCOUNTS, JournalKind, LedgerAccount, STAFF_ROLE_TYPES, formatDateTime, type ResponseOf, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { pickedDays } from '../../../../components/businessTime.ts';
import { useSession } from '../../../../stores/session.ts';
import { BalanceStats, MoneyCell } from '../shared.tsx';
import { PrepaySection } from './PrepaySection.tsx';

type LedgerRow = ResponseOf<typeof capital.getCapitalLedgerPage>['list'][number];

/** Search form values → the ledger's filters (the picked days are business days). */
export function ledgerFilters(v: Record<string, any>): Record<string, unknown> {
  const { range, ...rest } = v as { range?: [Dayjs | null, Dayjs | null] | null } & Record<string, unknown>;
  const days = pickedDays(range);
  return { ...rest, ...(days ? { startDate: days[0], endDate: days[1] } : {}) };
}

/** What caused a movement, in words: a top-up 12, a withdrawal 3, an opening balance (unknown sources as stored). */
export function sourceText(t: (k: string) => string, refType: string | null, refId: string | null): string {
  if (!refType) return '-';
  const known = ['opening', 'recharge', 'rechargeRefund', 'withdraw', 'credit', 'bill', 'card_charge'].includes(refType);
  const name = known ? t(`money.ledger.sources.${refType}`) : refType;
  // a withholding record reads by its number, as its own screen shows it
  const ref = refId && refType === 'card_charge' ? `W${refId.padStart(10, '0')}` : refId;
  return ref ? `${name} · ${ref}` : name;
}

export const KIND_COLORS: Record<number, string> = {
  [JournalKind.Recharge]: 'green', [JournalKind.Refund]: 'orange', [JournalKind.Grant]: 'cyan', [JournalKind.WithdrawHold]: 'gold',
  [JournalKind.WithdrawRelease]: 'blue', [JournalKind.WithdrawPaid]: 'purple', [JournalKind.Spend]: 'red', [JournalKind.Adjust]: 'magenta',
  // the channel never refunded: the refund's money is back, so it reads apart from the refund itself
  [JournalKind.RefundReversal]: 'lime',
  [JournalKind.WriteOff]: 'geekblue',
};

/** The ledger of one customer: each posting with its account's balance right after it, filtered by kind, account and days. */
function Ledger({ custId }: { custId: number | undefined }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const table = useSearchTable(capital.getCapitalLedgerPage, { fixed: custId ? { custId } : {}, transform: ledgerFilters });
  const L = (k: string) => t(`money.ledger.${k}`);
  return (
    <SearchTable<LedgerRow>
      table={table}
      title={L('title')}
      rowKey="postingId"
      exportSource={capital.getCapitalLedgerPage}
      emptyHint={L('emptyHint')}
      fields={[
        { name: 'kind', label: L('kind'), type: 'enum', enumOf: JournalKind },
        { name: 'account', label: L('account'), type: 'select', options: CUSTOMER_ACCOUNTS.map((a) => ({ value: a, label: LedgerAccount.label(a, lang) })) },
        { name: 'range', label: L('range'), type: 'custom', control: <DatePicker.RangePicker style={{ width: '100%' }} data-testid="ledger-range" /> },
      ]}
      columns={[
        { title: withZoneLabel(L('time')), dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
        { title: L('journal'), dataIndex: 'journalId', width: 100 },
        { title: L('kind'), dataIndex: 'kind', width: 150, render: (v: number) => <StatusTag enumOf={JournalKind} value={v} colors={KIND_COLORS} /> },
        { title: L('account'), dataIndex: 'account', width: 130, render: (v: number) => LedgerAccount.label(v, lang) },
        { title: L('amount'), dataIndex: 'amount', width: 150, align: 'right', render: (v: string) => <MoneyCell v={v} signed /> },
        { title: L('balanceAfter'), dataIndex: 'balanceAfter', width: 170, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
        { title: L('source'), key: 'source', width: 200, ellipsis: true, render: (_: unknown, r) => sourceText(t, r.refType, r.refId) },
        { title: L('memo'), dataIndex: 'memo', width: 200, ellipsis: true, render: (v: string | null) => v ?? '-' },
        { title: L('by'), dataIndex: 'createdBy', width: 120, render: (v: string | null) => v ?? '-' },
      ]}
    />
  );
}

/** /business/capital/detail/info/:custId? : one customer's balances and ledger (without a customer: the viewer's own). */
export default function CapitalDetail() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const params = useParams();
  const staff = useSession((s) => s.roleId !== null && STAFF_ROLE_TYPES.includes(s.roleId));
  const id = Number(params.custId);
  const custId = Number.isInteger(id) && id > 0 ? id : undefined;
  const listPath = pathname.startsWith('/shortcuts') ? '/shortcuts/capital' : '/business/capital/list';
  const D = (k: string) => t(`money.detail.${k}`);
  const detail = useQuery({
    queryKey: [capital.getCapitalDetail.name, { custId }],
    queryFn: ({ signal }) => call(capital.getCapitalDetail, custId ? { custId } : {}, { signal, silent: true }),
    enabled: custId !== undefined || !staff,
  });

  if (custId === undefined && staff) {
    return (
      <div className="lx-card">
        <Result status="info" title={D('pickCustomer')} subTitle={D('chooseHint')}
          extra={<Button type="primary" onClick={() => navigate(listPath)}>{D('toList')}</Button>} />
      </div>
    );
  }
  const c = detail.data;
  return (
    <>
      <div className="lx-card" data-testid="capital-detail">
        <Space style={{ marginBottom: 12 }} wrap>
          <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(listPath)}>{D('back')}</Button>
          <Typography.Title level={5} style={{ margin: 0 }}>{c ? `${c.custName} · ${D('title')}` : D('title')}</Typography.Title>
        </Space>
        {detail.isLoading && <Skeleton active paragraph={{ rows: 2 }} />}
        {detail.isError && <Result status="404" subTitle={t('common.notFound')} />}
        {c && <BalanceStats b={c} keys={['preDeposit', 'grants', 'contractPayment', 'credit', 'withdrawHold', 'available', 'withdrawable']} testId="capital-balances" />}
      </div>
      {c && <PrepaySection custId={custId} />}
      {(c || detail.isLoading) && <Ledger custId={custId} />}
    </>
  );
}
