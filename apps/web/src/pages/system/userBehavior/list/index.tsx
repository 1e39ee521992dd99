import { useTranslation } from 'react-i18next';
import { BehaviorAction, system, formatDateTime, withZoneLabel } from '@lynx/contract';
import { SearchTable, dateRange } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';

/** /system/userBehavior/list: login, logout, accounts, freeze, thaw, reset, roles (spec §6). */
export default function UserBehaviorList() {
  const { t } = useTranslation();
  const table = useSearchTable(system.getBehaviorLogListPage, { transform: (v) => dateRange(v) });
  return (
    <SearchTable
      table={table}
      title={t('system.behavior.title')}
      exportSource={system.getBehaviorLogListPage}
      rowKey="id"
      fields={[
        { name: 'loginName', label: t('system.behavior.loginName') },
        { name: 'action', label: t('system.behavior.action'), type: 'enum', enumOf: BehaviorAction },
        { name: 'range', label: t('system.behavior.range'), type: 'dateRange' },
      ]}
      columns={[
        { title: withZoneLabel(t('system.behavior.time')), dataIndex: 'createdAt', sorter: true, width: 180, render: (v: string) => formatDateTime(v) },
        { title: t('system.behavior.loginName'), dataIndex: 'loginName', sorter: true },
        { title: t('system.behavior.action'), dataIndex: 'action', render: (v: number) => <StatusTag enumOf={BehaviorAction} value={v} /> },
        { title: t('system.behavior.target'), dataIndex: 'target', render: (v) => v ?? '-' },
        { title: t('system.behavior.detail'), dataIndex: 'detail', ellipsis: true, render: (v) => v ?? '-' },
        { title: t('system.behavior.ip'), dataIndex: 'ip', render: (v) => v ?? '-' },
      ]}
    />
  );
}
