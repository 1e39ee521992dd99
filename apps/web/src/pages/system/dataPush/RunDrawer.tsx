import { useEffect, useState } from 'react';
import { Alert, Button, Drawer, Table, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { datapush, formatCount, formatDateTime, withZoneLabel } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { StatusTag } from '../../../components/StatusTag.tsx';
import { DataPushRunState, DataPushTrigger, RUN_STATE_COLORS, type RunRow, type TaskRow } from './shared.tsx';

/** A task's pushes, newest first: time, file name, size in bytes, rows, outcome and why it failed; refreshed while one is under way. */
export function RunDrawer({ task, onClose }: { task: TaskRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState({ current: 1, pageSize: 20 });
  useEffect(() => setPage((p) => ({ ...p, current: 1 })), [task?.taskId]);
  const runs = useQuery({
    queryKey: ['datapush-runs', task?.taskId, page.current, page.pageSize],
    queryFn: () => call(datapush.getDataPushRunPage, { taskId: task!.taskId, ...page }),
    enabled: task !== null,
    refetchInterval: (q) => (q.state.data?.list.some((r) => r.state === DataPushRunState.Waiting || r.state === DataPushRunState.Running) ? 2000 : false),
  });
  const R = (k: string) => t(`datapush.runs.${k}`);
  return (
    <Drawer open={task !== null} onClose={onClose} size={1000} destroyOnHidden
      title={task ? t('datapush.runs.title', { name: task.taskName }) : ''}
      extra={<Button icon={<ReloadOutlined />} onClick={() => void runs.refetch()} aria-label={t('common.refresh')} />}>
      {runs.isError && <Alert type="error" showIcon title={(runs.error as Error).message} style={{ marginBottom: 12 }} />}
      <div data-testid="data-push-runs">
        <Table<RunRow> rowKey="runId" size="small" loading={runs.isFetching && !runs.data} dataSource={runs.data?.list ?? []} scroll={{ x: 960 }}
          locale={{ emptyText: <Typography.Text type="secondary">{R('empty')}</Typography.Text> }}
          pagination={{ current: page.current, pageSize: page.pageSize, total: runs.data?.total ?? 0, onChange: (current, pageSize) => setPage({ current, pageSize }) }}
          columns={[
            { title: withZoneLabel(R('time')), dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
            { title: R('trigger'), dataIndex: 'trigger', width: 90, render: (v: number) => <StatusTag enumOf={DataPushTrigger} value={v} /> },
            { title: R('day'), dataIndex: 'runDay', width: 110, render: (v: string | null) => v ?? '-' },
            { title: R('state'), dataIndex: 'state', width: 100, render: (v: number) => <StatusTag enumOf={DataPushRunState} value={v} colors={RUN_STATE_COLORS} /> },
            { title: R('file'), dataIndex: 'fileName', width: 260, ellipsis: true, render: (v: string | null) => v ?? '-' },
            { title: R('size'), dataIndex: 'sizeBytes', width: 120, align: 'right', render: (v: number | null) => (v == null ? '-' : formatCount(v)) },
            { title: R('rows'), dataIndex: 'rowCount', width: 90, align: 'right', render: (v: number | null) => (v == null ? '-' : formatCount(v)) },
            { title: R('attempts'), dataIndex: 'attempts', width: 80, align: 'right' },
            { title: R('error'), dataIndex: 'error', width: 280, render: (v: string | null) => (v ? <Typography.Text type="danger">{v}</Typography.Text> : '-') },
            { title: R('by'), dataIndex: 'requestedBy', width: 110, render: (v: string | null) => v ?? '-' },
          ]} />
      </div>
    </Drawer>
  );
}
