import { App, Button, Popconfirm, Space } from 'antd';
import { LiveText } from '../../../../request/LiveText.tsx';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { RoamingZone, UnicomPlanStatus, formatDateTime, netconfig, withZoneLabel } from '@lynx/contract';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { call } from '../../../../request/http.ts';
import { P, PLAN_STATUS_COLORS, dataLimitText, limitText, servicesText, type UnicomPlanRow } from '../shared.ts';

/** /operator/ltcomm/list: China Unicom communication plans; add, copy, edit, delete, export. */
export default function UnicomPlanList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const table = useSearchTable(netconfig.getUnicomCommPlanPage);
  const canAdd = usePerm(P.UnicomPlanAdd);
  const canEdit = usePerm(P.UnicomPlanEdit);
  const canDelete = usePerm(P.UnicomPlanDelete);

  const remove = async (r: UnicomPlanRow) => {
    try {
      await call(netconfig.deleteUnicomCommPlan, { planId: r.planId });
      message.success(<LiveText k="common.operationSuccess" />);
      void qc.invalidateQueries({ queryKey: [netconfig.getUnicomCommPlanPage.name] });
    } catch {
      /* shown by the request layer */
    }
  };
  const detail = (r: UnicomPlanRow) => navigate(`/operator/ltcomm/config/detail/${r.planId}`);

  return (
    <SearchTable<UnicomPlanRow>
      table={table}
      title={t('netconfig.ltcomm.title')}
      rowKey="planId"
      exportSource={netconfig.getUnicomCommPlanPage}
      emptyHint={t('netconfig.ltcomm.emptyHint')}
      toolbar={
        <PermButton perm={P.UnicomPlanAdd} type="primary" icon={<PlusOutlined />} onClick={() => navigate('/operator/ltcomm/config/add')} data-testid="ltcomm-add">
          {t('netconfig.ltcomm.add')}
        </PermButton>
      }
      fields={[
        { name: 'planName', label: t('netconfig.ltcomm.planName') },
        { name: 'planCode', label: t('netconfig.ltcomm.planCode') },
        { name: 'roamingZone', label: t('netconfig.ltcomm.roamingZone'), type: 'enum', enumOf: RoamingZone },
        { name: 'status', label: t('netconfig.ltcomm.status'), type: 'enum', enumOf: UnicomPlanStatus },
      ]}
      columns={[
        { title: t('netconfig.ltcomm.planName'), dataIndex: 'planName', sorter: true, width: 200, fixed: 'left', render: (v: string, r) => <a onClick={() => detail(r)}>{v}</a> },
        { title: t('netconfig.ltcomm.planCode'), dataIndex: 'planCode', width: 150 },
        { title: t('netconfig.ltcomm.services'), key: 'services', width: 150, render: (_: unknown, r) => servicesText(r, t) },
        { title: t('netconfig.ltcomm.apn'), dataIndex: 'apnName', width: 160, render: (v: string | null) => v ?? '-' },
        { title: t('netconfig.ltcomm.roamingZone'), dataIndex: 'roamingZone', width: 150, render: (v: number) => RoamingZone.label(v, lang) },
        { title: t('netconfig.ltcomm.dataLimit'), dataIndex: 'dataLimitMb', width: 130, render: (v: number | null, r) => (r.dataEnabled ? dataLimitText(v, t) : '-') },
        { title: t('netconfig.ltcomm.smsLimit'), dataIndex: 'smsLimit', width: 130, render: (v: number | null, r) => (r.smsEnabled ? limitText(v, '', t) : '-') },
        { title: t('netconfig.ltcomm.speedLimitKbps'), dataIndex: 'speedLimitKbps', width: 130, render: (v: number | null, r) => (r.dataEnabled ? limitText(v, 'kbps', t) : '-') },
        { title: t('netconfig.ltcomm.billingDay'), dataIndex: 'billingDay', width: 130, render: (v: number) => t('netconfig.ltcomm.billingDayValue', { day: v }) },
        { title: t('netconfig.ltcomm.status'), dataIndex: 'status', width: 90, render: (v: number) => <StatusTag enumOf={UnicomPlanStatus} value={v} colors={PLAN_STATUS_COLORS} /> },
        { title: withZoneLabel(t('netconfig.ltcomm.updatedAt')), dataIndex: 'updatedAt', sorter: true, width: 170, render: (v: string) => formatDateTime(v) },
        {
          title: t('common.actions'), key: 'actions', fixed: 'right', width: 220,
          render: (_: unknown, r) => (
            <Space size={0}>
              <Button type="link" size="small" onClick={() => detail(r)}>{t('common.detail')}</Button>
              {canEdit && <Button type="link" size="small" onClick={() => navigate(`/operator/ltcomm/config/edit/${r.planId}`)}>{t('netconfig.ltcomm.edit')}</Button>}
              {canAdd && <Button type="link" size="small" onClick={() => navigate(`/operator/ltcomm/config/copy/${r.planId}`)}>{t('netconfig.ltcomm.copy')}</Button>}
              {canDelete && (
                <Popconfirm title={t('netconfig.ltcomm.deleteConfirm', { name: r.planName })} onConfirm={() => remove(r)} okText={t('common.ok')} cancelText={t('common.cancel')}>
                  <Button type="link" size="small" danger>{t('common.delete')}</Button>
                </Popconfirm>
              )}
            </Space>
          ),
        },
      ]}
    />
  );
}
