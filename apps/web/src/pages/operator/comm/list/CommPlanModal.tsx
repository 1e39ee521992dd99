import { useEffect } from 'react';
import { Checkbox, Form, Input, Modal, Radio, Select, Switch } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CommPlanStatus, CommServiceKind, countChars, network, opconfig, validateLength, type ResponseOf } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { required, ruleOf } from '../../../../components/rules.ts';
import { useFormSave } from '../../../../components/useFormSave.ts';
import { operatorName, type OperatorRow } from '../../shared.tsx';
import { useAccountOptions, useLang } from '../../config/shared.tsx';

export type CommPlanRow = ResponseOf<typeof opconfig.getCommPlanPage>['list'][number];

interface CommPlanForm {
  planName: string;
  operatorId: number;
  operAccountId: number;
  apnIds: number[];
  serviceKinds: number[];
  roaming: boolean;
  description?: string;
  status: number;
}

const MAX_APNS = opconfig.COMM_PLAN_APN_MAX;

/** Add or edit a communication plan: the account and the APNs are those of the chosen operator. */
export function CommPlanModal({ open, record, operators, onClose, onSaved }: {
  open: boolean; record: CommPlanRow | null; operators: OperatorRow[]; onClose: () => void; onSaved: () => void;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const [form] = Form.useForm<CommPlanForm>();
  const { busy, save } = useFormSave(form);
  const operatorId = Form.useWatch('operatorId', form) as number | undefined;
  const accounts = useAccountOptions(operatorId ?? null);
  const apns = useQuery({
    queryKey: [network.getApnListPage.name, { operatorId, pageSize: 500 }],
    queryFn: ({ signal }) => call(network.getApnListPage, { operatorId: operatorId!, pageSize: 500 }, { signal }),
    enabled: open && operatorId !== undefined,
  });

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      record
        ? { planName: record.planName, operatorId: record.operatorId, operAccountId: record.operAccountId, apnIds: record.apnIds, serviceKinds: record.serviceKinds, roaming: record.roaming, description: record.description ?? '', status: record.status }
        : { serviceKinds: [CommServiceKind.Data], roaming: false, status: CommPlanStatus.Enabled },
    );
  }, [open, record, form]);

  const submit = async () => {
    let v: CommPlanForm;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const body = { ...v, planName: v.planName.trim(), description: v.description?.trim() ?? '' };
    const ok = await save(() => (record ? call(opconfig.updateCommPlan, { commPlanId: record.commPlanId, ...body }, { silent: true }) : call(opconfig.saveCommPlan, body, { silent: true })));
    if (ok) {
      onSaved();
      onClose();
    }
  };

  const accountOptions = (accounts.data ?? []).map((a) => ({ value: a.operAccountId, label: a.accountName }));
  const apnOptions = (apns.data?.list ?? []).map((a) => ({ value: a.apnId, label: a.apnName }));
  return (
    <Modal
      open={open} title={record ? t('opconfig.comm.edit') : t('opconfig.comm.add')} onCancel={onClose} onOk={() => void submit()}
      okText={t('common.save')} cancelText={t('common.cancel')} confirmLoading={busy} width={640} destroyOnHidden
    >
      <Form form={form} layout="vertical" disabled={busy} style={{ marginTop: 12 }}>
        <Form.Item name="planName" label={t('opconfig.comm.planName')} rules={[{ ...required(), whitespace: true }, ruleOf((x) => validateLength(x, 64))]}>
          <Input maxLength={64} autoComplete="off" data-testid="comm-name" />
        </Form.Item>
        <Form.Item name="operatorId" label={t('opconfig.operator')} rules={[required()]}>
          <Select
            placeholder={t('common.required')}
            options={operators.map((o) => ({ value: o.operatorId, label: operatorName(o, lang) }))}
            onChange={() => form.setFieldsValue({ operAccountId: undefined, apnIds: [] })}
          />
        </Form.Item>
        <Form.Item
          name="operAccountId" label={t('opconfig.comm.operAccount')} rules={[required()]}
          extra={operatorId !== undefined && accounts.isSuccess && !accountOptions.length ? t('opconfig.comm.noAccounts') : t('opconfig.comm.operAccountHint')}
        >
          <Select placeholder={t('common.required')} options={accountOptions} disabled={operatorId === undefined} loading={accounts.isFetching} />
        </Form.Item>
        <Form.Item
          name="apnIds" label={t('opconfig.comm.apns')}
          rules={[required(), { validator: async (_r, v?: number[]) => { if (v && v.length > MAX_APNS) throw new Error(t('opconfig.comm.apnsMax', { max: MAX_APNS })); } }]}
          extra={operatorId !== undefined && apns.isSuccess && !apnOptions.length ? t('opconfig.comm.noApns') : t('opconfig.comm.apnsHint', { max: MAX_APNS })}
        >
          <Select mode="multiple" options={apnOptions} disabled={operatorId === undefined} loading={apns.isFetching} maxCount={MAX_APNS} placeholder={t('common.required')} />
        </Form.Item>
        <Form.Item name="serviceKinds" label={t('opconfig.comm.serviceKinds')} rules={[required()]}>
          <Checkbox.Group options={CommServiceKind.options(lang)} />
        </Form.Item>
        <Form.Item name="roaming" label={t('opconfig.comm.roaming')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="status" label={t('opconfig.comm.status')} rules={[required()]}>
          <Radio.Group options={CommPlanStatus.options(lang)} />
        </Form.Item>
        <Form.Item name="description" label={t('opconfig.comm.description')} rules={[ruleOf((x) => validateLength(x, 500))]}>
          <Input.TextArea rows={3} count={{ show: true, max: 500, strategy: countChars }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
