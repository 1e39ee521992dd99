import { useState } from 'react';
import { Alert, Button, DatePicker, Segmented, Table, Tooltip, Typography } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Perm, ReportPeriod, STAFF_ROLE_TYPES, formatCount, report } from '@lynx/contract';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { usePerm } from '../../../../components/PermButton.tsx';
import { useSession } from '../../../../stores/session.ts';
import { CustomerSelect } from '../../../home/customer/CustomerSelect.tsx';
import { MoneyCell } from '../../../business/capital/shared.tsx';
import { amountColumns, reportDetailPath, reportFilters, shownKeys, type ReportRow } from '../shared.tsx';

/** /financial/report/list: the daily or monthly accounting reports in the viewer's scope, with the range's totals. */
export default function ReportList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const staff = useSession((s) => s.roleId !== null && STAFF_ROLE_TYPES.includes(s.roleId));
  const canCustomers = usePerm([Perm.HomeCustomer, Perm.BusinessCustomer]);
  const [type, setType] = useState<ReportPeriod>(ReportPeriod.Daily);
  const table = useSearchTable(report.getAccountingReportListPage, { fixed: { type }, transform: reportFilters });
  const data = table.query.data;
  const keys = shownKeys(data?.totals);
  const T = (k: string) => t(`report.${k}`);
  const monthly = type === ReportPeriod.Monthly;

  const switchType = (next: ReportPeriod) => {
    setType(next);
    // a day range and a month range are different pickers: the range starts over
    table.form.setFieldValue('range', undefined);
    table.search(table.form.getFieldsValue());
  };

  const fields: SearchField[] = [
    {
      name: 'range', label: monthly ? T('monthRange') : T('dateRange'), type: 'custom',
      control: <DatePicker.RangePicker picker={monthly ? 'month' : 'date'} style={{ width: '100%' }} data-testid="report-range" />,
    },
    ...(staff || canCustomers
      ? [{ name: 'custId', label: T('customer'), type: 'custom' as const, control: <CustomerSelect allowClear placeholder={t('common.all')} /> }]
      : []),
  ];

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 8px' }}>{T('intro')}</Typography.Paragraph>
      <Alert type="info" showIcon style={{ marginBottom: 12 }} data-testid="report-formula"
        title={T('formula')} description={staff ? undefined : T('introScope')} />
      <SearchTable<ReportRow>
        table={table}
        title={(
          <span style={{ display: 'inline-flex', alignItems: 'center', gap: 12 }}>
            {T('title')}
            <Segmented<ReportPeriod>
              value={type}
              onChange={switchType}
              options={[{ value: ReportPeriod.Daily, label: T('daily') }, { value: ReportPeriod.Monthly, label: T('monthly') }]}
              data-testid="report-type"
            />
            <Typography.Text type="secondary" style={{ fontSize: 13, fontWeight: 'normal' }} data-testid="report-built-through">
              {data ? (data.builtThrough ? t('report.builtThrough', { day: data.builtThrough }) : T('notBuilt')) : null}
            </Typography.Text>
          </span>
        )}
        rowKey="id"
        exportSource={report.getAccountingReportListPage}
        emptyHint={T('emptyHint')}
        fields={fields}
        summary={() => (data?.totals && table.list.length > 0 ? (
          <Table.Summary fixed>
            <Table.Summary.Row data-testid="report-totals">
              <Table.Summary.Cell index={0}><Typography.Text strong>{T('total')}</Typography.Text></Table.Summary.Cell>
              <Table.Summary.Cell index={1} />
              {keys.map((k, i) => (
                <Table.Summary.Cell key={k} index={i + 2} align="right">
                  <Typography.Text strong><MoneyCell v={data.totals![k]} /></Typography.Text>
                </Table.Summary.Cell>
              ))}
              <Table.Summary.Cell index={keys.length + 2} />
            </Table.Summary.Row>
          </Table.Summary>
        ) : null)}
        columns={[
          {
            title: T('period'), dataIndex: 'id', width: monthly ? 170 : 130, fixed: 'left',
            render: (_: string, r) => (
              <Link to={reportDetailPath(r.id, r.type)} data-testid={`report-row-${r.id}`}>
                {r.id}
                {!r.complete && <div><Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('report.monthSoFar', { end: r.periodEnd.slice(5) })}</Typography.Text></div>}
              </Link>
            ),
          },
          {
            title: <span style={{ whiteSpace: 'nowrap' }}>{T('customers')} <Tooltip title={T('customersHint')}><QuestionCircleOutlined style={{ color: 'rgba(0,0,0,.45)' }} /></Tooltip></span>,
            dataIndex: 'customers', width: 110, align: 'right', render: (v: number) => formatCount(v),
          },
          ...amountColumns<ReportRow>(keys),
          {
            title: t('common.actions'), key: 'actions', fixed: 'right', width: 90,
            render: (_: unknown, r) => <Button type="link" size="small" onClick={() => navigate(reportDetailPath(r.id, r.type))}>{T('detail')}</Button>,
          },
        ]}
      />
    </>
  );
}
