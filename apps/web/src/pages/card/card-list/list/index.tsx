import { DatePicker, Form, Input, Select, Space, Tag } from 'antd';
import { CycleUsageColumns } from './cycleUsage.tsx';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ColumnsType } from 'antd/es/table';
import { CardState, Operator, Perm, carddata, formatDateTime, plan, pool, type ResponseOf, withZoneLabel } from '@lynx/contract';
import { Link } from 'react-router';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { SearchForm, type SearchField } from '../../../../components/SearchForm.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { usePerm } from '../../../../components/PermButton.tsx';
import { call } from '../../../../request/http.ts';
import { IccidLink, useCardListSelection } from '../selectionTools.tsx';
import { CardListBatchButton } from '../../batchoperate/CardListBatchButton.tsx';
import { CATALOG_SEARCH_DEFAULTS, CardListSettings, useCardListPrefs, useCatalogColumns, useCatalogFields } from './catalog.tsx';
import { LinkFilterTags, useCardListDeepLink, useQuotaLevelField } from './useDeepLink.tsx';
import { cleanFilters } from '../../../../components/useSearchTable.ts';
import { cardFilters, searchFilters } from './query.ts';

export { cardFilters };
import { CustomerSelect } from '../../../home/customer/CustomerSelect.tsx';
import { ContainsHint, NUMBER_MATCH_DEFAULTS, numberField } from './numberMatch.tsx';

type CardRow = ResponseOf<typeof carddata.getSimListPage>['list'][number];

export const STATE_COLORS: Record<number, string> = {
  [CardState.Start]: 'default', [CardState.Test]: 'cyan', [CardState.ActivationReady]: 'geekblue', [CardState.Inventory]: 'purple',
  [CardState.Activated]: 'success', [CardState.Deactivated]: 'warning', [CardState.Invalidated]: 'default', [CardState.Retired]: 'default',
  [CardState.Frozen]: 'error',
};

const digits = (max: number) => ({ pattern: new RegExp(`^\\d{1,${max}}$`) });

