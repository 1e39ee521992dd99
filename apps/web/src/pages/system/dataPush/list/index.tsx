import { useState } from 'react';
import { Button, Space, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Perm, STAFF_ROLE_TYPES, datapush } from '@lynx/contract';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { PermButton } from '../../../../components/PermButton.tsx';
import { zoneLabel } from '../../../../components/businessTime.ts';
import { useSession } from '../../../../stores/session.ts';
import { CustomerSelect } from '../../../home/customer/CustomerSelect.tsx';
import { TaskFormModal } from '../TaskFormModal.tsx';
import { RunDrawer } from '../RunDrawer.tsx';
import { DataPushFileType, DataPushOpen, DataPushRunState, OpenSwitch, RUN_STATE_COLORS, useTaskActions, type TaskRow } from '../shared.tsx';

/**
 * /system/dataPush/list (14030000, spec §3 "File push task"): SFTP push tasks with add, edit, delete, on/off, test
 * connection (in the form), push now and each task's push history.
 */
export default function DataPushList() {
  const { t } = useTranslation();
  const staff = useSession((s) => s.roleId !== null && STAFF_ROLE_TYPES.includes(s.roleId));
  const table = useSearchTable(datapush.getDataPushListPage);
  const [editing, setEditing] = useState<{ task: TaskRow | null } | null>(null);
  const [history, setHistory] = useState<TaskRow | null>(null);
  const refresh = () => void table.refresh();
  const { toggle, remove, pushNow } = useTaskActions(refresh, (r) => setHistory(r));
  const F = (k: string) => t(`datapush.f.${k}`);
  const A = (k: string) => t(`datapush.action.${k}`);

  const fields: SearchField[] = [
    { name: 'taskName', label: F('name') },
    ...(staff ? [{ name: 'custId', label: F('customer'), type: 'custom' as const, control: <CustomerSelect allowClear placeholder={t('common.all')} /> }] : []),
    { name: 'fileType', label: F('fileType'), type: 'enum', enumOf: DataPushFileType },
    { name: 'open', label: F('open'), type: 'enum', enumOf: DataPushOpen },
    { name: 'host', label: F('host') },
  ];

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 12px' }}>{t('datapush.intro', { tz: zoneLabel() })}</Typography.Paragraph>
      <SearchTable<TaskRow>
        table={table}
        title={t('datapush.title')}
        rowKey="taskId"
        emptyHint={t('datapush.emptyHint')}
        fields={fields}
        toolbar={<PermButton perm={Perm.SystemDataPush} type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ task: null })} data-testid="data-push-add">{A('add')}</PermButton>}
        columns={[
          { title: F('name'), dataIndex: 'taskName', width: 180, ellipsis: true, fixed: 'left' },
          { title: F('customer'), dataIndex: 'custName', width: 180, ellipsis: true },
          { title: F('fileType'), dataIndex: 'fileType', width: 110, render: (v: number) => <StatusTag enumOf={DataPushFileType} value={v} /> },
          { title: F('host'), dataIndex: 'host', width: 180, ellipsis: true },
          { title: F('port'), dataIndex: 'port', width: 80 },
          { title: F('account'), dataIndex: 'account', width: 120, ellipsis: true },
          { title: F('path'), dataIndex: 'remotePath', width: 160, ellipsis: true },
          { title: `${F('pushTime')} (${zoneLabel()})`, dataIndex: 'pushTime', width: 150 },
          { title: F('open'), dataIndex: 'open', width: 100, render: (_: number, r) => <OpenSwitch task={r} onToggle={toggle} /> },
          {
            title: F('lastRun'), key: 'lastRun', width: 120,
            render: (_: unknown, r) => (r.lastRun ? <StatusTag enumOf={DataPushRunState} value={r.lastRun.state} colors={RUN_STATE_COLORS} /> : '-'),
          },
          { title: F('updatedBy'), dataIndex: 'updatedBy', width: 130, render: (v: string | null, r) => v ?? r.createdBy },
          {
            title: t('common.actions'), key: 'ops', fixed: 'right', width: 300,
            render: (_: unknown, r) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => pushNow(r)} data-testid={`data-push-now-${r.taskId}`}>{A('pushNow')}</Button>
                <Button type="link" size="small" onClick={() => setHistory(r)} data-testid={`data-push-runs-${r.taskId}`}>{A('runs')}</Button>
                <Button type="link" size="small" onClick={() => setEditing({ task: r })} data-testid={`data-push-edit-${r.taskId}`}>{A('edit')}</Button>
                <Button type="link" size="small" danger onClick={() => remove(r)} data-testid={`data-push-delete-${r.taskId}`}>{A('delete')}</Button>
              </Space>
            ),
          },
        ]}
      />
      <TaskFormModal open={editing !== null} task={editing?.task ?? null} staff={staff} onClose={() => setEditing(null)} onSaved={refresh} />
      <RunDrawer task={history} onClose={() => setHistory(null)} />
    </>
  );
}
