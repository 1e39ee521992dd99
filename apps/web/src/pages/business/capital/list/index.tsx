import { Alert, Button, Space, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { capital, credit, CustomerLevel, LedgerAccount, STAFF_ROLE_TYPES, formatDateTime, formatCount, type ResponseOf, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { usePerm } from '../../../../components/PermButton.tsx';
import { useSession } from '../../../../stores/session.ts';
import { CUSTOMER_LEVEL_COLORS } from '../../../home/customer/CustomerDetail.tsx';
import { MoneyCell, balanceColumns, capitalDetailPath } from '../shared.tsx';

type CapitalRow = ResponseOf<typeof capital.getCapitalListPage>['list'][number];
type Check = NonNullable<ResponseOf<typeof capital.getLedgerCheck>>;

/** Staff: the last nightly balance check; a failed one is an alarm with its mismatches. */
function LedgerCheckBanner() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const q = useQuery({
    queryKey: [capital.getLedgerCheck.name],
    queryFn: ({ signal }) => call(capital.getLedgerCheck, {}, { signal, silent: true }),
  });
  if (q.isLoading || q.isError) return null;
  const c = q.data;
  if (!c) return <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('money.capital.checkNone')} data-testid="ledger-check" />;
  if (c.ok) {
    return (
      <Alert type="success" showIcon style={{ marginBottom: 12 }} data-testid="ledger-check"
        title={t('money.capital.checkOk', { time: formatDateTime(c.checkedAt), postings: formatCount(c.postings) })} />
    );
  }
  const M = (k: string) => t(`money.capital.mismatch.${k}`);
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      style={{ marginBottom: 12 }}
      data-testid="ledger-check"
      title={t('money.capital.checkFailed', { time: formatDateTime(c.checkedAt), count: c.mismatches.length })}
      description={
        <Table<Check['mismatches'][number]>
          size="small"
          pagination={c.mismatches.length > 10 ? { pageSize: 10 } : false}
          rowKey={(r) => `${r.custId}-${r.account}-${r.journalId}`}
          dataSource={c.mismatches}
          style={{ marginTop: 8 }}
          columns={[
            { title: M('customer'), dataIndex: 'custId', render: (v: number | null) => (v == null ? '-' : <Link to={capitalDetailPath(v)}>{v}</Link>) },
            { title: M('account'), dataIndex: 'account', render: (v: number | null) => (v == null ? '-' : LedgerAccount.label(v, lang)) },
            { title: M('journal'), dataIndex: 'journalId', render: (v: number | null) => v ?? '-' },
            { title: M('expected'), dataIndex: 'expected', align: 'right', render: (v: string) => <MoneyCell v={v} /> },
            { title: M('actual'), dataIndex: 'actual', align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          ]}
        />
      }
    />
  );
}

/** /business/capital/list (and the /shortcuts/capital alias): every customer's balances in the viewer's scope. */
export default function CapitalList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const staff = useSession((s) => s.roleId !== null && STAFF_ROLE_TYPES.includes(s.roleId));
  const canCredit = usePerm(credit.getCreditListPage.perm);
  const table = useSearchTable(capital.getCapitalListPage);
  const C = (k: string) => t(`money.capital.${k}`);
  const detail = (custId: number) => navigate(capitalDetailPath(custId, pathname));

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 12px' }}>{C('intro')}</Typography.Paragraph>
      {staff && <LedgerCheckBanner />}
      <SearchTable<CapitalRow>
        table={table}
        title={C('title')}
        rowKey="custId"
        exportSource={capital.getCapitalListPage}
        emptyHint={C('emptyHint')}
        fields={[
          { name: 'custName', label: C('customer') },
          { name: 'level', label: C('level'), type: 'enum', enumOf: CustomerLevel },
        ]}
        columns={[
          {
            title: C('customer'), dataIndex: 'custName', sorter: true, fixed: 'left', width: 220, ellipsis: true,
            render: (v: string, r) => <a onClick={() => detail(r.custId)} data-testid={`capital-row-${r.custId}`}>{v}</a>,
          },
          { title: C('parentCustName'), dataIndex: 'parentCustName', width: 180, ellipsis: true, render: (v: string | null) => v ?? '-' },
          { title: C('level'), dataIndex: 'level', width: 120, render: (v: number) => <StatusTag enumOf={CustomerLevel} value={v} colors={CUSTOMER_LEVEL_COLORS} /> },
          ...balanceColumns<CapitalRow>({ sortable: true }),
          { title: withZoneLabel(C('updatedAt')), dataIndex: 'updatedAt', sorter: true, width: 170, render: (v: string | null) => (v ? formatDateTime(v) : '-') },
          {
            title: t('common.actions'), key: 'actions', fixed: 'right', width: canCredit ? 170 : 110,
            render: (_: unknown, r) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => detail(r.custId)}>{C('ledger')}</Button>
                {canCredit && <Button type="link" size="small" onClick={() => navigate(`/financial/credit/list?custId=${r.custId}`)}>{C('credits')}</Button>}
              </Space>
            ),
          },
        ]}
      />
    </>
  );
}
