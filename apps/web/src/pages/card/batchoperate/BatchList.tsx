import { useState } from 'react';
import { Button, Dropdown, Progress, Space, Tooltip, Typography } from 'antd';
import { DownloadOutlined, PlusOutlined, SyncOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import type { Dayjs } from 'dayjs';
import { batch, formatDateTime, type ResponseOf, formatCount, withZoneLabel } from '@lynx/contract';
import { SearchTable, type SearchField } from '../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../components/useSearchTable.ts';
import { StatusTag } from '../../../components/StatusTag.tsx';
import { useSession } from '../../../stores/session.ts';
import { NewBatchModal, downloadTemplate } from './NewBatchModal.tsx';
import { stockBatchPath } from '../../stock/operationList/shared.tsx';
import { detailPath, operationText, SCOPES, STATE_COLORS, typesFor, type BatchScope, type BatchSummary } from './scope.ts';

const { BatchType, BatchState, BatchSource } = batch;
type Page = ResponseOf<typeof batch.getBatchPage>;
const POLL_MS = 2000;
const running = (page: Page | null | undefined) => !!page?.list.some((b) => b.state === BatchState.Running);

/** Search form values → filters: the created range as days. */
export function batchFilters(v: Record<string, any>): Record<string, unknown> {
  const { created, type, ...rest } = v as { created?: [Dayjs, Dayjs] | null; type?: number } & Record<string, unknown>;
  return {
    ...rest,
    ...(type ? { types: [type] } : {}),
    ...(created?.[0] ? { createdFrom: created[0].format('YYYY-MM-DD'), createdTo: created[1].format('YYYY-MM-DD') } : {}),
  };
}

/** Progress of a confirmed batch: processed of the valid cards, failures in red. */
export function BatchProgress({ b }: { b: BatchSummary }) {
  const { t } = useTranslation();
  if (b.state === BatchState.Validated || b.state === BatchState.Cancelled) return <Typography.Text type="secondary">-</Typography.Text>;
  const pct = b.validCount ? Math.floor((b.processedCount / b.validCount) * 100) : 100;
  return (
    <Tooltip title={`${t('batch.col.succeeded')} ${b.succeededCount} · ${t('batch.col.failed')} ${b.failedCount}`}>
      <div style={{ minWidth: 150 }}>
        <Progress percent={pct} size="small" status={b.state === BatchState.Running ? 'active' : b.failedCount ? 'exception' : 'success'}
          success={{ percent: b.validCount ? Math.floor((b.succeededCount / b.validCount) * 100) : 0 }} />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('batch.progressText', { processed: b.processedCount, total: b.validCount })}
          {b.failedCount > 0 && <Typography.Text type="danger" style={{ fontSize: 12 }}> · {t('batch.col.failed')} {b.failedCount}</Typography.Text>}
        </Typography.Text>
      </div>
    </Tooltip>
  );
}

