import { useState } from 'react';
import { LiveText } from '../../../../../request/LiveText.tsx';
import { App, Button, Form, Input, InputNumber, Space, Tooltip } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorCode, QOS_KBPS_MAX, commserv, countChars, formatDateTime, validateLength, formatCount, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../../request/http.ts';
import { SearchTable } from '../../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../../components/useSearchTable.ts';
import { PermButton, usePerm } from '../../../../../components/PermButton.tsx';
import { required, ruleOf } from '../../../../../components/rules.ts';
import { PERM_CONFIG, type SpeedLimitRow } from '../../shared.tsx';
import { ConfigModal } from '../ConfigModal.tsx';

interface SpeedLimitForm {
  speedLimitName: string;
  uplinkKbps: number;
  downlinkKbps: number;
  description?: string;
}

/** /operator/commserv-list/config-manager/speedLimit: speed-limit configurations services may use. */
export default function SpeedLimitManager() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const qc = useQueryClient();
  const table = useSearchTable(commserv.getSpeedLimitListPage);
  const canManage = usePerm(PERM_CONFIG);
  const [editing, setEditing] = useState<{ record: SpeedLimitRow | null } | null>(null);
  const s = (k: string) => t(`commserv.speedLimit.${k}`);
  const changed = () => void qc.invalidateQueries({ queryKey: [commserv.getSpeedLimitListPage.name] });

  const remove = (r: SpeedLimitRow) =>
    modal.confirm({
      title: t('common.delete'), content: t('commserv.speedLimit.deleteConfirm', { name: r.speedLimitName }),
      okText: t('common.delete'), cancelText: t('common.cancel'), okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await call(commserv.deleteSpeedLimit, { speedLimitId: r.speedLimitId });
          message.success(<LiveText k="common.operationSuccess" />);
          changed();
        } catch {
          /* shown by the request layer */
        }
      },
    });
  const save = async (v: SpeedLimitForm) => {
    const body = { ...v, speedLimitName: v.speedLimitName.trim(), description: v.description?.trim() ?? '' };
    if (editing?.record) await call(commserv.updateSpeedLimit, { speedLimitId: editing.record.speedLimitId, ...body }, { silent: true });
    else await call(commserv.saveSpeedLimit, body, { silent: true });
    changed();
  };
  const rate = (name: 'uplinkKbps' | 'downlinkKbps') => (
    <Form.Item name={name} label={s(name === 'uplinkKbps' ? 'uplink' : 'downlink')} rules={[required()]}>
      <InputNumber min={1} max={QOS_KBPS_MAX} precision={0} style={{ width: '100%' }} suffix="kbps" />
    </Form.Item>
  );

  return (
    <>
      <SearchTable<SpeedLimitRow>
        table={table}
        title={s('title')}
        rowKey="speedLimitId"
        emptyHint={s('emptyHint')}
        toolbar={<PermButton perm={PERM_CONFIG} type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ record: null })}>{s('add')}</PermButton>}
        fields={[{ name: 'speedLimitName', label: s('name') }]}
        columns={[
          { title: s('name'), dataIndex: 'speedLimitName' },
          { title: s('uplink'), dataIndex: 'uplinkKbps', align: 'right', render: (v: number) => formatCount(v) },
          { title: s('downlink'), dataIndex: 'downlinkKbps', align: 'right', render: (v: number) => formatCount(v) },
          { title: s('serviceCount'), dataIndex: 'serviceCount', align: 'right' },
          { title: s('description'), dataIndex: 'description', ellipsis: true, render: (v: string | null) => v ?? '-' },
          { title: withZoneLabel(t('common.updatedAt')), dataIndex: 'updatedAt', render: (v: string) => formatDateTime(v) },
          ...(canManage ? [{
            title: t('common.actions'), key: 'actions', fixed: 'right' as const, width: 130,
            render: (_: unknown, r: SpeedLimitRow) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setEditing({ record: r })}>{t('common.edit')}</Button>
                <Tooltip title={r.serviceCount > 0 ? s('inUse') : undefined}>
                  <Button type="link" size="small" danger disabled={r.serviceCount > 0} onClick={() => remove(r)}>{t('common.delete')}</Button>
                </Tooltip>
              </Space>
            ),
          }] : []),
        ]}
      />
      <ConfigModal<SpeedLimitForm>
        open={!!editing}
        title={editing?.record ? s('edit') : s('add')}
        initialValues={editing?.record ? { ...editing.record, description: editing.record.description ?? '' } : {}}
        nameField="speedLimitName"
        nameTakenCode={ErrorCode.SpeedLimitNameTaken}
        onSubmit={save}
        onClose={() => setEditing(null)}
      >
        {() => (
          <>
            <Form.Item name="speedLimitName" label={s('name')} rules={[{ ...required(), whitespace: true }, ruleOf((v) => validateLength(v, 64))]}>
              <Input maxLength={64} autoComplete="off" />
            </Form.Item>
            {rate('uplinkKbps')}
            {rate('downlinkKbps')}
            <Form.Item name="description" label={s('description')} rules={[ruleOf((v) => validateLength(v, 500))]}>
              <Input.TextArea rows={3} count={{ show: true, max: 500, strategy: countChars }} />
            </Form.Item>
          </>
        )}
      </ConfigModal>
    </>
  );
}
