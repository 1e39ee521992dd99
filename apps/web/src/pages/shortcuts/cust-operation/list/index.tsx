import { Alert, DatePicker, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { custoperation, formatCount, formatSize, type Lang } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { zoneLabel } from '../../../../components/businessTime.ts';
import { HintTitle, voiceMinutes } from '../../../report/shared.tsx';
import { accountLabel, beyondSpan, custOperationFilters, detailPath, zoneLabelOf, type CustOperationRow } from '../shared.tsx';

/**
 * /shortcuts/cust-operation/list (6030000): China Unicom usage per account × rate plan × zone × day, summed from the
 * stored daily usage, with the day's pooled-usage alarms; totals, export, and a link to each row's pool detail.
 */
export default function CustOperationList() {
  const { t, i18n } = useTranslation();
  const lang = (i18n.language === 'zh' ? 'zh' : 'en') as Lang;
  const T = (k: string, o?: Record<string, unknown>) => t(`custoperation.${k}`, o);
  const table = useSearchTable(custoperation.getCustOperationPage, { transform: custOperationFilters });
  const options = useQuery({
    queryKey: [custoperation.getCustOperationOptions.name],
    queryFn: ({ signal }) => call(custoperation.getCustOperationOptions, {}, { signal, silent: true }),
  });
  const data = table.query.data;

  const fields: SearchField[] = [
    {
      name: 'range', label: T('dateRange'), type: 'custom',
      control: <DatePicker.RangePicker style={{ width: '100%' }} data-testid="cuop-range" disabledDate={(d, info) => beyondSpan(d, info?.from)} />,
    },
    {
      name: 'operAccountId', label: T('account'), type: 'select',
      options: (options.data?.accounts ?? []).map((a) => ({ value: a.operAccountId, label: accountLabel(a, lang) })),
    },
    {
      name: 'goodsReleaseId', label: T('ratePlan'), type: 'select',
      options: (options.data?.plans ?? []).map((p) => ({ value: p.goodsReleaseId, label: `${p.name} (${p.code})` })),
    },
    { name: 'zoneName', label: T('zone'), placeholder: T('zonePlaceholder') },
  ];
  const AMOUNTS = [
    { k: 'cards', title: <HintTitle title={T('cards')} hint={T('hint.cards')} /> },
    { k: 'bytes', title: T('bytes') },
    { k: 'sms', title: T('sms') },
    { k: 'voiceSeconds', title: T('voice') },
    { k: 'sessions', title: T('sessions') },
    { k: 'alarms', title: <HintTitle title={T('alarms')} hint={T('hint.alarms')} /> },
  ] as const;
  const amount = (k: (typeof AMOUNTS)[number]['k'], v: number) => (k === 'bytes' ? formatSize(v) : k === 'voiceSeconds' ? voiceMinutes(v) : formatCount(v));

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 8px' }}>{T('intro')}</Typography.Paragraph>
      <Alert type="info" showIcon style={{ marginBottom: 12 }} title={T('limits', { max: custoperation.CUST_OPERATION_MAX_DAYS })}
        description={T('tz', { zone: zoneLabel() })} />
      <SearchTable<CustOperationRow>
        table={table}
        title={(
          <span style={{ display: 'inline-flex', alignItems: 'center', gap: 12 }}>
            {T('title')}
            {data && (
              <Typography.Text type="secondary" style={{ fontSize: 13, fontWeight: 'normal' }} data-testid="cuop-range-shown">
                {T('range', { from: data.startDate, to: data.endDate })}
              </Typography.Text>
            )}
          </span>
        )}
        rowKey={(r) => `${r.queryDate}/${r.operAccountId}/${r.goodsReleaseId}`}
        exportSource={custoperation.getCustOperationPage}
        emptyHint={T('emptyHint')}
        fields={fields}
        summary={() => (data && table.list.length > 0 ? (
          <Table.Summary fixed>
            <Table.Summary.Row data-testid="cuop-totals">
              <Table.Summary.Cell index={0}><Typography.Text strong>{T('total')}</Typography.Text></Table.Summary.Cell>
              <Table.Summary.Cell index={1} />
              <Table.Summary.Cell index={2} />
              <Table.Summary.Cell index={3} />
              {AMOUNTS.map((a, i) => (
                <Table.Summary.Cell key={a.k} index={i + 4} align="right"><Typography.Text strong>{amount(a.k, data.totals[a.k])}</Typography.Text></Table.Summary.Cell>
              ))}
              <Table.Summary.Cell index={AMOUNTS.length + 4} />
            </Table.Summary.Row>
          </Table.Summary>
        ) : null)}
        columns={[
          { title: T('queryDate'), dataIndex: 'queryDate', key: 'queryDate', fixed: 'left', width: 120 },
          { title: T('account'), dataIndex: 'accountName', key: 'accountName', width: 180, render: (_: unknown, r) => accountLabel(r, lang) },
          {
            title: T('ratePlan'), dataIndex: 'ratePlanName', key: 'ratePlanName', width: 220,
            render: (_: unknown, r) => <>{r.ratePlanName}<br /><Typography.Text type="secondary" style={{ fontSize: 12 }}>{r.ratePlanCode}</Typography.Text></>,
          },
          { title: T('zone'), dataIndex: 'zoneName', key: 'zoneName', width: 160, render: (_: unknown, r) => zoneLabelOf(r, lang) },
          ...AMOUNTS.map((a) => ({ title: a.title, dataIndex: a.k, key: a.k, align: 'right' as const, render: (v: number) => amount(a.k, v) })),
          {
            title: t('common.actions'), key: 'action', fixed: 'right', width: 110,
            render: (_: unknown, r) => (r.zoneName == null ? '-' : <Link to={detailPath(r)} data-testid="cuop-detail-link">{T('poolDetail')}</Link>),
          },
        ]}
      />
    </>
  );
}
