import { useState } from 'react';
import { Button, Card, Drawer, Table, Tabs } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PlanChangeKind, PriceChangeFailure, PriceChangeStatus, formatDateTime, formatMoney, plan, type ResponseOf, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { ExportButton } from '../../../../components/ExportButton.tsx';
import { CHANGE_STATUS_COLORS, PLAN_PERM, planPaths } from '../shared.tsx';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

type ChangeRow = ResponseOf<typeof plan.getPriceChangeListPage>['list'][number];
type ItemRow = ResponseOf<typeof plan.getPriceChangeItemPage>['list'][number];

/** The failed customers of one price change, with export. */
function FailureDrawer({ change, onClose }: { change: ChangeRow | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [page, setPage] = useState({ current: 1, pageSize: 20 });
  const canExport = usePerm(PLAN_PERM.price);
  const body = { changeId: change?.changeId ?? 0, ...page };
  const items = useQuery({
    queryKey: [plan.getPriceChangeItemPage.name, body],
    queryFn: ({ signal }) => call(plan.getPriceChangeItemPage, body, { signal, silent: true }),
    enabled: !!change,
  });
  const c = (k: string) => t(`plan.changes.${k}`);
  return (
    <Drawer
      open={!!change}
      size={880}
      title={change && t('plan.changes.failuresTitle', { id: change.changeId })}
      onClose={onClose}
      extra={change && canExport && <ExportButton source={plan.getPriceChangeItemPage} filters={{ changeId: change.changeId }} />}
    >
      <Table<ItemRow>
        size="small"
        rowKey="itemId"
        loading={items.isFetching}
        dataSource={items.data?.list ?? []}
        locale={{ emptyText: c('noFailures') }}
        pagination={{ ...page, total: items.data?.total ?? 0, showSizeChanger: true, onChange: (current, pageSize) => setPage({ current, pageSize }) }}
        columns={[
          { title: c('custId'), dataIndex: 'custId', width: 100 },
          { title: c('custName'), dataIndex: 'custName' },
          { title: c('reason'), dataIndex: 'reasonCode', render: (v: number | null) => PriceChangeFailure.label(v, lang) },
          { title: c('retailName'), dataIndex: 'retailName', render: (v: string | null) => v ?? '-' },
          { title: c('retailPrice'), dataIndex: 'retailPrice', align: 'right', width: 120, render: (v: string | null) => formatMoney(v) },
          { title: c('newPrice'), dataIndex: 'newPrice', align: 'right', width: 120, render: (v: string) => formatMoney(v) },
        ]}
      />
    </Drawer>
  );
}

type HistoryRow = ResponseOf<typeof plan.getPlanHistoryPage>['list'][number];

const KIND_COLORS: Record<number, string> = {
  [PlanChangeKind.Created]: 'blue', [PlanChangeKind.Edited]: 'cyan', [PlanChangeKind.Published]: 'green',
  [PlanChangeKind.Unpublished]: 'orange', [PlanChangeKind.PriceAdjusted]: 'gold', [PlanChangeKind.Deleted]: 'red',
};

/** Every change of the plan: created, edited, published, unpublished, price adjusted (from its audit trail). */
function HistoryTable({ goodsReleaseId }: { goodsReleaseId: number }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const table = useSearchTable(plan.getPlanHistoryPage, { fixed: { goodsReleaseId } });
  const c = (k: string, o?: Record<string, unknown>) => t(`plan.changes.${k}`, o);
  const detail = (r: HistoryRow) => {
    if (r.kind === PlanChangeKind.PriceAdjusted) return c('priceChanged', { old: formatMoney(r.oldPrice), new: formatMoney(r.newPrice), date: r.effectiveDate });
    if (r.customerCount !== null) return c('customersChanged', { count: r.customerCount });
    if (r.newPrice !== null) return c('priceSet', { price: formatMoney(r.newPrice) });
    return '-';
  };
  return (
    <SearchTable<HistoryRow>
      table={table}
      rowKey="id"
      emptyHint={c('historyEmpty')}
      columns={[
        { title: c('kind'), dataIndex: 'kind', width: 130, render: (v: number) => <StatusTag enumOf={PlanChangeKind} value={v} colors={KIND_COLORS} /> },
        { title: c('detail'), key: 'detail', render: (_: unknown, r) => detail(r) },
        { title: c('createdBy'), dataIndex: 'loginName', width: 140, render: (v: string | null) => v ?? '-' },
        { title: withZoneLabel(c('createdAt')), dataIndex: 'createdAt', width: 180, render: (v: string) => formatDateTime(v, lang) },
      ]}
    />
  );
}

/** /billing/package/basicChangeList/:goodsReleaseId: every price change of a plan with its failures, and all its changes. */
export default function PlanChangeList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const { goodsReleaseId } = useParams();
  const id = Number(goodsReleaseId);
  const [failures, setFailures] = useState<ChangeRow | null>(null);
  const table = useSearchTable(plan.getPriceChangeListPage, { fixed: { goodsReleaseId: id } });
  const detail = useQuery({
    queryKey: [plan.getBasicPlanDetail.name, { goodsReleaseId: id }],
    queryFn: ({ signal }) => call(plan.getBasicPlanDetail, { goodsReleaseId: id }, { signal, silent: true }),
  });
  usePageTitle(detail.data?.name);
  const c = (k: string) => t(`plan.changes.${k}`);
  const priceTable = (
    <SearchTable<ChangeRow>
      table={table}
      rowKey="changeId"
      emptyHint={c('empty')}
      toolbar={
        <PermButton perm={PLAN_PERM.price} type="primary" onClick={() => navigate(planPaths.price(id))}>{c('adjust')}</PermButton>
      }
      columns={[
        { title: c('changeId'), dataIndex: 'changeId', width: 100 },
        { title: c('oldPrice'), dataIndex: 'oldPrice', align: 'right', width: 120, render: (v: string) => formatMoney(v) },
        { title: c('newPrice'), dataIndex: 'newPrice', align: 'right', width: 120, render: (v: string) => formatMoney(v) },
        { title: c('effectiveDate'), dataIndex: 'effectiveDate', width: 120 },
        { title: c('status'), dataIndex: 'status', width: 100, render: (v: number) => <StatusTag enumOf={PriceChangeStatus} value={v} colors={CHANGE_STATUS_COLORS} /> },
        { title: c('successCount'), dataIndex: 'successCount', align: 'right', width: 100 },
        {
          title: c('failureCount'), dataIndex: 'failureCount', align: 'right', width: 100,
          render: (v: number, r) => (v ? <Button type="link" danger size="small" onClick={() => setFailures(r)}>{v}</Button> : 0),
        },
        { title: c('remark'), dataIndex: 'remark', ellipsis: true, render: (v: string | null) => v ?? '-' },
        { title: c('createdBy'), dataIndex: 'createdBy', width: 110 },
        { title: withZoneLabel(c('createdAt')), dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v, lang) },
        {
          title: t('common.actions'), key: 'actions', width: 110, fixed: 'right',
          render: (_: unknown, r) => <Button type="link" size="small" disabled={!r.failureCount} onClick={() => setFailures(r)}>{c('failures')}</Button>,
        },
      ]}
    />
  );
  return (
    <Card className="lx-card" variant="borderless" title={t('plan.changes.title', { name: detail.data?.name ?? `#${id}` })}>
      <Tabs
        items={[
          { key: 'price', label: c('tabPrice'), children: priceTable },
          { key: 'history', label: c('tabHistory'), children: <HistoryTable goodsReleaseId={id} /> },
        ]}
      />
      <FailureDrawer change={failures} onClose={() => setFailures(null)} />
    </Card>
  );
}