/** The list of one batch screen, with the new-batch flow (pool changes: optionally the batches of one pool). */
export function BatchList({ scope, poolId }: { scope: BatchScope; poolId?: number }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const permissions = useSession((s) => s.permissions);
  const has = (p: number) => permissions.has(p);
  const types = typesFor(scope, has);
  const routeType = Number(useParams().type);
  const initialType = types.includes(routeType) ? routeType : undefined;
  const isPool = scope === 'pool';
  // pool changes: the type filter narrows the pool types (defaults); the other screens fix their types
  const fixed = scope === 'card' ? (initialType ? { types: [initialType] } : undefined) : isPool ? (poolId ? { poolId } : undefined) : { types: SCOPES[scope].types as number[] };
  // the card batch screen without a type chosen: its own types (pool changes are listed under Card › Pools)
  const defaults = isPool ? { types: SCOPES.pool.types as number[] } : scope === 'card' ? { types: SCOPES.card.types as number[] } : undefined;
  const table = useSearchTable(batch.getBatchPage, { transform: batchFilters, fixed, defaults, refetchInterval: (p) => (running(p) ? POLL_MS : false) });
  const [open, setOpen] = useState(false);
  const B = (k: string, o?: Record<string, unknown>) => t(`batch.${k}`, o);
  const C = (k: string) => t(`batch.col.${k}`);
  // a stock batch opens on the stock operations screen, its primary place
  const open_ = (b: BatchSummary) => navigate(stockBatchPath(b) ?? detailPath(scope, b.batchId, b.state === BatchState.Validated ? 'invalid' : 'all'));

  const fields: SearchField[] = [
    ...((scope === 'card' && !initialType) || isPool ? [{ name: 'type', label: t('batch.filter.type'), type: 'select' as const, options: SCOPES[scope].types.map((v) => ({ value: v, label: BatchType.label(v, lang) })) }] : []),
    { name: 'state', label: t('batch.filter.state'), type: 'enum', enumOf: BatchState },
    { name: 'source', label: t('batch.filter.source'), type: 'enum', enumOf: BatchSource },
    { name: 'createdBy', label: t('batch.filter.createdBy') },
    { name: 'created', label: t('batch.filter.created'), type: 'dateRange' },
  ];

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 12px' }}>{B(`intro.${scope}`, { max: formatCount(SCOPES[scope].max) })}</Typography.Paragraph>
      <SearchTable<BatchSummary>
        table={table}
        title={
          <Space size={12}>
            {B(`title.${scope}`)}
            {table.list.some((b) => (b as BatchSummary).state === BatchState.Running) ? (
              <Typography.Text type="secondary" style={{ fontSize: 12, fontWeight: 'normal' }}><SyncOutlined spin /> {B('autoRefresh')}</Typography.Text>
            ) : null}
          </Space>
        }
        rowKey="batchId"
        emptyHint={B('emptyHint')}
        fields={fields}
        toolbar={
          <>
            <Dropdown menu={{ items: [{ key: 'xlsx', label: B('templateXlsx') }, { key: 'csv', label: B('templateCsv') }], onClick: ({ key }) => downloadTemplate(key as 'xlsx' | 'csv', lang) }}>
              <Button icon={<DownloadOutlined />}>{B('template')}</Button>
            </Dropdown>
            {types.length > 0 && <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)} data-testid="batch-new">{B('newBatch')}</Button>}
          </>
        }
        columns={[
          ...(isPool ? [
            {
              title: C('batchId'), dataIndex: 'batchId', width: 120, ellipsis: { showTitle: false },
              render: (v: string, b: BatchSummary) => <Tooltip title={v}><Typography.Link onClick={() => open_(b)}>{v}</Typography.Link></Tooltip>,
            },
            {
              title: C('pool'), key: 'pool', width: 160, ellipsis: true,
              render: (_: unknown, b: BatchSummary) => (b.params.poolId ? <Link to={`/card/pool/detail/${b.params.poolId}`}>{b.params.poolName ?? b.params.poolId}</Link> : '-'),
            },
          ] : []),
          ...(scope === 'card' || isPool ? [{ title: C('type'), dataIndex: 'type', width: 120, render: (v: number) => <span style={{ whiteSpace: 'nowrap' }}>{BatchType.label(v, lang)}</span> }] : []),
          // a pool change's operation is its pool and type (shown above)
          ...(isPool ? [] : [{
            title: C('operation'), key: 'operation', width: 200, ellipsis: true,
            render: (_: unknown, b: BatchSummary) => <Typography.Link onClick={() => open_(b)}>{operationText(b, t)}</Typography.Link>,
          }]),
          { title: C('state'), dataIndex: 'state', width: 100, render: (v: number) => <StatusTag enumOf={BatchState} value={v} colors={STATE_COLORS} /> },
          { title: C('progress'), key: 'progress', width: 170, render: (_: unknown, b) => <BatchProgress b={b} /> },
          {
            title: C('counts'), key: 'counts', width: isPool ? 260 : 190,
            render: (_: unknown, b) => (
              <Space size={4} wrap style={{ fontSize: 12 }}>
                <span>{C('total')} {b.totalCount}</span>
                <Typography.Text type="success" style={{ fontSize: 12 }}>{C('valid')} {b.validCount}</Typography.Text>
                <Typography.Text type={b.invalidCount ? 'danger' : 'secondary'} style={{ fontSize: 12 }}>{C('invalid')} {b.invalidCount}</Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>{C('already')} {b.alreadyCount}</Typography.Text>
                {isPool && b.state !== BatchState.Validated && b.state !== BatchState.Cancelled && (
                  <>
                    <Typography.Text type="success" style={{ fontSize: 12 }}>{C('succeeded')} {b.succeededCount}</Typography.Text>
                    <Typography.Text type={b.failedCount ? 'danger' : 'secondary'} style={{ fontSize: 12 }}>{C('failed')} {b.failedCount}</Typography.Text>
                  </>
                )}
              </Space>
            ),
          },
          {
            title: C('source'), dataIndex: 'source', width: 140, ellipsis: true,
            render: (v: number, b) => (b.fileName ? <Tooltip title={b.fileName}>{BatchSource.label(v, lang)}: {b.fileName}</Tooltip> : BatchSource.label(v, lang)),
          },
          { title: C('createdBy'), dataIndex: 'createdBy', width: 110, ellipsis: true },
          { title: withZoneLabel(C('createdAt')), dataIndex: 'createdAt', width: 165, render: (v: string) => formatDateTime(v) },
          {
            title: t('common.actions'), key: 'actions', fixed: 'right', width: isPool ? 150 : 80,
            render: (_: unknown, b) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => open_(b)}>{t('common.detail')}</Button>
                {isPool && b.failedCount + b.invalidCount > 0 && (
                  <Button type="link" size="small" danger onClick={() => navigate(detailPath(scope, b.batchId, b.failedCount ? 'failed' : 'invalid'))} data-testid={`batch-failures-${b.batchId}`}>{C('failures')}</Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      <NewBatchModal
        open={open} onClose={() => setOpen(false)} scope={scope} types={types} initialType={initialType}
        presets={isPool && poolId ? { poolId } : undefined}
        onConfirmed={(b) => { setOpen(false); navigate(detailPath(scope, b.batchId)); }}
      />
    </>
  );
}
