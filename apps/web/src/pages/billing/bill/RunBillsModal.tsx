import { useEffect, useState } from 'react';
import { Alert, App, Button, Empty, Modal, Progress, Radio, Skeleton, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { PlayCircleOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { BillRunState, bill, formatCount, formatDateTime, withZoneLabel } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { StatusTag } from '../../../components/StatusTag.tsx';
import type { BillPeriod, BillRun } from './shared.tsx';

const RUN_COLORS: Record<number, string> = { [BillRunState.Running]: 'processing', [BillRunState.Done]: 'success', [BillRunState.Failed]: 'error' };
const RUNS_PAGE = 10;

/** A run's progress: cards rated of the cards to rate (known when it starts). */
export function RunProgress({ r }: { r: BillRun }) {
  const pct = r.cardsTotal > 0 ? Math.min(100, Math.floor((r.cardsDone / r.cardsTotal) * 100)) : r.state === BillRunState.Done ? 100 : 0;
  const status = r.state === BillRunState.Failed ? 'exception' : r.state === BillRunState.Done ? 'success' : 'active';
  return (
    <div style={{ minWidth: 160 }}>
      <Progress percent={pct} size="small" status={status} />
      <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>{formatCount(r.cardsDone)} / {formatCount(r.cardsTotal)}</Typography.Text>
    </div>
  );
}

/** The bill runs, newest first, polled while one runs. */
export function BillRunsTable({ open, onRunFinished }: { open: boolean; onRunFinished?: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const R = (k: string) => t(`bill.run.${k}`);
  const q = useQuery({
    queryKey: [bill.getBillRuns.name, page],
    queryFn: ({ signal }) => call(bill.getBillRuns, { current: page, pageSize: RUNS_PAGE }, { signal }),
    enabled: open,
    refetchInterval: (query) => (query.state.data?.list.some((r) => r.state === BillRunState.Running) ? 1500 : false),
  });
  const running = q.data?.list.some((r) => r.state === BillRunState.Running) ?? false;
  const [wasRunning, setWasRunning] = useState(false);
  useEffect(() => {
    if (wasRunning && !running) onRunFinished?.();
    setWasRunning(running);
  }, [running]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <>
      {q.isError && <Alert type="error" showIcon title={(q.error as Error).message} style={{ marginBottom: 12 }} />}
      <Table<BillRun>
        size="small"
        rowKey="runId"
        loading={q.isFetching && !q.data}
        dataSource={q.data?.list ?? []}
        pagination={{ current: page, pageSize: RUNS_PAGE, total: q.data?.total ?? 0, onChange: setPage, hideOnSinglePage: true }}
        locale={{ emptyText: <Empty description={<>{t('common.empty')}<br /><Typography.Text type="secondary">{R('noRuns')}</Typography.Text></>} /> }}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: R('runId'), dataIndex: 'runId', width: 70 },
          { title: R('period'), dataIndex: 'periodKey', width: 90 },
          { title: R('scope'), key: 'scope', width: 160, render: (_: unknown, r) => r.custName ?? (r.custId ? r.custId : R('allCustomers')) },
          {
            title: R('state'), dataIndex: 'state', width: 110,
            render: (v: number, r) => (
              <span data-testid={`bill-run-state-${r.runId}`}>
                {r.error ? <Tooltip title={r.error}><span><StatusTag enumOf={BillRunState} value={v} colors={RUN_COLORS} /></span></Tooltip> : <StatusTag enumOf={BillRunState} value={v} colors={RUN_COLORS} />}
              </span>
            ),
          },
          { title: R('progress'), key: 'progress', width: 190, render: (_: unknown, r) => <RunProgress r={r} /> },
          { title: R('lines'), dataIndex: 'linesWritten', width: 100, align: 'right', render: (v: number) => formatCount(v) },
          { title: R('startedBy'), dataIndex: 'startedBy', width: 110 },
          { title: withZoneLabel(R('startedAt')), dataIndex: 'startedAt', width: 170, render: (v: string) => formatDateTime(v) },
          { title: withZoneLabel(R('finishedAt')), dataIndex: 'finishedAt', width: 170, render: (v: string | null) => (v ? formatDateTime(v) : '-') },
        ]}
      />
    </>
  );
}

