import { useState } from 'react';
import { type ButtonProps, App, Button, Drawer, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Table, Tag, Tooltip } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DsimRuleType, Operator, dsim, formatDateTime, withZoneLabel } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { LiveText } from '../../../request/LiveText.tsx';
import { StatusTag } from '../../../components/StatusTag.tsx';
import { ruleText, useLang, type Strategy } from './shared.tsx';

const PAGE = 10;
type Values = { strategyName: string; ruleType: number; minutes?: number; operatorOrder?: number[]; minSignal?: number; remark?: string };

/** OEM switch strategies: a page, add, edit, delete by name (names unique; a collision answers in the user's language). */
export function StrategyDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const S = (k: string, o?: Record<string, unknown>) => t(`dsim.strategies.${k}`, o);
  const [current, setCurrent] = useState(1);
  const [editing, setEditing] = useState<Strategy | 'new' | null>(null);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<Values>();
  const ruleType = Form.useWatch('ruleType', form);
  const q = useQuery({
    queryKey: [dsim.getOemStrategyPage.name, current],
    queryFn: ({ signal }) => call(dsim.getOemStrategyPage, { current, pageSize: PAGE }, { signal }),
    enabled: open,
    placeholderData: keepPreviousData,
  });
  const refresh = () => qc.invalidateQueries({ queryKey: [dsim.getOemStrategyPage.name] });

  const openForm = (s: Strategy | 'new') => {
    setEditing(s);
    form.resetFields();
    form.setFieldsValue(s === 'new'
      ? { ruleType: DsimRuleType.NoSession, minutes: 30 }
      : { strategyName: s.strategyName, ruleType: s.ruleType, ...s.params, remark: s.remark ?? undefined });
  };
  const save = async () => {
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const params = v.ruleType === DsimRuleType.NoSession ? { minutes: v.minutes } : v.ruleType === DsimRuleType.Cost ? { operatorOrder: v.operatorOrder } : { minSignal: v.minSignal };
    const body = { strategyName: v.strategyName.trim(), ruleType: v.ruleType, params, remark: v.remark?.trim() || null };
    setBusy(true);
    try {
      if (editing === 'new') await call(dsim.insertOemStrategy, body);
      else if (editing) await call(dsim.updateOemStrategy, { ...body, strategyId: editing.strategyId });
      message.success(<LiveText k="common.operationSuccess" />);
      setEditing(null);
      await refresh();
    } catch {
      /* the request layer showed why; the form keeps what was typed */
    } finally {
      setBusy(false);
    }
  };
  const remove = async (s: Strategy) => {
    try {
      await call(dsim.deleteOemStrategy, { strategyName: s.strategyName });
      message.success(<LiveText k="common.operationSuccess" />);
      await refresh();
    } catch { /* shown */ }
  };

  return (
    <Drawer open={open} onClose={onClose} title={S('title')} size={1040} destroyOnHidden
      extra={<Button type="primary" icon={<PlusOutlined />} onClick={() => openForm('new')} data-testid="dsim-strategy-add">{S('add')}</Button>}>
      <Table<Strategy>
        size="small" rowKey="strategyId" loading={q.isFetching} dataSource={q.data?.list ?? []} scroll={{ x: 'max-content' }}
        locale={{ emptyText: S('empty') }}
        pagination={{ current, pageSize: PAGE, total: q.data?.total ?? 0, onChange: setCurrent, showSizeChanger: false }}
        columns={[
          { title: S('name'), dataIndex: 'strategyName', key: 'name' },
          { title: S('ruleType'), dataIndex: 'ruleType', key: 'ruleType', render: (v: number) => <StatusTag enumOf={DsimRuleType} value={v} /> },
          { title: S('params'), key: 'params', render: (_: unknown, r) => ruleText(r, t, lang) },
          { title: S('scope'), dataIndex: 'platform', key: 'scope', render: (v: boolean) => <Tag color={v ? 'purple' : 'default'}>{v ? S('platform') : S('own')}</Tag> },
          { title: S('simCount'), dataIndex: 'simCount', key: 'simCount', align: 'right' },
          { title: withZoneLabel(S('updatedAt')), dataIndex: 'updatedAt', key: 'updatedAt', render: (v: string) => formatDateTime(v) },
          {
            title: t('common.actions'), key: 'actions', fixed: 'right',
            render: (_: unknown, r) => (r.editable ? (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => openForm(r)}>{S('edit')}</Button>
                <Popconfirm title={S('deleteConfirm', { name: r.strategyName })} onConfirm={() => remove(r)} okButtonProps={{ danger: true }}>
                  <Button type="link" size="small" danger>{S('delete')}</Button>
                </Popconfirm>
              </Space>
            ) : <Tooltip title={S('readOnly')}><Tag>{S('readOnlyShort')}</Tag></Tooltip>),
          },
        ]}
      />
      <Modal open={editing !== null} title={editing === 'new' ? S('add') : S('edit')} onCancel={() => setEditing(null)} onOk={() => void save()}
        confirmLoading={busy} destroyOnHidden okButtonProps={{ 'data-testid': 'dsim-strategy-save' } as ButtonProps}>
        <Form form={form} layout="vertical" preserve={false}>
          <Form.Item name="strategyName" label={S('name')} extra={S('nameHint', { max: dsim.DSIM_STRATEGY_NAME_MAX })}
            rules={[{ required: true, whitespace: true, message: t('common.required') }]}>
            <Input maxLength={dsim.DSIM_STRATEGY_NAME_MAX} data-testid="dsim-strategy-name" />
          </Form.Item>
          <Form.Item name="ruleType" label={S('ruleType')} rules={[{ required: true, message: t('common.required') }]}>
            <Select options={DsimRuleType.options(lang)} />
          </Form.Item>
          {ruleType === DsimRuleType.NoSession && (
            <Form.Item name="minutes" label={S('minutes')} rules={[{ required: true, message: t('common.required') }]}>
              <InputNumber min={dsim.DSIM_NO_SESSION_MINUTES.min} max={dsim.DSIM_NO_SESSION_MINUTES.max} precision={0} style={{ width: 200 }} />
            </Form.Item>
          )}
          {ruleType === DsimRuleType.Cost && (
            <Form.Item name="operatorOrder" label={S('operatorOrder')}
              rules={[{ required: true, message: t('common.required') }, { type: 'array', min: 2, message: S('operatorOrder') }]}>
              <Select mode="multiple" options={Operator.options(lang)} />
            </Form.Item>
          )}
          {ruleType === DsimRuleType.Signal && (
            <Form.Item name="minSignal" label={S('minSignal')} rules={[{ required: true, message: t('common.required') }]}>
              <InputNumber min={dsim.DSIM_SIGNAL_DBM.min} max={dsim.DSIM_SIGNAL_DBM.max} precision={0} style={{ width: 200 }} />
            </Form.Item>
          )}
          <Form.Item name="remark" label={S('remark')}>
            <Input.TextArea maxLength={dsim.DSIM_STRATEGY_REMARK_MAX} showCount rows={2} />
          </Form.Item>
        </Form>
      </Modal>
    </Drawer>
  );
}
