import { Alert, DatePicker, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  BillLineCategory, ChargeEvent, ChargeState, Perm, RoleType, STAFF_ROLE_TYPES, formatCount, formatDateTime, formatMoney, withZoneLabel, withholding,
} from '@lynx/contract';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { usePerm } from '../../../../components/PermButton.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { useSession } from '../../../../stores/session.ts';
import { CustomerSelect } from '../../../home/customer/CustomerSelect.tsx';
import { MoneyCell } from '../../../business/capital/shared.tsx';
import { EVENT_COLORS, STATE_COLORS, actorText, chargeFilters, type ChargeRow } from '../shared.tsx';

/** /report/prepaidCost/list (10020000): the charges at the event, each a record of one customer's cards charged together. */
export default function PrepaidCostList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const staff = useSession((s) => s.roleId !== null && STAFF_ROLE_TYPES.includes(s.roleId));
  const own = useSession((s) => s.roleId === RoleType.SubCustomer);
  const canCustomers = usePerm([Perm.HomeCustomer, Perm.BusinessCustomer]);
  const table = useSearchTable(withholding.getChargeListPage, { transform: chargeFilters });
  const W = (k: string, o?: Record<string, unknown>) => t(`withholding.${k}`, o);
  const sum = table.query.data?.sum;

  const fields: SearchField[] = [
    ...(staff || canCustomers
      ? [{ name: 'custId', label: W('customer'), type: 'custom' as const, control: <CustomerSelect allowClear placeholder={t('common.all')} /> }]
      : []),
    { name: 'event', label: W('event'), type: 'enum', enumOf: ChargeEvent },
    { name: 'state', label: W('state'), type: 'enum', enumOf: ChargeState },
    {
      name: 'category', label: W('category'), type: 'select',
      options: [BillLineCategory.PrepaidPlanFee, BillLineCategory.PackFee].map((v) => ({ value: v, label: BillLineCategory.label(v, lang) })),
    },
    { name: 'period', label: W('period'), type: 'custom', control: <DatePicker picker="month" placeholder={W('list.periodPlaceholder')} style={{ width: '100%' }} data-testid="charges-period" /> },
    { name: 'range', label: W('list.range'), type: 'custom', control: <DatePicker.RangePicker style={{ width: '100%' }} data-testid="charges-range" /> },
  ];

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 8px' }}>{W('list.intro')}</Typography.Paragraph>
      {!staff && <Alert type="info" showIcon style={{ marginBottom: 12 }} title={W(own ? 'list.introScopeOwn' : 'list.introScope')} />}
      <SearchTable<ChargeRow>
        table={table}
        title={(
          <span style={{ display: 'inline-flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
            {W('list.title')}
            {sum && (
              <Typography.Text type="secondary" style={{ fontSize: 13, fontWeight: 'normal' }} data-testid="charges-sum">
                {W('list.sum', { n: formatCount(sum.cards), amount: formatMoney(sum.amount), withheld: formatMoney(sum.withheld), onBill: formatMoney(sum.onBill) })}
              </Typography.Text>
            )}
          </span>
        )}
        rowKey="chargeId"
        exportVia={withholding.exportChargeList}
        emptyHint={W('list.emptyHint')}
        fields={fields}
        columns={[
          {
            title: W('chargeNo'), dataIndex: 'chargeNo', width: 140, fixed: 'left',
            render: (v: string, r) => <Link to={`/report/prepaidCost/detail/${r.chargeId}/${r.rootCustId}`} data-testid="charge-link">{v}</Link>,
          },
          { title: W('customer'), dataIndex: 'custName', width: 200, ellipsis: true },
          { title: W('event'), dataIndex: 'event', width: 170, render: (v: number) => <StatusTag enumOf={ChargeEvent} value={v} colors={EVENT_COLORS} /> },
          { title: W('category'), dataIndex: 'category', width: 150, render: (v: number) => BillLineCategory.label(v, lang) },
          { title: W('goods'), dataIndex: 'goodsName', width: 200, ellipsis: true },
          { title: W('period'), dataIndex: 'periodKey', width: 100 },
          { title: W('cards'), dataIndex: 'cards', width: 80, align: 'right', render: (v: number) => formatCount(v) },
          { title: W('quantity'), dataIndex: 'quantity', width: 100, align: 'right', render: (v: number) => formatCount(v) },
          { title: t('money.withCurrency', { label: W('amount') }), dataIndex: 'amount', width: 130, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          { title: t('money.withCurrency', { label: W('tax') }), dataIndex: 'tax', width: 110, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          { title: W('state'), dataIndex: 'state', width: 170, render: (v: number) => <StatusTag enumOf={ChargeState} value={v} colors={STATE_COLORS} /> },
          { title: W('by'), dataIndex: 'actor', width: 140, ellipsis: true, render: (v: string) => actorText(t, v) },
          { title: withZoneLabel(W('at')), dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
        ]}
      />
    </>
  );
}
