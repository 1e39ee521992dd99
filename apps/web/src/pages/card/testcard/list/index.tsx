import { Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Operator, Perm, account, cardcat, formatDateTime, type ResponseOf, withZoneLabel } from '@lynx/contract';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { usePerm } from '../../../../components/PermButton.tsx';
import { call } from '../../../../request/http.ts';
import { TestCardActions } from '../TestCardActions.tsx';
import { DaysLeft, TestUsage, kb } from '../shared.tsx';

type TestCardRow = ResponseOf<typeof cardcat.getTestCardListPage>['list'][number];

/** Search form values → filters: the test end range as China-time days. */
function testCardFilters(v: Record<string, any>): Record<string, unknown> {
  const { testEnd, ...rest } = v as { testEnd?: [{ format(f: string): string }, { format(f: string): string }] | null } & Record<string, unknown>;
  return { ...rest, ...(testEnd?.[0] ? { testEndFrom: testEnd[0].format('YYYY-MM-DD'), testEndTo: testEnd[1].format('YYYY-MM-DD') } : {}) };
}

/** /card/testcard/list: the caller's cards in their test period, soonest test end first; end or extend a test. */
export default function TestCardList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const table = useSearchTable(cardcat.getTestCardListPage, { transform: testCardFilters });
  const canUpdate = usePerm(cardcat.CardCatalogPerm.TestCardUpdate);
  const canCustomers = usePerm([Perm.HomeCustomer, Perm.BusinessCustomer]);
  const customers = useQuery({
    queryKey: [account.getCustomerListPage.name, { pageSize: 500 }],
    queryFn: ({ signal }) => call(account.getCustomerListPage, { pageSize: 500 }, { signal, silent: true }),
    enabled: canCustomers,
  });
  const T = (k: string) => t(`cardcat.testCard.${k}`);

  return (
    <SearchTable<TestCardRow>
      table={table}
      title={T('title')}
      rowKey="iccid"
      exportSource={cardcat.getTestCardListPage}
      emptyHint={T('emptyHint')}
      fields={[
        { name: 'iccid', label: T('iccid') },
        { name: 'msisdn', label: T('msisdn') },
        ...(canCustomers
          ? [{ name: 'custId', label: T('customer'), type: 'select' as const, options: (customers.data?.list ?? []).map((c) => ({ value: c.custId, label: c.custName })) }]
          : []),
        { name: 'operatorId', label: T('operator'), type: 'enum', enumOf: Operator },
        { name: 'testEnd', label: T('testEndRange'), type: 'dateRange' },
      ]}
      columns={[
        {
          title: T('iccid'), dataIndex: 'iccid', sorter: true, fixed: 'left', width: 235,
          render: (v: string) => <Typography.Text copyable={{ text: v }} style={{ whiteSpace: 'nowrap' }}><Link to={`/card/testcard/detail/${v}`}>{v}</Link></Typography.Text>,
        },
        { title: T('msisdn'), dataIndex: 'msisdn', width: 140, render: (v: string | null) => v ?? '-' },
        { title: withZoneLabel(T('testEndAt')), dataIndex: 'testEndAt', sorter: true, width: 170, render: (v: string | null) => (v ? formatDateTime(v) : '-') },
        { title: T('daysLeft'), key: 'daysLeft', width: 110, render: (_: unknown, r: TestCardRow) => <DaysLeft testEndAt={r.testEndAt} /> },
        {
          title: T('testUsed'), dataIndex: 'testUsedKb', width: 190,
          render: (v: number | null, r: TestCardRow) => (v === null ? kb(r.testQuotaKb) : <TestUsage usedKb={v} quotaKb={r.testQuotaKb} />),
        },
        { title: T('customer'), dataIndex: 'custName', width: 180, render: (v: string | null) => v ?? <Tag>{t('carddata.list.stock')}</Tag> },
        { title: T('plan'), dataIndex: 'planName', width: 170, ellipsis: true, render: (v: string | null) => v ?? '-' },
        { title: T('operator'), dataIndex: 'operatorId', width: 120, render: (v: number) => <span style={{ whiteSpace: 'nowrap' }}>{Operator.label(v, lang)}</span> },
        { title: withZoneLabel(T('testStartAt')), dataIndex: 'testStartAt', width: 170, render: (v: string | null) => (v ? formatDateTime(v) : '-') },
        ...(canUpdate
          ? [{
              title: t('common.actions'), key: 'actions', fixed: 'right' as const, width: 190,
              render: (_: unknown, r: TestCardRow) => <TestCardActions iccid={r.iccid} testEndAt={r.testEndAt} />,
            }]
          : []),
      ]}
    />
  );
}
