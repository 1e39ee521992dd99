import { useState } from 'react';
import { LiveText } from '../../../../request/LiveText.tsx';
import { App, Button, Space, Tooltip } from 'antd';
import { InfoCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NoticeState, Perm, SendMode, notice, formatDateTime, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { NoticeModal, type NoticeRecord } from './NoticeModal.tsx';

const STATE_COLORS = { [NoticeState.Pending]: 'blue', [NoticeState.Active]: 'green', [NoticeState.Ended]: 'default' };

/** /shortcuts/notification/list: announcements; the current one scrolls in every user's header. */
export default function NotificationList() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const table = useSearchTable(notice.getNotificationListPage);
  const canManage = usePerm(Perm.Notification);
  const [editing, setEditing] = useState<{ open: boolean; record: NoticeRecord | null }>({ open: false, record: null });

  const changed = () => {
    void table.refresh();
    void qc.invalidateQueries({ queryKey: [notice.getNewestNotification.name] });
  };

  const remove = (r: NoticeRecord) =>
    modal.confirm({
      title: t('notice.deleteTitle'),
      content: r.state === NoticeState.Active ? `${t('notice.deleteActive')} ${t('common.confirmDelete')}` : t('common.confirmDelete'),
      okText: t('common.delete'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await call(notice.deleteNotification, { id: r.id });
          message.success(<LiveText k="common.operationSuccess" />);
          changed();
        } catch {
          /* shown by the request layer */
        }
      },
    });

  return (
    <>
      <SearchTable<NoticeRecord>
        table={table}
        title={
          <Space size={6}>
            {t('notice.title')}
            <Tooltip title={t('notice.bannerHint')}><InfoCircleOutlined style={{ color: '#8c8c8c', fontSize: 14 }} /></Tooltip>
          </Space>
        }
        rowKey="id"
        scrollX={1160}
        emptyHint={t('notice.emptyHint')}
        toolbar={
          <PermButton perm={Perm.Notification} type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ open: true, record: null })} data-testid="notice-add">
            {t('notice.add')}
          </PermButton>
        }
        fields={[
          { name: 'keyword', label: t('notice.keyword'), placeholder: t('notice.keywordPlaceholder') },
          { name: 'state', label: t('notice.state'), type: 'enum', enumOf: NoticeState },
        ]}
        columns={[
          { title: t('notice.content'), dataIndex: 'content', width: 200, ellipsis: true },
          { title: t('notice.englishContent'), dataIndex: 'englishContent', width: 200, ellipsis: true },
          { title: t('notice.sendMode'), dataIndex: 'sendMode', width: 110, render: (v: number) => <StatusTag enumOf={SendMode} value={v} /> },
          { title: withZoneLabel(t('notice.sendTime')), dataIndex: 'sendTime', width: 165, render: (v: string) => formatDateTime(v) },
          { title: withZoneLabel(t('notice.endDate')), dataIndex: 'endDate', width: 165, render: (v: string) => formatDateTime(v) },
          { title: t('notice.state'), dataIndex: 'state', width: 100, render: (v: number) => <StatusTag enumOf={NoticeState} value={v} colors={STATE_COLORS} /> },
          { title: t('notice.createdBy'), dataIndex: 'createdBy', width: 100 },
          {
            title: t('common.actions'), key: 'actions', fixed: 'right', width: 120,
            render: (_: unknown, r) =>
              canManage && (
                <Space size={0}>
                  <Button type="link" size="small" onClick={() => setEditing({ open: true, record: r })}>{t('common.edit')}</Button>
                  <Button type="link" size="small" danger onClick={() => remove(r)}>{t('common.delete')}</Button>
                </Space>
              ),
          },
        ]}
      />
      <NoticeModal open={editing.open} record={editing.record} onClose={() => setEditing((e) => ({ ...e, open: false }))} onSaved={changed} />
    </>
  );
}
