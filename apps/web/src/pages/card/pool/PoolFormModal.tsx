import { useEffect } from 'react';
import { Alert, Form, Input, InputNumber, Modal, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorCode, Operator, Perm, STAFF_ROLE_TYPES, pool, validateLength } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { required, ruleOf } from '../../../components/rules.ts';
import { useFormSave } from '../../../components/useFormSave.ts';
import { usePerm } from '../../../components/PermButton.tsx';
import { useSession } from '../../../stores/session.ts';
import { CustomerSelect } from '../../home/customer/CustomerSelect.tsx';
import type { PoolRow } from './shared.tsx';

interface PoolForm {
  name: string;
  custId?: number;
  operatorId: number;
  exhaustAction: number;
  alertPercent: number;
  description?: string;
}

/** Whole percent from 1 to 100 (the schema's alertPercent). */
export const isAlertPercent = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 100;

/**
 * Add or edit a pool. Staff choose its customer (required); a channel customer may pick one of its own tree
 * (empty: its own customer); a pool with member cards keeps its customer and operator.
 */
export function PoolFormModal({ open, record, onClose, onSaved }: { open: boolean; record: PoolRow | null; onClose: () => void; onSaved: (p: PoolRow) => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [form] = Form.useForm<PoolForm>();
  const staff = useSession((s) => s.roleId !== null && STAFF_ROLE_TYPES.includes(s.roleId));
  const canCustomers = usePerm([Perm.HomeCustomer, Perm.BusinessCustomer]);
  const { busy, save } = useFormSave(form, {
    [ErrorCode.PoolNameTaken]: 'name', [ErrorCode.PoolCustomerInvalid]: 'custId', [ErrorCode.PoolOwnerLocked]: 'operatorId',
  });
  const F = (k: string) => t(`pool.f.${k}`);
  const FM = (k: string, o?: Record<string, unknown>) => t(`pool.form.${k}`, o);
  const ownerLocked = !!record && record.memberCount > 0;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      record
        ? { name: record.name, custId: record.custId, operatorId: record.operatorId, exhaustAction: record.exhaustAction, alertPercent: record.alertPercent, description: record.description ?? '' }
        : { exhaustAction: pool.PoolExhaustAction.Block, alertPercent: pool.POOL_ALERT_DEFAULT },
    );
  }, [open, record, form]);

  const submit = async () => {
    let v: PoolForm;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const body = {
      ...(record ? { poolId: record.poolId } : {}),
      name: v.name.trim(),
      ...(v.custId ? { custId: v.custId } : {}),
      operatorId: v.operatorId,
      exhaustAction: v.exhaustAction,
      alertPercent: v.alertPercent,
      ...(v.description?.trim() ? { description: v.description.trim() } : {}),
    };
    let saved: PoolRow | null = null;
    const ok = await save(async () => { saved = await call(pool.savePool, body, { silent: true }); });
    if (ok && saved) {
      onSaved(saved);
      onClose();
    }
  };

  return (
    <Modal open={open} title={record ? t('pool.editTitle') : t('pool.addTitle')} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy}
      okText={t('common.save')} cancelText={t('common.cancel')} okButtonProps={{ 'data-testid': 'pool-save' } as Record<string, string>} destroyOnHidden forceRender width={620}>
      <Form form={form} layout="vertical" disabled={busy}>
        <Form.Item name="name" label={F('name')} rules={[{ ...required(), whitespace: true }, ruleOf((v) => validateLength(v, pool.POOL_NAME_MAX))]}>
          <Input maxLength={pool.POOL_NAME_MAX} placeholder={FM('namePlaceholder')} data-testid="pool-name" />
        </Form.Item>
        {ownerLocked && <Alert type="info" showIcon style={{ marginBottom: 16 }} title={FM('ownerLocked', { count: record.memberCount })} />}
        {canCustomers && (
          <Form.Item name="custId" label={F('customer')} rules={staff ? [required()] : []} extra={staff ? FM('customerHint') : FM('ownCustomerHint')}>
            <CustomerSelect allowClear={!staff} disabled={ownerLocked} initialLabel={record?.custName} placeholder={t('common.required')} />
          </Form.Item>
        )}
        <Form.Item name="operatorId" label={F('operator')} rules={[required()]} extra={FM('operatorHint')}>
          <Select options={Operator.options(lang)} disabled={ownerLocked} placeholder={t('common.required')} data-testid="pool-operator" />
        </Form.Item>
        <Form.Item name="exhaustAction" label={F('exhaustAction')} rules={[required()]}>
          <Radio.Group options={pool.PoolExhaustAction.options(lang)} style={{ display: 'flex', flexDirection: 'column', gap: 4 }} />
        </Form.Item>
        <Form.Item name="alertPercent" label={F('alertPercent')} extra={FM('alertHint')}
          rules={[required(), { validator: async (_, v) => { if (v != null && !isAlertPercent(v)) throw new Error(FM('alertRange')); } }]}>
          <InputNumber min={1} max={100} precision={0} suffix="%" style={{ width: 160 }} data-testid="pool-alert" />
        </Form.Item>
        <Form.Item name="description" label={F('description')} rules={[ruleOf((v) => validateLength(v, pool.POOL_DESCRIPTION_MAX))]}>
          <Input.TextArea rows={3} maxLength={pool.POOL_DESCRIPTION_MAX} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
