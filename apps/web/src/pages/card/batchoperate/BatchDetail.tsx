import { useEffect, useState } from 'react';
import { LiveText } from '../../../request/LiveText.tsx';
import { Alert, App, Button, Input, Segmented, Space, Tag } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { batch, formatDateTime, withZoneLabel } from '@lynx/contract';
import { DetailPage } from '../../../components/DetailPage.tsx';
import { SearchTable } from '../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../components/useSearchTable.ts';
import { StatusTag } from '../../../components/StatusTag.tsx';
import { call } from '../../../request/http.ts';
import { BatchProgress } from './BatchList.tsx';
import { DowntimeFee, downtimeConfirmNote } from './DowntimeFee.tsx';
import {
  ITEM_COLORS, ITEM_TABS, STATE_COLORS, VERDICT_COLORS, SCOPES, operationText, tabFilter,
  type BatchItemRow, type BatchScope, type ItemTab,
} from './scope.ts';
import { shortBatchId, usePageTitle } from '../../../layout/pageTitle.ts';

const { BatchType, BatchState, BatchSource, BatchVerdict, BatchItemStatus } = batch;
const POLL_MS = 2000;

/** One batch: what it does, its counts and progress, confirm / cancel while validated, and the per-card results. */
export function BatchDetail({ scope }: { scope: BatchScope }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const params = useParams();
  const batchId = params.batchId ?? '';
  // a pool change's fail log takes the tab from ?state= and opens on the failures (spec: /card/pool/change/fail-log/:batchId)
  const [search] = useSearchParams();
  const wanted = scope === 'pool' ? (search.get('state') ?? 'failed') : (params.state ?? '');
  const routeTab = (ITEM_TABS as readonly string[]).includes(wanted) ? (wanted as ItemTab) : 'all';
  const [tab, setTab] = useState<ItemTab>(routeTab);
  const [iccid, setIccid] = useState('');
  useEffect(() => setTab(routeTab), [routeTab]);

  const detail = useQuery({
    queryKey: [batch.getBatchDetail.name, { batchId }],
    queryFn: ({ signal }) => call(batch.getBatchDetail, { batchId }, { signal, silent: true }),
    refetchInterval: (q) => (q.state.data?.state === BatchState.Running ? POLL_MS : false),
  });
  const b = detail.data;
  usePageTitle(b ? shortBatchId(b.batchId) : null);
  const isRunning = b?.state === BatchState.Running;
  const items = useSearchTable(batch.getBatchItemPage, {
    fixed: { batchId, ...tabFilter(tab), ...(iccid ? { iccid } : {}) },
    refetchInterval: () => (isRunning ? POLL_MS : false),
  });
  // the per-card results follow the batch: when its state or progress moves (the last poll of a running batch
  // may come before the batch finished), fetch them again, so a finished batch never shows stale pending rows
  const progress = b ? `${b.state}:${b.processedCount}` : '';
  useEffect(() => {
    if (!progress) return;
    void qc.invalidateQueries({ queryKey: [batch.getBatchItemPage.name] });
    // cards whose deactivation failed leave the downtime fee
    void qc.invalidateQueries({ queryKey: [batch.getBatchShutDownFee.name] });
  }, [progress, qc]);
  const D = (k: string, o?: Record<string, unknown>) => t(`batch.detail.${k}`, o);
  const C = (k: string) => t(`batch.col.${k}`);

  const refresh = () => {
    void qc.invalidateQueries({ queryKey: [batch.getBatchDetail.name] });
    void qc.invalidateQueries({ queryKey: [batch.getBatchPage.name] });
    void qc.invalidateQueries({ queryKey: [batch.getBatchItemPage.name] });
  };
  const confirm = () => {
    if (!b) return;
    const fee = downtimeConfirmNote(qc, b, t);
    modal.confirm({
      title: t('batch.wizard.confirmTitle'),
      content: <>{t('batch.wizard.confirmContent', { valid: b.validCount, operation: operationText(b, t) })}{fee && <div style={{ marginTop: 8 }}>{fee}</div>}</>,
      okText: t('batch.wizard.confirm'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await call(batch.confirmBatch, { batchId });
          message.success(<LiveText k="batch.wizard.confirmed" />);
          setTab('all');
          refresh();
        } catch {
          /* shown by the request layer */
        }
      },
    });
  };
  const cancel = () =>
    modal.confirm({
      title: D('cancel'),
      content: D('cancelConfirm'),
      okButtonProps: { danger: true },
      okText: D('cancel'),
      cancelText: t('common.close'),
      onOk: async () => {
        try {
          await call(batch.cancelBatch, { batchId });
          message.success(D('cancelled'));
          refresh();
        } catch {
          /* shown by the request layer */
        }
      },
    });

  const when = (v: string | null) => (v ? formatDateTime(v) : '-');
  return (
    <DetailPage
      loading={detail.isLoading}
      error={detail.error ?? (detail.isSuccess && !b ? true : undefined)}
      title={D('basics')}
      extra={
        <Space>
          <Link to={`${SCOPES[scope].base}/list`}>{D('back')}</Link>
          {b?.state === BatchState.Validated && (
            <>
              <Button danger onClick={cancel}>{D('cancel')}</Button>
              <Button type="primary" disabled={!b.validCount} onClick={confirm} data-testid="batch-detail-confirm">{D('confirm')}</Button>
            </>
          )}
        </Space>
      }
      items={
        b
          ? [
              { label: C('type'), value: BatchType.label(b.type, lang) },
              { label: C('operation'), value: operationText(b, t), span: b.params.poolId ? 1 : 2 },
              ...(b.params.poolId ? [{ label: C('pool'), value: <Link to={`/card/pool/detail/${b.params.poolId}`}>{b.params.poolName ?? b.params.poolId}</Link> }] : []),
              { label: C('state'), value: <StatusTag enumOf={BatchState} value={b.state} colors={STATE_COLORS} /> },
              { label: C('source'), value: b.fileName ? `${BatchSource.label(b.source, lang)}: ${b.fileName}` : BatchSource.label(b.source, lang) },
              { label: C('createdBy'), value: b.createdBy },
              { label: C('counts'), value: t('batch.countsText', { total: b.totalCount, valid: b.validCount, invalid: b.invalidCount, already: b.alreadyCount }), span: 2 },
              { label: C('duplicates'), value: b.duplicateCount },
              { label: C('progress'), value: <BatchProgress b={b} />, span: 2 },
              { label: `${C('succeeded')} / ${C('failed')}`, value: <><Tag color="success">{b.succeededCount}</Tag><Tag color={b.failedCount ? 'error' : 'default'}>{b.failedCount}</Tag></> },
              { label: withZoneLabel(C('createdAt')), value: when(b.createdAt) },
              { label: withZoneLabel(C('confirmedAt')), value: when(b.confirmedAt) },
              { label: withZoneLabel(b.cancelledAt ? C('cancelledAt') : C('finishedAt')), value: when(b.cancelledAt ?? b.finishedAt) },
              ...(b.params.reason ? [{ label: t('batch.wizard.reason'), value: b.params.reason, span: 3 }] : []),
            ]
          : []
      }
    >
      {b && batch.isDeactivation(b) && <DowntimeFee batchId={b.batchId} framed="section" />}
      {isRunning && <Alert type="info" showIcon style={{ marginBottom: 12 }} title={D('runningHint')} />}
      <SearchTable<BatchItemRow>
        table={items}
        title={
          <Space wrap>
            {D('items')}
            <Segmented<ItemTab> value={tab} onChange={(v) => { setTab(v); items.search({}); }} options={ITEM_TABS.map((k) => ({ value: k, label: D(`tab.${k}`) }))} data-testid="batch-item-tabs" />
          </Space>
        }
        toolbar={<Input.Search allowClear placeholder={t('batch.filter.iccid')} style={{ width: 220 }} onSearch={(v) => { setIccid(v.replace(/\D/g, '').slice(0, 20)); items.search({}); }} />}
        rowKey="seq"
        exportSource={batch.getBatchItemPage}
        emptyHint={D('emptyHint')}
        columns={[
          { title: C('seq'), dataIndex: 'seq', width: 70, align: 'right' },
          { title: C('iccid'), dataIndex: 'iccid', width: 210, render: (v: string) => (/^\d{19,20}$/.test(v) ? <Link to={`/card/card-list/detail/${v}`}>{v}</Link> : v) },
          { title: C('verdict'), dataIndex: 'verdict', width: 130, render: (v: number) => <StatusTag enumOf={BatchVerdict} value={v} colors={VERDICT_COLORS} /> },
          { title: C('reason'), dataIndex: 'reason', width: 260, render: (v: string | null) => v ?? '-' },
          { title: C('result'), dataIndex: 'status', width: 100, render: (v: number) => <StatusTag enumOf={BatchItemStatus} value={v} colors={ITEM_COLORS} /> },
          { title: C('error'), dataIndex: 'error', width: 300, render: (v: string | null) => v ?? '-' },
          { title: withZoneLabel(C('doneAt')), dataIndex: 'doneAt', width: 170, render: (v: string | null) => (v ? formatDateTime(v) : '-') },
        ]}
      />
    </DetailPage>
  );
}