/**
 * Staff with the run code: pick a period the server says is ready (a period not ready shows why), start its run, and
 * watch the runs' progress. Published bills are never changed by a run.
 */
export function RunBillsModal({ open, onClose, onRunFinished }: { open: boolean; onClose: () => void; onRunFinished: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const [picked, setPicked] = useState<string | undefined>();
  const [starting, setStarting] = useState(false);
  const R = (k: string, o?: Record<string, unknown>) => t(`bill.run.${k}`, o);
  const periods = useQuery({
    queryKey: [bill.getBillPeriods.name],
    queryFn: ({ signal }) => call(bill.getBillPeriods, {}, { signal }),
    enabled: open,
    staleTime: 0,
  });
  useEffect(() => {
    if (!open || !periods.data) return;
    if (!picked || !periods.data.some((p) => p.periodKey === picked && p.ready)) setPicked(periods.data.find((p) => p.ready)?.periodKey);
  }, [open, periods.data]); // eslint-disable-line react-hooks/exhaustive-deps
  const chosen = periods.data?.find((p) => p.periodKey === picked);

  const start = () => {
    if (!chosen) return;
    modal.confirm({
      title: R('confirmTitle', { period: chosen.periodKey }),
      content: chosen.bills > 0 ? R('confirmAgain', { period: chosen.periodKey, bills: chosen.bills, published: chosen.published }) : R('confirm', { period: chosen.periodKey }),
      okText: R('start'),
      cancelText: t('common.cancel'),
      okButtonProps: { 'data-testid': 'bill-run-confirm' } as Record<string, string>,
      onOk: async () => {
        setStarting(true);
        try {
          const run = await call(bill.runBills, { periodKey: chosen.periodKey });
          message.success(R('started', { id: run.runId, period: run.periodKey }));
          void qc.invalidateQueries({ queryKey: [bill.getBillRuns.name] });
        } finally {
          setStarting(false);
          void periods.refetch();
        }
      },
    });
  };

  return (
    <Modal open={open} title={R('title')} onCancel={onClose} footer={<Button onClick={onClose}>{t('common.close')}</Button>} width={1000} destroyOnHidden>
      <Typography.Paragraph type="secondary">{R('intro')}</Typography.Paragraph>
      {periods.isLoading && <Skeleton active paragraph={{ rows: 2 }} />}
      {periods.isError && <Alert type="error" showIcon title={(periods.error as Error).message} style={{ marginBottom: 12 }} />}
      {periods.data && !periods.data.length && <Alert type="info" showIcon title={R('noPeriods')} style={{ marginBottom: 12 }} />}
      {periods.data && periods.data.length > 0 && (
        <Radio.Group value={picked} onChange={(e) => setPicked(e.target.value as string)} style={{ width: '100%', marginBottom: 12 }} data-testid="bill-run-periods">
          <Space orientation="vertical" style={{ width: '100%' }}>
            {periods.data.map((p: BillPeriod) => (
              <Radio key={p.periodKey} value={p.periodKey} disabled={!p.ready} data-testid={`bill-run-period-${p.periodKey}`}>
                <Space size={8} wrap>
                  <Typography.Text strong>{p.periodKey}</Typography.Text>
                  {p.ready ? <Tag color="green">{R('ready')}</Tag> : <Tag>{R('notReady')}</Tag>}
                  {p.bills > 0 && <Typography.Text type="secondary">{R('billsOf', { bills: p.bills, published: p.published })}</Typography.Text>}
                  {!p.ready && p.reason && <Typography.Text type="secondary" data-testid={`bill-run-reason-${p.periodKey}`}>{p.reason}</Typography.Text>}
                </Space>
              </Radio>
            ))}
          </Space>
        </Radio.Group>
      )}
      <div style={{ marginBottom: 16 }}>
        <Button type="primary" icon={<PlayCircleOutlined />} disabled={!chosen?.ready} loading={starting} onClick={start} data-testid="bill-run-start">
          {chosen ? R('startPeriod', { period: chosen.periodKey }) : R('start')}
        </Button>
      </div>
      <Typography.Title level={5}>{R('runsTitle')}</Typography.Title>
      <BillRunsTable open={open} onRunFinished={() => { onRunFinished(); void periods.refetch(); }} />
    </Modal>
  );
}
