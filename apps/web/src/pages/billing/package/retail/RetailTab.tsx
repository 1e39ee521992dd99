import { App, Button, Dropdown, Space, Typography } from 'antd';
import { LiveText } from '../../../../request/LiveText.tsx';
import { DownOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ProfitShareMethod, formatDateTime, formatMoney, retail, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import {
  CrossedPrice, RETAIL_PERM_EDIT, RETAIL_PERM_EXPORT, RETAIL_STATUS_COLORS, percent, retailPaths, useRetailBasics, useRetailCustomers,
  type RetailRow,
} from './shared.tsx';

const { RetailStatus } = retail;

/** Invalidates every cached read of retail plans after a change. */
export function invalidateRetail(qc: ReturnType<typeof useQueryClient>) {
  for (const e of [retail.getRetailListPage, retail.getRetailDetail, retail.getRetailChangeRecord]) void qc.invalidateQueries({ queryKey: [e.name] });
}

/** The retail tab of /billing/package/list: search, export, add, edit, copy, detail, change records, on/off sale. */
export function RetailTab() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { modal, message } = App.useApp();
  const table = useSearchTable(retail.getRetailListPage, { transform: (v) => ({ ...v, retailName: v.retailName?.trim() }) });
  const customers = useRetailCustomers();
  const basics = useRetailBasics('main');
  const canEdit = usePerm(RETAIL_PERM_EDIT);
  const canExport = usePerm(RETAIL_PERM_EXPORT);
  const f = (k: string) => t(`retail.fields.${k}`);

  const toggleSale = (r: RetailRow) => {
    const on = r.status !== RetailStatus.OnSale;
    modal.confirm({
      title: on ? t('retail.setOnSale') : t('retail.setOffSale'),
      content: on ? t('retail.confirmOnSale', { name: r.retailName }) : t('retail.confirmOffSale', { name: r.retailName }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await call(retail.updateRetail, { retailId: r.retailId, status: on ? RetailStatus.OnSale : RetailStatus.OffSale });
          message.success(<LiveText k="common.operationSuccess" />);
          invalidateRetail(qc);
        } catch {
          /* shown by the request layer (e.g. the price is no longer above the basic plan's) */
        }
      },
    });
  };

  return (
    <SearchTable<RetailRow>
      table={table}
      title={t('retail.title')}
      rowKey="retailId"
      exportSource={canExport ? retail.getRetailListPage : undefined}
      emptyHint={t('retail.emptyHint')}
      toolbar={
        <PermButton perm={RETAIL_PERM_EDIT} type="primary" icon={<PlusOutlined />} onClick={() => navigate(retailPaths.add())} data-testid="retail-add">
          {t('retail.add')}
        </PermButton>
      }
      fields={[
        { name: 'retailName', label: f('retailName') },
        { name: 'custId', label: f('custId'), type: 'select', options: (customers.data ?? []).map((c) => ({ value: c.custId, label: c.custName })) },
        { name: 'goodsReleaseId', label: f('goodsReleaseId'), type: 'select', options: (basics.data ?? []).map((b) => ({ value: b.goodsReleaseId, label: b.name })) },
        { name: 'status', label: f('status'), type: 'enum', enumOf: RetailStatus },
      ]}
      columns={[
        {
          title: f('retailName'), dataIndex: 'retailName', sorter: true,
          render: (v: string, r) => <a onClick={() => navigate(retailPaths.detail(r))}>{v}</a>,
        },
        { title: f('custId'), dataIndex: 'custName' },
        {
          title: f('goodsReleaseId'), dataIndex: 'basicName',
          render: (v: string, r) => <a onClick={() => navigate(retailPaths.basicDetail(r))}>{v}</a>,
        },
        // the prices and the status first: they are what the list is read for
        { title: f('price'), dataIndex: 'price', align: 'right', sorter: true, render: (v: string) => <Typography.Text strong>{formatMoney(v)}</Typography.Text> },
        { title: f('crossedPrice'), dataIndex: 'crossedPrice', align: 'right', render: (v: string | null) => <CrossedPrice value={v} /> },
        { title: f('status'), dataIndex: 'status', render: (v: number) => <StatusTag enumOf={RetailStatus} value={v} colors={RETAIL_STATUS_COLORS} /> },
        { title: f('basicSalePrice'), dataIndex: 'basicSalePrice', align: 'right', render: (v: string) => formatMoney(v) },
        {
          title: f('dividend'), key: 'dividend',
          render: (_: unknown, r) => `${ProfitShareMethod.label(r.dividendMethod, lang)} · ${percent(r.dividendProportion, true)}`,
        },
        { title: f('taxRate'), dataIndex: 'taxRate', align: 'right', render: (v: number) => percent(v) },
        { title: f('eventGoodsReleaseId'), dataIndex: 'eventName', render: (v: string | null) => v ?? '-' },
        { title: withZoneLabel(f('updatedAt')), dataIndex: 'updatedAt', sorter: true, render: (v: string) => formatDateTime(v) },
        { title: f('retailId'), dataIndex: 'retailId' },
        {
          title: t('common.actions'), key: 'actions', fixed: 'right', width: canEdit ? 190 : 170,
          render: (_: unknown, r) => (
            <Space size={0} wrap={false}>
              <Button type="link" size="small" onClick={() => navigate(retailPaths.detail(r))}>{t('common.detail')}</Button>
              {canEdit && <Button type="link" size="small" onClick={() => navigate(retailPaths.edit(r.retailId))} data-testid={`retail-edit-${r.retailId}`}>{t('common.edit')}</Button>}
              {canEdit ? (
                <Dropdown
                  trigger={['click']}
                  menu={{
                    items: [
                      { key: 'copy', label: t('common.copy') },
                      { key: 'sale', label: r.status === RetailStatus.OnSale ? t('retail.setOffSale') : t('retail.setOnSale') },
                      { key: 'records', label: t('retail.records') },
                    ],
                    onClick: ({ key }) => {
                      if (key === 'copy') void navigate(retailPaths.copy(r.retailId));
                      if (key === 'sale') toggleSale(r);
                      if (key === 'records') void navigate(retailPaths.record(r.retailId));
                    },
                  }}
                >
                  <Button type="link" size="small" data-testid={`retail-more-${r.retailId}`}>{t('common.more')} <DownOutlined /></Button>
                </Dropdown>
              ) : (
                <Button type="link" size="small" onClick={() => navigate(retailPaths.record(r.retailId))}>{t('retail.records')}</Button>
              )}
            </Space>
          ),
        },
      ]}
    />
  );
}

export default RetailTab;
