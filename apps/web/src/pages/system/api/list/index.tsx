import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { system, formatDateTime, type ResponseOf, formatCount, withZoneLabel } from '@lynx/contract';
import { SearchTable, dateRange } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';

type ApiLogRow = ResponseOf<typeof system.getApiLogListPage>['list'][number];

/** 2xx green, 3xx blue, 4xx orange, 5xx red. */
const statusColor = (status: number) => (status >= 500 ? 'red' : status >= 400 ? 'orange' : status >= 300 ? 'blue' : 'green');

const transform = (v: Record<string, any>) => dateRange(v);

/** /system/api/list: every API call with its caller, status and duration (tenant-scoped by the server). */
export default function ApiLogList() {
  const { t } = useTranslation();
  const table = useSearchTable(system.getApiLogListPage, { transform });
  return (
    <SearchTable<ApiLogRow>
      table={table}
      title={t('system.api.title')}
      exportSource={system.getApiLogListPage}
      rowKey="id"
      scrollX={1105}
      emptyHint={t('system.api.emptyHint')}
      fields={[
        { name: 'loginName', label: t('system.api.loginName') },
        { name: 'path', label: t('system.api.path'), placeholder: t('system.api.pathPlaceholder') },
        { name: 'status', label: t('system.api.status'), type: 'number' },
        { name: 'range', label: t('system.api.range'), type: 'dateRange' },
      ]}
      columns={[
        { title: withZoneLabel(t('system.api.time')), dataIndex: 'createdAt', sorter: true, width: 170, render: (v: string) => formatDateTime(v) },
        { title: t('system.api.loginName'), dataIndex: 'loginName', width: 120, render: (v: string | null) => v ?? '-' },
        { title: t('system.api.method'), dataIndex: 'method', width: 80, render: (v: string) => <Tag color={v === 'GET' ? 'cyan' : 'geekblue'}>{v}</Tag> },
        {
          title: t('system.api.path'), dataIndex: 'path', width: 340, ellipsis: { showTitle: false },
          render: (v: string) => (
            // the full path in a title: the browser shows it on hover, and the screens check sees the ellipsis is meant
            <Typography.Text title={v} style={{ fontFamily: 'monospace', fontSize: 12 }}>{v}</Typography.Text>
          ),
        },
        { title: t('system.api.status'), dataIndex: 'status', sorter: true, width: 100, render: (v: number) => <Tag color={statusColor(v)}>{v}</Tag> },
        { title: t('system.api.errorCode'), dataIndex: 'errorCode', width: 100, render: (v: number | null) => (v == null ? '-' : <Typography.Text type="danger">{v}</Typography.Text>) },
        { title: t('system.api.duration'), dataIndex: 'durationMs', sorter: true, width: 115, align: 'right', render: (v: number) => (v < 10 ? v.toFixed(1) : formatCount(Math.round(v))) },
        { title: t('system.api.ip'), dataIndex: 'ip', width: 130, render: (v: string | null) => v ?? '-' },
      ]}
    />
  );
}
