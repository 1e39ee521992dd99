import { Button, Col, DatePicker, Form, Input, Row, Select, Space, Tag } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import type { ColumnsType } from 'antd/es/table';
import { CardState, Operator, Perm, carddata, formatDateTime, plan, pool, type ResponseOf } from '@lynx/contract';
import { Link } from 'react-router';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { usePerm } from '../../../../components/PermButton.tsx';
import { call } from '../../../../request/http.ts';
import { IccidLink, useCardListSelection } from '../selectionTools.tsx';
import { CardListBatchButton } from '../../batchoperate/CardListBatchButton.tsx';
import { CardListSettings, CatalogFilters, useCardListPrefs, useCatalogColumns, withCatalog } from './catalog.tsx';
import { CustomerSelect } from '../../../home/customer/CustomerSelect.tsx';

type CardRow = ResponseOf<typeof carddata.getSimListPage>['list'][number];

export const STATE_COLORS: Record<number, string> = {
  [CardState.Start]: 'default', [CardState.Test]: 'cyan', [CardState.ActivationReady]: 'geekblue', [CardState.Inventory]: 'purple',
  [CardState.Activated]: 'success', [CardState.Deactivated]: 'warning', [CardState.Invalidated]: 'default', [CardState.Retired]: 'default',
  [CardState.Frozen]: 'error',
};

const digits = (max: number) => ({ pattern: new RegExp(`^\\d{1,${max}}$`) });

/** Search form values → the list's filters (dates as days, online as a flag, ICCID match mode). */
export function cardFilters(v: Record<string, any>): Record<string, unknown> {
  const { activated, online, iccidMatch, ...rest } = v as { activated?: [Dayjs, Dayjs] | null; online?: 'yes' | 'no'; iccidMatch?: string } & Record<string, unknown>;
  return {
    ...rest,
    ...(iccidMatch && iccidMatch !== 'auto' ? { iccidMatch } : {}),
    ...(online ? { online: online === 'yes' } : {}),
    ...(activated?.[0] ? { activatedFrom: activated[0].format('YYYY-MM-DD'), activatedTo: activated[1].format('YYYY-MM-DD') } : {}),
  };
}

/** The whole search form → filters: the catalogue search items (label, card type, first use, custom fields) and the rest. */
const searchFilters = withCatalog(cardFilters);