/** /card/card-list/list/:salesorder?: the cards the signed-in user may see, with search and export. */
export default function CardList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const prefs = useCardListPrefs(searchFilters);
  // a link with filters (the Home overview's numbers) opens the list with them instead of the remembered search
  const link = useCardListDeepLink();
  const formDefaults = { ...NUMBER_MATCH_DEFAULTS, ...CATALOG_SEARCH_DEFAULTS };
  const initialValues = link.initial ? { ...formDefaults, ...link.initial.form } : { ...NUMBER_MATCH_DEFAULTS, ...prefs.initialValues };
  const table = useSearchTable(carddata.getSimListPage, {
    transform: searchFilters, pageSize: prefs.pageSize, fixed: link.linkOnly,
    initialFilters: link.initial ? cleanFilters(searchFilters(initialValues)) : prefs.initialFilters,
  });
  link.useFollow(table, formDefaults);
  const quotaField = useQuotaLevelField();
  const catalogColumns = useCatalogColumns<CardRow>();
  const catalogFields = useCatalogFields();
  const selection = useCardListSelection();
  const canCustomers = usePerm([Perm.HomeCustomer, Perm.BusinessCustomer]);
  const canPlans = usePerm(Perm.PackageManage);
  const plans = useQuery({
    queryKey: [plan.getBasicPlanListPage.name, { pageSize: 500, category: 'basic' }],
    queryFn: ({ signal }) => call(plan.getBasicPlanListPage, { pageSize: 500, category: 'basic' }, { signal, silent: true }),
    enabled: canPlans,
  });
  const pools = useQuery({
    queryKey: [pool.getPoolOptions.name, {}],
    queryFn: ({ signal }) => call(pool.getPoolOptions, {}, { signal, silent: true }),
  });
  const L = (k: string) => t(`carddata.list.${k}`);
  const digitsRule = (max: number) => ({ ...digits(max), message: L('digitsOnly') });

  // one row at 1440 px: ICCID, state and the customer (staff) or the operator (a customer's own cards); the rest under "more filters"
  const fields: SearchField[] = [
    numberField('iccid', L('iccid'), true),
    {
      name: 'iccidRange', label: L('iccidRange'), type: 'item', names: ['iccidStart', 'iccidEnd'],
      item: (
        <Form.Item label={L('iccidRange')}>
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="iccidStart" noStyle dependencies={['iccidEnd']} rules={[digitsRule(20), ({ getFieldValue }) => ({ validator: (_, v) => (!v === !getFieldValue('iccidEnd') ? Promise.resolve() : Promise.reject(new Error(L('rangeBoth')))) })]}>
              <Input allowClear placeholder={L('iccidStart')} maxLength={20} />
            </Form.Item>
            <Form.Item name="iccidEnd" noStyle rules={[digitsRule(20)]}>
              <Input allowClear placeholder={L('iccidEnd')} maxLength={20} />
            </Form.Item>
          </Space.Compact>
        </Form.Item>
      ),
    },
    numberField('msisdn', L('msisdn')),
    numberField('imsi', L('imsi')),
    {
      name: 'states', label: L('state'), type: 'custom', primary: true,
      control: <Select mode="multiple" allowClear maxTagCount="responsive" options={CardState.options(lang)} placeholder={t('common.all')} />,
    },
    ...(canCustomers ? [{ name: 'custId', label: L('customer'), type: 'custom', primary: true, control: <CustomerSelect allowClear placeholder={t('common.all')} /> } as const] : []),
    ...(canPlans
      ? [{
          name: 'goodsReleaseId', label: L('plan'), type: 'custom',
          control: <Select allowClear showSearch optionFilterProp="label" placeholder={t('common.all')} loading={plans.isFetching} options={(plans.data?.list ?? []).map((p) => ({ value: p.goodsReleaseId, label: p.name }))} />,
        } as const]
      : []),
    { name: 'operatorId', label: L('operator'), type: 'enum', enumOf: Operator, primary: !canCustomers },
    { name: 'batch', label: L('batch'), type: 'item', item: <Form.Item name="batch" label={L('batch')}><Input allowClear maxLength={64} placeholder={L('batchHint')} /></Form.Item> },
    { name: 'activated', label: withZoneLabel(L('activatedRange')), type: 'custom', control: <DatePicker.RangePicker style={{ width: '100%' }} /> },
    { name: 'online', label: L('online'), type: 'select', options: [{ value: 'yes', label: L('onlineYes') }, { value: 'no', label: L('onlineNo') }] },
    {
      name: 'poolId', label: t('pool.card.pool'), type: 'custom',
      control: <Select allowClear showSearch optionFilterProp="label" placeholder={t('common.all')} loading={pools.isFetching} data-testid="card-search-pool" options={(pools.data ?? []).map((p) => ({ value: p.poolId, label: p.name }))} />,
    },
    quotaField,
    ...catalogFields,
  ];

  const columns: ColumnsType<CardRow> = [
    { title: L('iccid'), dataIndex: 'iccid', sorter: true, fixed: 'left', width: 235, render: (v: string) => <IccidLink iccid={v} /> },
    { title: L('msisdn'), dataIndex: 'msisdn', width: 140, render: (v: string | null) => v ?? '-' },
    { title: L('imsi'), dataIndex: 'imsi', width: 160, render: (v: string | null) => v ?? '-' },
    { title: L('state'), dataIndex: 'state', width: 110, render: (v: number) => <StatusTag enumOf={CardState} value={v} colors={STATE_COLORS} /> },
    { title: L('operator'), dataIndex: 'operatorId', width: 130, render: (v: number) => <span style={{ whiteSpace: 'nowrap' }}>{Operator.label(v, lang)}</span> },
    { title: L('customer'), dataIndex: 'custName', width: 180, render: (v: string | null) => v ?? <Tag>{L('stock')}</Tag> },
    { title: L('plan'), dataIndex: 'planName', width: 180, ellipsis: true, render: (v: string | null) => v ?? '-' },
    ...catalogColumns,
    {
      title: t('pool.card.pool'), dataIndex: 'poolId', width: 160, ellipsis: true,
      render: (v: number | null, r: CardRow) => (v ? <Link to={`/card/pool/detail/${v}`}>{r.poolName ?? v}</Link> : '-'),
    },
    {
      title: L('online'), dataIndex: 'online', width: 90,
      render: (v: boolean) => <Tag color={v ? 'success' : 'default'}>{L(v ? 'onlineYes' : 'onlineNo')}</Tag>,
    },
    ...CycleUsageColumns<CardRow>(L),
    { title: withZoneLabel(L('lastSessionAt')), dataIndex: 'lastSessionAt', width: 170, render: (v: string | null) => (v ? formatDateTime(v) : '-') },
    { title: withZoneLabel(L('activatedAt')), dataIndex: 'activatedAt', sorter: true, width: 170, render: (v: string | null) => (v ? formatDateTime(v) : '-') },
    { title: withZoneLabel(L('firstUsedAt')), dataIndex: 'firstUsedAt', width: 170, render: (v: string | null) => (v ? formatDateTime(v) : '-') },
    { title: L('batch'), dataIndex: 'batchNo', width: 140, render: (v: string | null) => v ?? '-' },
    { title: L('imei'), dataIndex: 'imei', width: 160, render: (v: string | null) => v ?? '-' },
    { title: L('custom1'), dataIndex: 'custom1', width: 130, render: (v: string | null) => v ?? '-' },
    { title: L('custom2'), dataIndex: 'custom2', width: 130, render: (v: string | null) => v ?? '-' },
    { title: withZoneLabel(L('createdAt')), dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
  ];

  return (
    <>
      <div className="lx-card">
        <SearchForm form={table.form} fields={fields} testId="card-search" initialValues={initialValues}
          onFinish={(v) => { prefs.rememberSearch(v); link.leave(); table.search(v); }} onReset={() => { link.clear(); prefs.reset(table, NUMBER_MATCH_DEFAULTS); }}
          moreFilters={{ open: prefs.prefs.moreFilters, onChange: (moreFilters) => prefs.save({ moreFilters }) }} />
        <LinkFilterTags link={link} table={table} />
      </div>
      <SearchTable<CardRow>
        table={table}
        title={L('title')}
        rowKey="iccid"
        exportSource={carddata.getSimListPage}
        emptyHint={<ContainsHint table={table} fallback={L('emptyHint')} />}
        rowSelection={selection.rowSelection}
        toolbar={<>{selection.toolbar}<CardListBatchButton iccids={selection.rowSelection.selectedRowKeys} filters={table.body} /><CardListSettings prefs={prefs} table={table} columns={columns} /></>}
        columns={prefs.visible(columns)}
        size="middle"
      />
    </>
  );
}
