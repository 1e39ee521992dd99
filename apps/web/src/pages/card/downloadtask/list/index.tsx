import { useState } from 'react';
import { Button, Space, Tag, Tooltip, Typography } from 'antd';
import { CheckCircleOutlined, CloseCircleOutlined, DownloadOutlined, SyncOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { ExportFormat, ExportState, pathOf, system, formatDateTime, formatSize, type ResponseOf, formatCount } from '@lynx/contract';
import { downloadFile } from '../../../../request/http.ts';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';

type TaskPage = ResponseOf<typeof system.getDownloadTaskListPage>;
type TaskRow = TaskPage['list'][number];

const POLL_MS = 2000;
const inProcess = (page: TaskPage | null | undefined) => !!page?.list.some((r) => r.state === ExportState.InProcess);
const refetchInterval = (page: TaskPage | undefined) => (inProcess(page) ? POLL_MS : false);

/**
 * /card/downloadtask/list: the signed-in user's export tasks, refreshed every 2 s while one is in process; each
 * with its title and its filters in words in the user's language, and whether its file was downloaded.
 */
export default function DownloadTaskList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const qc = useQueryClient();
  const table = useSearchTable(system.getDownloadTaskListPage, { refetchInterval });
  const [downloading, setDownloading] = useState<string | null>(null);
  const polling = inProcess(table.query.data);

  const download = async (r: TaskRow) => {
    setDownloading(r.taskId);
    try {
      await downloadFile(pathOf(system.downloadExportFile), { taskId: r.taskId });
      // downloaded: the header badge counts one file less
      void qc.invalidateQueries({ queryKey: [system.getDownloadBadge.name] });
      void table.refresh();
    } catch {
      /* shown by the request layer */
    } finally {
      setDownloading(null);
    }
  };

  const stateTag = (r: TaskRow) => {
    const label = ExportState.label(r.state, lang);
    if (r.state === ExportState.InProcess) return <Tag color="processing" icon={<SyncOutlined spin />}>{label}</Tag>;
    if (r.state === ExportState.Succeeded) return <Tag color="success" icon={<CheckCircleOutlined />}>{label}</Tag>;
    if (r.state === ExportState.Failed) {
      const reason = r.error === 'permission' ? t('download.errorPermission') : r.error || t('download.errorUnknown');
      return (
        <Tooltip title={t('download.failedReason', { error: reason })}>
          <Tag color="error" icon={<CloseCircleOutlined />} style={{ cursor: 'help' }}>{label}</Tag>
        </Tooltip>
      );
    }
    return <StatusTag enumOf={ExportState} value={r.state} />;
  };

  return (
    <SearchTable<TaskRow>
      table={table}
      title={
        <Space size={12}>
          {t('download.title')}
          {polling && (
            <Typography.Text type="secondary" style={{ fontSize: 12, fontWeight: 'normal' }} data-testid="download-polling">
              <SyncOutlined spin /> {t('download.autoRefresh')}
            </Typography.Text>
          )}
        </Space>
      }
      rowKey="taskId"
      scrollX={1120}
      emptyHint={t('download.emptyHint')}
      fields={[{ name: 'state', label: t('download.state'), type: 'enum', enumOf: ExportState }]}
      columns={[
        {
          // the task, and under it when it was created (when it finished: on hover)
          title: t('download.taskName'), dataIndex: 'taskName', width: 200,
          render: (v: string, r) => (
            <div style={{ minWidth: 0 }}>
              <Space size={4} style={{ maxWidth: '100%' }}>
                <Typography.Text ellipsis style={{ maxWidth: 130 }}>{v}</Typography.Text>
                {r.direct && <Tooltip title={t('download.directHint')}><Tag bordered={false} style={{ marginInlineEnd: 0 }}>{t('download.direct')}</Tag></Tooltip>}
              </Space>
              <Tooltip title={r.finishedAt ? t('download.finishedAtHint', { time: formatDateTime(r.finishedAt) }) : undefined}>
                <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12, whiteSpace: 'nowrap' }}>{formatDateTime(r.createdAt)}</Typography.Text>
              </Tooltip>
            </div>
          ),
        },
        {
          title: t('download.filters'), dataIndex: 'filtersText', ellipsis: { showTitle: false },
          render: (v: string) => (v
            ? <Tooltip title={v} placement="topLeft"><span data-testid="download-filters">{v}</span></Tooltip>
            : <Typography.Text type="secondary">{t('download.noFilters')}</Typography.Text>),
        },
        { title: t('download.format'), dataIndex: 'format', width: 155, render: (v: number) => <StatusTag enumOf={ExportFormat} value={v} /> },
        { title: t('download.state'), dataIndex: 'state', width: 110, render: (_: number, r) => stateTag(r) },
        {
          title: t('download.contents'), dataIndex: 'rowCount', width: 150, align: 'right',
          render: (v: number | null, r) => (v == null ? '-'
            : <span style={{ whiteSpace: 'nowrap' }}>{t('download.rowsAndSize', { rows: formatCount(v), size: formatSize(r.fileSize) })}</span>),
        },
        {
          title: t('download.downloadedAt'), dataIndex: 'downloadedAt', width: 170,
          render: (v: string | null, r) => (v ? <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(v)}</span>
            : r.state === ExportState.Succeeded ? <Tag color="blue">{t('download.notDownloaded')}</Tag> : '-'),
        },
        {
          title: t('common.actions'), key: 'actions', fixed: 'right', width: 110,
          render: (_: unknown, r) =>
            r.state === ExportState.Succeeded ? (
              <Button type="link" size="small" icon={<DownloadOutlined />} loading={downloading === r.taskId} onClick={() => void download(r)}>
                {t('download.download')}
              </Button>
            ) : (
              '-'
            ),
        },
      ]}
    />
  );
}