/** /card/card-list/list/:salesorder?: the cards the signed-in user may see, with search and export. */
export default function CardList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const prefs = useCardListPrefs(searchFilters);
  const table = useSearchTable(carddata.getSimListPage, { transform: searchFilters, pageSize: prefs.pageSize, initialFilters: prefs.initialFilters });
  const catalogColumns = useCatalogColumns<CardRow>();
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
    { title: L('lastSessionAt'), dataIndex: 'lastSessionAt', width: 170, render: (v: string | null) => (v ? formatDateTime(v) : '-') },
    { title: L('activatedAt'), dataIndex: 'activatedAt', sorter: true, width: 170, render: (v: string | null) => (v ? formatDateTime(v) : '-') },
    { title: L('firstUsedAt'), dataIndex: 'firstUsedAt', width: 170, render: (v: string | null) => (v ? formatDateTime(v) : '-') },
    { title: L('batch'), dataIndex: 'batchNo', width: 140, render: (v: string | null) => v ?? '-' },
    { title: L('imei'), dataIndex: 'imei', width: 160, render: (v: string | null) => v ?? '-' },
    { title: L('custom1'), dataIndex: 'custom1', width: 130, render: (v: string | null) => v ?? '-' },
    { title: L('custom2'), dataIndex: 'custom2', width: 130, render: (v: string | null) => v ?? '-' },
    { title: L('createdAt'), dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
  ];

  return (
    <>
      <div className="lx-card">
        <Form form={table.form} layout="vertical" onFinish={(v) => { prefs.rememberSearch(v); table.search(v); }} initialValues={{ iccidMatch: 'auto', ...prefs.initialValues }} data-testid="card-search">
          <Row gutter={16} align="bottom">
            <Col xs={24} sm={12} md={8} xl={6}>
              <Form.Item label={L('iccid')} tooltip={L('matchHint')}>
                <Space.Compact style={{ width: '100%' }}>
                  <Form.Item name="iccidMatch" noStyle>
                    <Select style={{ width: 96 }} popupMatchSelectWidth={false} options={['auto', 'exact', 'prefix'].map((m) => ({ value: m, label: L(`match${m[0].toUpperCase()}${m.slice(1)}`) }))} aria-label={L('iccidMatch')} />
                  </Form.Item>
                  <Form.Item name="iccid" noStyle rules={[digitsRule(20)]}>
                    <Input allowClear placeholder={L('iccid')} maxLength={20} />
                  </Form.Item>
                </Space.Compact>
              </Form.Item>
            </Col>
            <Col xs={24} sm={12} md={8} xl={6}>
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
            </Col>
            <Col xs={24} sm={12} md={8} xl={6}>
              <Form.Item name="msisdn" label={L('msisdn')} rules={[digitsRule(15)]}><Input allowClear maxLength={15} placeholder={L('msisdn')} /></Form.Item>
            </Col>
            <Col xs={24} sm={12} md={8} xl={6}>
              <Form.Item name="imsi" label={L('imsi')} rules={[digitsRule(15)]}><Input allowClear maxLength={15} placeholder={L('imsi')} /></Form.Item>
            </Col>
            <Col xs={24} sm={12} md={8} xl={6}>
              <Form.Item name="states" label={L('state')}>
                <Select mode="multiple" allowClear maxTagCount="responsive" options={CardState.options(lang)} placeholder={t('common.all')} />
              </Form.Item>
            </Col>
            {canCustomers && (
              <Col xs={24} sm={12} md={8} xl={6}>
                <Form.Item name="custId" label={L('customer')}>
                  <CustomerSelect allowClear placeholder={t('common.all')} />
                </Form.Item>
              </Col>
            )}
            {canPlans && (
              <Col xs={24} sm={12} md={8} xl={6}>
                <Form.Item name="goodsReleaseId" label={L('plan')}>
                  <Select allowClear showSearch optionFilterProp="label" placeholder={t('common.all')} loading={plans.isFetching}
                    options={(plans.data?.list ?? []).map((p) => ({ value: p.goodsReleaseId, label: p.name }))} />
                </Form.Item>
              </Col>
            )}
            <Col xs={24} sm={12} md={8} xl={6}>
              <Form.Item name="operatorId" label={L('operator')}><Select allowClear options={Operator.options(lang)} placeholder={t('common.all')} /></Form.Item>
            </Col>
            <Col xs={24} sm={12} md={8} xl={6}>
              <Form.Item name="batch" label={L('batch')}><Input allowClear maxLength={64} placeholder={L('batchHint')} /></Form.Item>
            </Col>
            <Col xs={24} sm={12} md={8} xl={6}>
              <Form.Item name="activated" label={L('activatedRange')}><DatePicker.RangePicker style={{ width: '100%' }} /></Form.Item>
            </Col>
            <Col xs={24} sm={12} md={8} xl={6}>
              <Form.Item name="online" label={L('online')}>
                <Select allowClear placeholder={t('common.all')} options={[{ value: 'yes', label: L('onlineYes') }, { value: 'no', label: L('onlineNo') }]} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12} md={8} xl={6}>
              <Form.Item name="poolId" label={t('pool.card.pool')}>
                <Select allowClear showSearch optionFilterProp="label" placeholder={t('common.all')} loading={pools.isFetching} data-testid="card-search-pool"
                  options={(pools.data ?? []).map((p) => ({ value: p.poolId, label: p.name }))} />
              </Form.Item>
            </Col>
            <CatalogFilters />
            <Col flex="auto">
              <Form.Item>
                <Space>
                  <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>{t('common.search')}</Button>
                  <Button onClick={() => prefs.reset(table, { iccidMatch: 'auto' })}>{t('common.reset')}</Button>
                </Space>
              </Form.Item>
            </Col>
          </Row>
        </Form>
      </div>
      <SearchTable<CardRow>
        table={table}
        title={L('title')}
        rowKey="iccid"
        exportSource={carddata.getSimListPage}
        emptyHint={L('emptyHint')}
        rowSelection={selection.rowSelection}
        toolbar={<>{selection.toolbar}<CardListBatchButton iccids={selection.rowSelection.selectedRowKeys} filters={table.body} /><CardListSettings prefs={prefs} table={table} columns={columns} /></>}
        columns={prefs.visible(columns)}
      />
    </>
  );
}
