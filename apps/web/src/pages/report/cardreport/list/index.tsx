import { Alert, DatePicker, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CustomerLevel, Perm, RoleType, STAFF_ROLE_TYPES, formatCount, formatSize, simreport, type Lang } from '@lynx/contract';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { usePerm } from '../../../../components/PermButton.tsx';
import { zoneLabel } from '../../../../components/businessTime.ts';
import { useSession } from '../../../../stores/session.ts';
import { CustomerSelect } from '../../../home/customer/CustomerSelect.tsx';
import { MoneyCell } from '../../../business/capital/shared.tsx';
import { HintTitle, cardReportFilters, type CardReportRow } from '../../shared.tsx';

type Key = 'cards' | 'beforeUse' | 'activated' | 'deactivated' | 'closed' | 'newCards' | 'activatedInMonth' | 'closedInMonth' | 'bytes' | 'sms' | 'fee';
const ORDER: Key[] = ['cards', 'beforeUse', 'activated', 'deactivated', 'closed', 'newCards', 'activatedInMonth', 'closedInMonth', 'bytes', 'sms', 'fee'];
const SORTABLE = new Set<Key>(['cards', 'activated', 'newCards', 'activatedInMonth', 'closedInMonth', 'bytes', 'fee']);

/** /report/cardreport/list: per customer, the cards by state now and the chosen month's new, activated and closed cards, usage and bill fees. */
export default function CardReportList() {
  const { t, i18n } = useTranslation();
  const lang = (i18n.language === 'zh' ? 'zh' : 'en') as Lang;
  const staff = useSession((s) => s.roleId !== null && STAFF_ROLE_TYPES.includes(s.roleId));
  const own = useSession((s) => s.roleId === RoleType.SubCustomer);
  const canCustomers = usePerm([Perm.HomeCustomer, Perm.BusinessCustomer]);
  const table = useSearchTable(simreport.getCardReportPage, { transform: cardReportFilters });
  const data = table.query.data;
  const T = (k: string) => t(`simreport.card.${k}`);
  const cell = (k: Key, v: CardReportRow[Key]) => {
    if (k === 'fee') return v == null ? <Typography.Text type="secondary">{T('noBill')}</Typography.Text> : <MoneyCell v={v as string} />;
    if (k === 'bytes') return formatSize(v as number);
    return formatCount(v as number);
  };

  const fields: SearchField[] = [
    { name: 'month', label: T('month'), type: 'custom', control: <DatePicker picker="month" placeholder={T('monthPlaceholder')} style={{ width: '100%' }} data-testid="cardreport-month" /> },
    ...(staff || canCustomers
      ? [{ name: 'custId', label: t('simreport.customer'), type: 'custom' as const, control: <CustomerSelect allowClear placeholder={t('common.all')} /> }]
      : []),
  ];

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 8px' }}>{T('intro')}</Typography.Paragraph>
      <Alert type="info" showIcon style={{ marginBottom: 12 }}
        title={t('simreport.tz', { zone: zoneLabel() })} description={staff ? undefined : T(own ? 'introScopeOwn' : 'introScope')} />
      <SearchTable<CardReportRow>
        table={table}
        title={(
          <span style={{ display: 'inline-flex', alignItems: 'center', gap: 12 }}>
            {T('title')}
            {data && <Typography.Text type="secondary" style={{ fontSize: 13, fontWeight: 'normal' }} data-testid="cardreport-month-shown">{t('simreport.card.monthOf', { month: data.month })}</Typography.Text>}
          </span>
        )}
        rowKey="custId"
        exportVia={simreport.exportCardReport}
        emptyHint={T('emptyHint')}
        fields={fields}
        summary={() => (data && table.list.length > 0 ? (
          <Table.Summary fixed>
            <Table.Summary.Row data-testid="cardreport-totals">
              <Table.Summary.Cell index={0}><Typography.Text strong>{t('simreport.total')}</Typography.Text></Table.Summary.Cell>
              {ORDER.map((k, i) => (
                <Table.Summary.Cell key={k} index={i + 1} align="right"><Typography.Text strong>{cell(k, data.totals[k])}</Typography.Text></Table.Summary.Cell>
              ))}
            </Table.Summary.Row>
          </Table.Summary>
        ) : null)}
        columns={[
          {
            title: t('simreport.customer'), dataIndex: 'custName', key: 'custName', fixed: 'left', width: 220, sorter: true,
            render: (_: unknown, r) => (r.custId === 0 ? <Typography.Text type="secondary">{t('simreport.stock')}</Typography.Text> : (
              <>
                <div>{r.custName}</div>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {CustomerLevel.label(r.level, lang)}{r.parentCustName ? ` · ${r.parentCustName}` : ''}
                </Typography.Text>
              </>
            )),
          },
          ...ORDER.map((k) => ({
            title: <HintTitle title={T(k)} hint={T(`hint.${k}`)} />,
            dataIndex: k, key: k, align: 'right' as const, sorter: SORTABLE.has(k),
            render: (v: CardReportRow[Key]) => cell(k, v),
          })),
        ]}
      />
    </>
  );
}
