import { App, Button, Space, Typography } from 'antd';
import { LiveText } from '../../../../request/LiveText.tsx';
import { PlusOutlined, SettingOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { CommServStatus, CommServType, commserv, formatDateTime, nameIn, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import {
  BASE, DirectionalTag, PERM_ADD, PERM_CONFIG, PERM_DELETE, PERM_EDIT, QosCountTag, STATUS_COLORS, TYPE_COLORS, type CommServRow,
} from '../shared.tsx';

const YES = 1;
const NO = 0;
const toBool = (v: unknown) => (v === YES ? true : v === NO ? false : undefined);

/** /operator/commserv-list/list: communication services with filters, export, add, edit and delete. */
export default function CommServList() {
  const { t, i18n } = useTranslation();
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const table = useSearchTable(commserv.getCommServListPage, {
    transform: ({ directional, hasQos, ...rest }) => ({ ...rest, directional: toBool(directional), hasQos: toBool(hasQos) }),
  });
  const canEdit = usePerm(PERM_EDIT);
  const canDelete = usePerm(PERM_DELETE);
  const yesNo = [{ value: YES, label: t('common.yes') }, { value: NO, label: t('common.no') }];
  const f = (k: string) => t(`commserv.fields.${k}`);

  const remove = (r: CommServRow) =>
    modal.confirm({
      title: t('common.delete'),
      content: t('commserv.list.deleteConfirm', { name: r.commservName }),
      okText: t('common.delete'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await call(commserv.deleteCommServ, { commservId: r.commservId });
          message.success(<LiveText k="common.operationSuccess" />);
          void qc.invalidateQueries({ queryKey: [commserv.getCommServListPage.name] });
        } catch {
          /* shown by the request layer (e.g. used by a basic plan) */
        }
      },
    });

  return (
    <SearchTable<CommServRow>
      table={table}
      title={t('commserv.list.title')}
      rowKey="commservId"
      exportSource={commserv.getCommServListPage}
      emptyHint={t('commserv.list.emptyHint')}
      toolbar={
        <>
          <PermButton perm={PERM_CONFIG} icon={<SettingOutlined />} onClick={() => navigate(`${BASE}/config-manager/speedLimit`)}>
            {t('commserv.list.speedLimitManager')}
          </PermButton>
          <PermButton perm={PERM_CONFIG} icon={<SettingOutlined />} onClick={() => navigate(`${BASE}/config-manager/redirect`)}>
            {t('commserv.list.redirectManager')}
          </PermButton>
          <PermButton perm={PERM_ADD} type="primary" icon={<PlusOutlined />} onClick={() => navigate(`${BASE}/add`)} data-testid="commserv-add">
            {t('commserv.list.add')}
          </PermButton>
        </>
      }
      fields={[
        { name: 'commservName', label: f('commservName') },
        { name: 'commservType', label: f('commservType'), type: 'enum', enumOf: CommServType },
        { name: 'directional', label: f('directional'), type: 'select', options: yesNo },
        { name: 'hasQos', label: f('hasQos'), type: 'select', options: yesNo },
      ]}
      columns={[
        {
          title: f('commservName'), dataIndex: 'commservName', sorter: true, fixed: 'left',
          render: (v: string, r) => <Link to={`${BASE}/detail/${r.commservId}`}>{nameIn(i18n.language === 'en' ? 'en' : 'zh', v, r.commservNameEn)}</Link>,
        },
        { title: f('commservType'), dataIndex: 'commservType', render: (v: number) => <StatusTag enumOf={CommServType} value={v} colors={TYPE_COLORS} /> },
        { title: f('directional'), dataIndex: 'directional', render: (v: boolean) => <DirectionalTag value={v} /> },
        { title: f('priority'), dataIndex: 'priority', sorter: true, align: 'right' },
        { title: f('qosCount'), dataIndex: 'qosCount', align: 'center', render: (v: number) => <QosCountTag count={v} /> },
        { title: f('whitelist'), dataIndex: 'whitelist', render: (v: string[]) => (v.length ? <Typography.Text title={v.join('\n')}>{v.length}</Typography.Text> : '-') },
        { title: f('speedLimit'), dataIndex: 'speedLimitName', render: (v: string | null) => v ?? '-' },
        { title: f('redirect'), dataIndex: 'redirectName', render: (v: string | null) => v ?? '-' },
        { title: f('status'), dataIndex: 'status', render: (v: number) => <StatusTag enumOf={CommServStatus} value={v} colors={STATUS_COLORS} /> },
        { title: withZoneLabel(t('common.updatedAt')), dataIndex: 'updatedAt', sorter: true, render: (v: string) => formatDateTime(v) },
        {
          title: t('common.actions'), key: 'actions', fixed: 'right', width: 170,
          render: (_: unknown, r) => (
            <Space size={0}>
              <Button type="link" size="small" onClick={() => navigate(`${BASE}/detail/${r.commservId}`)}>{t('common.detail')}</Button>
              {canEdit && <Button type="link" size="small" onClick={() => navigate(`${BASE}/edit/${r.commservId}`)}>{t('common.edit')}</Button>}
              {canDelete && <Button type="link" size="small" danger onClick={() => remove(r)} data-testid={`commserv-delete-${r.commservId}`}>{t('common.delete')}</Button>}
            </Space>
          ),
        },
      ]}
    />
  );
}
