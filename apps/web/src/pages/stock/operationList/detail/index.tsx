import { useState } from 'react';
import { App, Button, Result, Space, Switch, Table, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { formatDateTime, Operator, StockBatchState, StockItemStatus, StockOpType, stock, type Lang, type ResponseOf } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { DetailPage } from '../../../../components/DetailPage.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { usePerm } from '../../../../components/PermButton.tsx';
import { OpProgress, POLL_MS, STATE_COLORS } from '../shared.tsx';

type Item = ResponseOf<typeof stock.getStockOpItemPage>['list'][number];
const ITEM_COLORS: Record<number, string> = {
  [StockItemStatus.Pending]: 'processing', [StockItemStatus.Succeeded]: 'success', [StockItemStatus.Failed]: 'error', [StockItemStatus.Skipped]: 'default',
};

/** /stock/operationList/detail/:batchId?: one stock operation, its progress while it runs, its items with each failure's reason. */
export default function StockOpDetail() {
  const { t, i18n } = useTranslation();
  const lang = (i18n.language === 'zh' ? 'zh' : 'en') as Lang;
  const T = (k: string, o?: Record<string, unknown>) => t(`stock.${k}`, o);
  const { batchId = '' } = useParams();
  const { modal, message } = App.useApp();
  const qc = useQueryClient();
  const mayRun = usePerm(stock.StockPerm.Operations);
  const [failedOnly, setFailedOnly] = useState(false);
  const [page, setPage] = useState({ current: 1, pageSize: 20 });
  const detail = useQuery({
    queryKey: [stock.getStockOpDetail.name, batchId],
    queryFn: ({ signal }) => call(stock.getStockOpDetail, { batchId }, { signal, silent: true }),
    enabled: !!batchId, retry: false,
    refetchInterval: (q) => (q.state.data?.state === StockBatchState.Running ? POLL_MS : false),
  });
  const running = detail.data?.state === StockBatchState.Running;
  const items = useQuery({
    queryKey: [stock.getStockOpItemPage.name, batchId, failedOnly, page],
    queryFn: ({ signal }) => call(stock.getStockOpItemPage, { batchId, failedOnly, ...page }, { signal }),
    enabled: !!detail.data,
    refetchInterval: () => (running ? POLL_MS : false),
  });
  if (!batchId) return <div className="lx-card"><Result status="info" subTitle={T('noParam')} /></div>;
  const b = detail.data;
  const refresh = () => void qc.invalidateQueries({ queryKey: [stock.getStockOpDetail.name, batchId] });
  const act = (which: 'confirm' | 'cancel') => modal.confirm({
    title: which === 'confirm' ? T('confirmRunTitle') : T('cancelOpConfirm'),
    content: which === 'confirm' && b ? T('confirmRunContent', { type: StockOpType.label(b.type, lang), valid: b.valid, invalid: b.invalid }) : undefined,
    okText: t('common.ok'), cancelText: t('common.cancel'),
    okButtonProps: { danger: which === 'cancel' || b?.type === StockOpType.Scrap, 'data-testid': `stock-op-${which}-ok` } as never,
    onOk: async () => {
      await call(which === 'confirm' ? stock.confirmStockOp : stock.cancelStockOp, { batchId });
      message.success(t('common.operationSuccess'));
      refresh();
    },
  });
  const params = (b?.params ?? {}) as { operatorId?: number; location?: string; remark?: string };

  return (
    <DetailPage
      loading={detail.isLoading} error={detail.error} title={T('opDetailTitle')}
      extra={b?.state === StockBatchState.Validated && mayRun ? (
        <Space>
          <Button onClick={() => act('cancel')} data-testid="stock-op-cancel">{T('cancelOp')}</Button>
          <Button type="primary" disabled={b.valid === 0} onClick={() => act('confirm')} data-testid="stock-op-confirm">{T('confirmRun')}</Button>
        </Space>
      ) : null}
      items={b ? [
        { label: T('opType'), value: StockOpType.label(b.type, lang) },
        { label: T('opState'), value: <span data-testid="stock-op-state"><StatusTag enumOf={StockBatchState} value={b.state} colors={STATE_COLORS} /></span> },
        { label: T('progress'), value: <OpProgress b={b} /> },
        { label: T('counts'), value: `${b.total} / ${b.valid} / ${b.invalid}` },
        { label: T('succeeded'), value: <span data-testid="stock-op-succeeded">{b.succeeded}</span> },
        { label: T('failed'), value: b.failed },
        ...(b.type === StockOpType.In ? [
          { label: T('operator'), value: Operator.label(params.operatorId, lang) },
          { label: T('location'), value: params.location || null },
          { label: T('remark'), value: params.remark || null },
          ...(b.fileName ? [{ label: T('fileName'), value: <span translate="no">{b.fileName}</span> }] : []),
        ] : []),
        { label: T('createdBy'), value: b.createdBy },
        { label: T('createdAt'), value: formatDateTime(b.createdAt) },
        { label: T('finishedAt'), value: b.finishedAt ? formatDateTime(b.finishedAt) : null },
      ] : []}
    >
      <div className="lx-card">
        <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
          <Typography.Title level={5} style={{ margin: 0 }}>{T('items')}</Typography.Title>
          <Space><Switch checked={failedOnly} onChange={(v) => { setFailedOnly(v); setPage((p) => ({ ...p, current: 1 })); }} />{T('failedOnly')}</Space>
        </Space>
        <Table<Item>
          rowKey="seq" size="small" loading={items.isFetching && !running} dataSource={items.data?.list ?? []} data-testid="stock-op-items"
          scroll={{ x: 'max-content' }}
          pagination={{ current: page.current, pageSize: page.pageSize, total: items.data?.total ?? 0, showTotal: (total) => t('common.total', { total }),
            onChange: (current, pageSize) => setPage({ current, pageSize }) }}
          columns={[
            { title: T('seq'), dataIndex: 'seq', width: 70 },
            { title: T('iccid'), dataIndex: 'iccid', width: 210, render: (v: string) => <Link to={`/stock/stocklist/detail/${v}`}>{v}</Link> },
            ...(b?.type === StockOpType.In ? [
              { title: T('imsi'), dataIndex: 'imsi', width: 160, render: (v: string | null) => v ?? '-' },
              { title: T('msisdn'), dataIndex: 'msisdn', width: 150, render: (v: string | null) => v ?? '-' },
            ] : []),
            { title: T('itemStatus'), dataIndex: 'status', width: 100, render: (v: number) => <StatusTag enumOf={StockItemStatus} value={v} colors={ITEM_COLORS} /> },
            { title: T('reason'), dataIndex: 'reason', render: (v: string | null) => v ?? '-' },
            { title: T('doneAt'), dataIndex: 'doneAt', width: 170, render: (v: string | null) => (v ? formatDateTime(v) : '-') },
          ]}
        />
      </div>
    </DetailPage>
  );
}
