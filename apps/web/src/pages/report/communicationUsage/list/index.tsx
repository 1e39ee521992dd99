import { useState } from 'react';
import { Alert, DatePicker, Segmented, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Operator, Perm, ReportPeriod, STAFF_ROLE_TYPES, formatCount, formatSize, simreport, type Lang } from '@lynx/contract';
import { ExportButton } from '../../../../components/ExportButton.tsx';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { usePerm } from '../../../../components/PermButton.tsx';
import { zoneLabel } from '../../../../components/businessTime.ts';
import { useSession } from '../../../../stores/session.ts';
import { CustomerSelect } from '../../../home/customer/CustomerSelect.tsx';
import { HintTitle, beyondLimit, usageEndpoint, usageFilters, voiceMinutes, type UsageRow } from '../../shared.tsx';

/** /report/communicationUsage/list: data, SMS, voice and sessions per customer and operator, by day or by month, with totals. */
export default function CommunicationUsageList() {
  const { t, i18n } = useTranslation();
  const lang = (i18n.language === 'zh' ? 'zh' : 'en') as Lang;
  const staff = useSession((s) => s.roleId !== null && STAFF_ROLE_TYPES.includes(s.roleId));
  const canCustomers = usePerm([Perm.HomeCustomer, Perm.BusinessCustomer]);
  const [type, setType] = useState<ReportPeriod>(ReportPeriod.Daily);
  const table = useSearchTable(usageEndpoint(type), { transform: usageFilters });
  const data = table.query.data;
  const T = (k: string) => t(`simreport.usage.${k}`);
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
      control: <DatePicker.RangePicker picker={monthly ? 'month' : 'date'} style={{ width: '100%' }} data-testid="usage-range"
        disabledDate={(d, info) => beyondLimit(d, info?.from, type)} />,
    },
    ...(staff || canCustomers
      ? [{ name: 'custId', label: t('simreport.customer'), type: 'custom' as const, control: <CustomerSelect allowClear placeholder={t('common.all')} /> }]
      : []),
    { name: 'operatorId', label: T('operator'), type: 'enum', enumOf: Operator },
    { name: 'apn', label: T('apn'), placeholder: T('apnPlaceholder') },
  ];
  const amount = (k: 'bytes' | 'sms' | 'voiceSeconds' | 'sessions' | 'cards', v: number) =>
    (k === 'bytes' ? formatSize(v) : k === 'voiceSeconds' ? voiceMinutes(v) : formatCount(v));
  const AMOUNTS = [
    { k: 'bytes', title: <HintTitle title={T('bytes')} hint={T('hint.bytes')} /> },
    { k: 'sms', title: T('sms') },
    { k: 'voiceSeconds', title: <HintTitle title={T('voice')} hint={T('hint.voice')} /> },
    { k: 'sessions', title: <HintTitle title={T('sessions')} hint={T('hint.sessions')} /> },
    { k: 'cards', title: <HintTitle title={T('cards')} hint={T('hint.cards')} /> },
  ] as const;

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 8px' }}>{T('intro')}</Typography.Paragraph>
      <Alert type="info" showIcon style={{ marginBottom: 12 }} title={T('limits')} description={t('simreport.tz', { zone: zoneLabel() })} />
      <SearchTable<UsageRow>
        table={table}
        title={(
          <span style={{ display: 'inline-flex', alignItems: 'center', gap: 12 }}>
            {T('title')}
            <Segmented<ReportPeriod>
              value={type}
              onChange={switchType}
              options={[{ value: ReportPeriod.Daily, label: T('daily') }, { value: ReportPeriod.Monthly, label: T('monthly') }]}
              data-testid="usage-type"
            />
            {data && (
              <Typography.Text type="secondary" style={{ fontSize: 13, fontWeight: 'normal' }} data-testid="usage-range-shown">
                {t('simreport.usage.range', { from: data.startDate, to: data.endDate })}
              </Typography.Text>
            )}
          </span>
        )}
        rowKey={(r) => `${r.period}/${r.custId}/${r.operatorId}`}
        toolbar={<ExportButton via={simreport.exportFile} filters={{ ...table.body, type }} />}
        emptyHint={T('emptyHint')}
        fields={fields}
        summary={() => (data && table.list.length > 0 ? (
          <Table.Summary fixed>
            <Table.Summary.Row data-testid="usage-totals">
              <Table.Summary.Cell index={0}><Typography.Text strong>{t('simreport.total')}</Typography.Text></Table.Summary.Cell>
              <Table.Summary.Cell index={1} />
              <Table.Summary.Cell index={2} />
              {AMOUNTS.map((a, i) => (
                <Table.Summary.Cell key={a.k} index={i + 3} align="right"><Typography.Text strong>{amount(a.k, data.totals[a.k])}</Typography.Text></Table.Summary.Cell>
              ))}
            </Table.Summary.Row>
          </Table.Summary>
        ) : null)}
        columns={[
          { title: T('period'), dataIndex: 'period', key: 'period', fixed: 'left', width: monthly ? 100 : 120 },
          {
            title: t('simreport.customer'), dataIndex: 'custName', key: 'custName', width: 220,
            render: (_: unknown, r) => (r.custId === 0 ? <Typography.Text type="secondary">{t('simreport.stock')}</Typography.Text> : r.custName),
          },
          { title: T('operator'), dataIndex: 'operatorName', key: 'operatorName', width: 120, render: (v: UsageRow['operatorName']) => v[lang] },
          ...AMOUNTS.map((a) => ({ title: a.title, dataIndex: a.k, key: a.k, align: 'right' as const, render: (v: number) => amount(a.k, v) })),
        ]}
      />
    </>
  );
}
