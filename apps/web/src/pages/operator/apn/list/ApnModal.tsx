import { useEffect } from 'react';
import { Form, Input, Modal, Radio, Select } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { ApnStatus, ApnType, ErrorCode, IpAllocation, countChars, network, validateLength } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { required, ruleOf } from '../../../../components/rules.ts';
import type { ApnRow, OperatorRow } from '../../shared.tsx';
import { operatorName } from '../../shared.tsx';
import { useFormSave } from '../../../../components/useFormSave.ts';

interface ApnForm {
  apnName: string;
  operatorId: number;
  apnType: number;
  ipAllocation: number;
  status: number;
  remark?: string;
}

const NAME_MAX = 63;
const REMARK_MAX = 500;
/** the contract's pattern (3GPP TS 23.003 labels), so the form refuses what the server refuses */
const NAME_RE = new RegExp(network.saveApn.body.properties.apnName.pattern ?? '^.*$');

/** Add or edit an APN; the operator is fixed once the APN exists. A duplicate name (20043) is shown on the name field. */
export function ApnModal({ open, record, operators, onClose, onSaved }: {
  open: boolean; record: ApnRow | null; operators: OperatorRow[]; onClose: () => void; onSaved: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [form] = Form.useForm<ApnForm>();
  const { busy, save: persist } = useFormSave(form, { [ErrorCode.ApnNameTaken]: 'apnName' });

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      record
        ? { apnName: record.apnName, operatorId: record.operatorId, apnType: record.apnType, ipAllocation: record.ipAllocation, status: record.status, remark: record.remark ?? '' }
        : { apnType: ApnType.Public, ipAllocation: IpAllocation.Dynamic, status: ApnStatus.Enabled },
    );
  }, [open, record, form]);

  const nameRules: Rule[] = [
    { ...required(), whitespace: true },
    ruleOf((v) => validateLength(v, NAME_MAX)),
    {
      validator: async (_r, v: string | undefined) => {
        if (!v || countChars(v) > NAME_MAX) return;
        if (!NAME_RE.test(v)) throw new Error(t('operator.apn.apnNameInvalid'));
      },
    },
  ];

  const save = async () => {
    let v: ApnForm;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const body = { apnName: v.apnName, apnType: v.apnType, ipAllocation: v.ipAllocation, status: v.status, remark: v.remark?.trim() ?? '' };
    const saved = await persist(() =>
      record
        ? call(network.updateApn, { apnId: record.apnId, ...body }, { silent: true })
        : call(network.saveApn, { ...body, operatorId: v.operatorId }, { silent: true }),
    );
    if (saved) {
      onSaved();
      onClose();
    }
  };

  return (
    <Modal
      open={open}
      title={record ? t('operator.apn.edit') : t('operator.apn.add')}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      width={560}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" disabled={busy} style={{ marginTop: 12 }}>
        <Form.Item name="apnName" label={t('operator.apn.apnName')} rules={nameRules} extra={t('operator.apn.apnNameHint')}>
          <Input maxLength={NAME_MAX} autoComplete="off" style={{ fontFamily: 'monospace' }} data-testid="apn-name" />
        </Form.Item>
        <Form.Item name="operatorId" label={t('operator.apn.operator')} rules={[required()]} extra={record ? t('operator.apn.operatorLocked') : undefined}>
          <Select
            disabled={!!record}
            placeholder={t('common.required')}
            options={operators.map((o) => ({ value: o.operatorId, label: operatorName(o, lang) }))}
            data-testid="apn-operator"
          />
        </Form.Item>
        <Form.Item name="apnType" label={t('operator.apn.apnType')} rules={[required()]}>
          <Radio.Group options={ApnType.options(lang)} />
        </Form.Item>
        <Form.Item name="ipAllocation" label={t('operator.apn.ipAllocation')} rules={[required()]}>
          <Radio.Group options={IpAllocation.options(lang)} />
        </Form.Item>
        <Form.Item name="status" label={t('operator.apn.status')} rules={[required()]}>
          <Radio.Group options={ApnStatus.options(lang)} />
        </Form.Item>
        <Form.Item name="remark" label={t('operator.apn.remark')} rules={[ruleOf((v) => validateLength(v, REMARK_MAX))]}>
          <Input.TextArea rows={3} count={{ show: true, max: REMARK_MAX, strategy: countChars }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
