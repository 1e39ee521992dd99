import { useState } from 'react';
import { LiveText } from '../../../../request/LiveText.tsx';
import { Alert, App, Button, Empty, Space, Table, Tag, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { COMMSERV_WHITELIST_MAX, CommServStatus, CommServType, commserv, formatDateTime, formatCount, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { DetailPage } from '../../../../components/DetailPage.tsx';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { useTabs } from '../../../../stores/tabs.ts';
import { QosModal } from '../QosModal.tsx';
import { BASE, DirectionalTag, PERM_DELETE, PERM_EDIT, STATUS_COLORS, TYPE_COLORS, type QosRow } from '../shared.tsx';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

/** /operator/commserv-list/detail/:commservId: the service, its whitelist and its QoS profiles (add, edit, delete). */
export default function CommServDetail() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const commservId = Number(useParams().commservId);
  const valid = Number.isInteger(commservId) && commservId > 0;
  const canEdit = usePerm(PERM_EDIT);
  const [editing, setEditing] = useState<{ record: QosRow | null } | null>(null);
  const detail = useQuery({
    queryKey: [commserv.getCommServDetail.name, commservId],
    queryFn: ({ signal }) => call(commserv.getCommServDetail, { commservId }, { signal, silent: true }),
    enabled: valid,
  });
  const qos = useQuery({
    queryKey: [commserv.getQosList.name, commservId],
    queryFn: ({ signal }) => call(commserv.getQosList, { commservId }, { signal, silent: true }),
    enabled: valid && detail.isSuccess,
  });
  const s = detail.data;
  usePageTitle(s?.commservName);
  const f = (k: string) => t(`commserv.fields.${k}`);
  const q = (k: string) => t(`commserv.qos.${k}`);

  const changed = () => {
    void qc.invalidateQueries({ queryKey: [commserv.getQosList.name, commservId] });
    void qc.invalidateQueries({ queryKey: [commserv.getCommServDetail.name, commservId] });
    void qc.invalidateQueries({ queryKey: [commserv.getCommServListPage.name] });
  };
  const confirmDelete = (content: string, run: () => Promise<unknown>, after: () => void) =>
    modal.confirm({
      title: t('common.delete'), content, okText: t('common.delete'), cancelText: t('common.cancel'), okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await run();
          message.success(<LiveText k="common.operationSuccess" />);
          after();
        } catch {
          /* shown by the request layer (e.g. the last QoS of a service in use) */
        }
      },
    });
  const removeQos = (r: QosRow) => {
    const last = (qos.data?.length ?? 0) <= 1;
    confirmDelete(`${t('commserv.qos.deleteConfirm', { name: r.qosName })}${last ? ` ${q('lastQosWarning')}` : ''}`,
      () => call(commserv.deleteQos, { qosId: r.qosId }), changed);
  };
  const removeService = () =>
    s && confirmDelete(t('commserv.list.deleteConfirm', { name: s.commservName }), () => call(commserv.deleteCommServ, { commservId }), () => {
      void qc.invalidateQueries({ queryKey: [commserv.getCommServListPage.name] });
      navigate(`${BASE}/list`);
      useTabs.getState().close(`${BASE}/detail/${commservId}`);
    });
  const kbps = (v: number | null) => (v == null ? '-' : formatCount(v));

  return (
    <DetailPage
      loading={valid && detail.isLoading}
      error={!valid || detail.error || (detail.isSuccess && !s) ? true : undefined}
      title={s?.commservName}
      extra={s && (
        <Space>
          <PermButton perm={PERM_EDIT} icon={<EditOutlined />} onClick={() => navigate(`${BASE}/edit/${commservId}`)}>{t('common.edit')}</PermButton>
          <PermButton perm={PERM_DELETE} danger icon={<DeleteOutlined />} onClick={removeService}>{t('common.delete')}</PermButton>
        </Space>
      )}
      items={s ? [
        { label: f('commservId'), value: s.commservId },
        { label: f('commservType'), value: <StatusTag enumOf={CommServType} value={s.commservType} colors={TYPE_COLORS} /> },
        { label: f('directional'), value: <DirectionalTag value={s.directional} /> },
        { label: f('priority'), value: s.priority },
        { label: f('status'), value: <StatusTag enumOf={CommServStatus} value={s.status} colors={STATUS_COLORS} /> },
        { label: f('planCount'), value: s.planCount },
        { label: f('speedLimit'), value: s.speedLimitName ?? '-' },
        { label: f('redirect'), value: s.redirectName ?? '-' },
        { label: f('redirectAddress'), value: s.redirectAddress ? <Typography.Text copyable>{s.redirectAddress}</Typography.Text> : '-' },
        { label: f('createdBy'), value: s.createdBy },
        { label: withZoneLabel(t('common.createdAt')), value: formatDateTime(s.createdAt) },
        { label: withZoneLabel(t('common.updatedAt')), value: formatDateTime(s.updatedAt) },
        { label: f('description'), value: s.description || '-' },
      ] : []}
    >
      {s && (
        <>
          <div className="lx-card">
            <Typography.Title level={5} style={{ marginTop: 0 }}>
              {t('commserv.detail.whitelistTitle', { count: s.whitelist.length, max: COMMSERV_WHITELIST_MAX })}
            </Typography.Title>
            {s.whitelist.length ? (
              <Space size={[6, 6]} wrap>{s.whitelist.map((w) => <Tag key={w} style={{ fontFamily: 'monospace' }}>{w}</Tag>)}</Space>
            ) : (
              <Typography.Text type="secondary">{t('commserv.detail.whitelistEmpty')}</Typography.Text>
            )}
          </div>
          <div className="lx-card">
            <div style={{ display: 'flex', alignItems: 'center', marginBottom: 12 }}>
              <Typography.Title level={5} style={{ margin: 0 }}>{q('title')}</Typography.Title>
              <PermButton perm={PERM_EDIT} type="primary" icon={<PlusOutlined />} style={{ marginLeft: 'auto' }}
                onClick={() => setEditing({ record: null })} data-testid="qos-add">{q('add')}</PermButton>
            </div>
            <Alert type={s.planCount > 0 ? 'info' : 'success'} showIcon style={{ marginBottom: 12 }}
              title={s.planCount > 0 ? t('commserv.detail.inUse', { count: s.planCount }) : t('commserv.detail.notUsed')} />
            <Table<QosRow>
              rowKey="qosId"
              size="middle"
              loading={qos.isFetching}
              dataSource={qos.data ?? []}
              pagination={false}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: <Empty description={<>{q('empty')}<br /><Typography.Text type="secondary">{q('emptyHint')}</Typography.Text></>} /> }}
              columns={[
                { title: q('qosName'), dataIndex: 'qosName' },
                { title: q('qci'), dataIndex: 'qci', align: 'right' },
                { title: q('maxUplink'), dataIndex: 'maxUplinkKbps', align: 'right', render: kbps },
                { title: q('maxDownlink'), dataIndex: 'maxDownlinkKbps', align: 'right', render: kbps },
                { title: q('gbrUplink'), dataIndex: 'gbrUplinkKbps', align: 'right', render: kbps },
                { title: q('gbrDownlink'), dataIndex: 'gbrDownlinkKbps', align: 'right', render: kbps },
                { title: q('arp'), dataIndex: 'arpPriority', align: 'right' },
                { title: withZoneLabel(t('common.updatedAt')), dataIndex: 'updatedAt', render: (v: string) => formatDateTime(v) },
                ...(canEdit ? [{
                  title: t('common.actions'), key: 'actions', fixed: 'right' as const, width: 130,
                  render: (_: unknown, r: QosRow) => (
                    <Space size={0}>
                      <Button type="link" size="small" onClick={() => setEditing({ record: r })}>{t('common.edit')}</Button>
                      <Button type="link" size="small" danger onClick={() => removeQos(r)}>{t('common.delete')}</Button>
                    </Space>
                  ),
                }] : []),
              ]}
            />
          </div>
          <QosModal open={!!editing} commservId={commservId} record={editing?.record ?? null} onClose={() => setEditing(null)} onSaved={changed} />
        </>
      )}
    </DetailPage>
  );
}
