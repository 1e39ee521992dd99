import { useState } from 'react';
import { Button, Space, Tag, Tooltip, Typography } from 'antd';
import { CheckCircleOutlined, CloseCircleOutlined, DownloadOutlined, SyncOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ExportFormat, ExportState, endpoints, pathOf, system, formatDateTime, formatSize, type ResponseOf } from '@lynx/contract';
import { downloadFile } from '../../../../request/http.ts';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';

type TaskPage = ResponseOf<typeof system.getDownloadTaskListPage>;
type TaskRow = TaskPage['list'][number];

const POLL_MS = 2000;
const summaries = new Map(endpoints.map((e) => [e.name, e.summary]));
const inProcess = (page: TaskPage | null | undefined) => !!page?.list.some((r) => r.state === ExportState.InProcess);
const refetchInterval = (page: TaskPage | undefined) => (inProcess(page) ? POLL_MS : false);

/** /card/downloadtask/list: the signed-in user's export tasks, refreshed every 2 s while one is in process. */
export default function DownloadTaskList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const table = useSearchTable(system.getDownloadTaskListPage, { refetchInterval });
  const [downloading, setDownloading] = useState<string | null>(null);
  const polling = inProcess(table.query.data);

  const download = async (r: TaskRow) => {
    setDownloading(r.taskId);
    try {
      await downloadFile(pathOf(system.downloadExportFile), { taskId: r.taskId });
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
      scrollX={1140}
      emptyHint={t('download.emptyHint')}
      fields={[{ name: 'state', label: t('download.state'), type: 'enum', enumOf: ExportState }]}
      columns={[
        { title: t('download.taskName'), dataIndex: 'taskName', width: 140, ellipsis: true },
        { title: t('download.source'), dataIndex: 'source', width: 150, ellipsis: true, render: (v: string) => summaries.get(v)?.[lang] ?? v },
        { title: t('download.format'), dataIndex: 'format', width: 100, render: (v: number) => <StatusTag enumOf={ExportFormat} value={v} /> },
        { title: t('download.state'), dataIndex: 'state', width: 110, render: (_: number, r) => stateTag(r) },
        { title: t('download.rowCount'), dataIndex: 'rowCount', width: 80, align: 'right', render: (v: number | null) => (v == null ? '-' : v.toLocaleString()) },
        { title: t('download.fileSize'), dataIndex: 'fileSize', width: 100, align: 'right', render: (v: number | null) => formatSize(v) },
        { title: t('download.createdAt'), dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
        { title: t('download.finishedAt'), dataIndex: 'finishedAt', width: 170, render: (v: string | null) => (v ? formatDateTime(v) : '-') },
        {
          title: t('common.actions'), key: 'actions', fixed: 'right', width: 120,
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
