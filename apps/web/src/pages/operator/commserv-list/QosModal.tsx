import { useEffect } from 'react';
import { Col, Form, Input, InputNumber, Modal, Row } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { ErrorCode, QOS_ARP_MAX, QOS_ARP_MIN, QOS_KBPS_MAX, QOS_QCI_MAX, QOS_QCI_MIN, commserv } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { required } from '../../../components/rules.ts';
import { useFormSave } from '../../../components/useFormSave.ts';
import type { QosRow } from './shared.tsx';

interface QosForm {
  qosName: string;
  qci: number;
  maxUplinkKbps: number;
  maxDownlinkKbps: number;
  gbrUplinkKbps?: number | null;
  gbrDownlinkKbps?: number | null;
  arpPriority: number;
}

/** Add or edit a QoS profile of a service; guaranteed rates may not exceed the maximum ones. */
export function QosModal({ open, commservId, record, onClose, onSaved }: {
  open: boolean; commservId: number; record: QosRow | null; onClose: () => void; onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<QosForm>();
  const { busy, save } = useFormSave(form, { [ErrorCode.QosNameTaken]: 'qosName' });
  const q = (k: string) => t(`commserv.qos.${k}`);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(record ?? { qci: 9, arpPriority: 9 });
  }, [open, record, form]);

  const gbrRule = (maxField: keyof QosForm): Rule => ({ getFieldValue }) => ({
    validator: async (_r, v?: number | null) => {
      const max = getFieldValue(maxField) as number | undefined;
      if (v != null && max != null && v > max) throw new Error(q('gbrAboveMax'));
    },
  });
  const rate = (name: keyof QosForm, label: string, opts: { optional?: boolean; max?: keyof QosForm } = {}) => (
    <Form.Item name={name} label={label} rules={[...(opts.optional ? [] : [required()]), ...(opts.max ? [gbrRule(opts.max)] : [])]}
      dependencies={opts.max ? [opts.max] : undefined} extra={opts.optional ? q('gbrHint') : undefined}>
      <InputNumber min={1} max={QOS_KBPS_MAX} precision={0} style={{ width: '100%' }} suffix="kbps" />
    </Form.Item>
  );

  const submit = async () => {
    let v: QosForm;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const body = { ...v, qosName: v.qosName.trim(), gbrUplinkKbps: v.gbrUplinkKbps ?? null, gbrDownlinkKbps: v.gbrDownlinkKbps ?? null };
    const ok = await save(() =>
      record ? call(commserv.updateQos, { qosId: record.qosId, ...body }, { silent: true }) : call(commserv.saveQos, { commservId, ...body }, { silent: true }),
    );
    if (ok) {
      onSaved();
      onClose();
    }
  };

  return (
    <Modal open={open} title={record ? q('edit') : q('add')} onCancel={onClose} onOk={() => void submit()} okText={t('common.save')}
      cancelText={t('common.cancel')} confirmLoading={busy} width={620} destroyOnHidden>
      <Form form={form} layout="vertical" disabled={busy} style={{ marginTop: 12 }}>
        <Form.Item name="qosName" label={q('qosName')} rules={[{ ...required(), whitespace: true }, { max: 64 }]}>
          <Input maxLength={64} autoComplete="off" data-testid="qos-name" />
        </Form.Item>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="qci" label={q('qci')} rules={[required()]} extra={q('qciHint')}>
              <InputNumber min={QOS_QCI_MIN} max={QOS_QCI_MAX} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="arpPriority" label={q('arp')} rules={[required()]} extra={q('arpHint')}>
              <InputNumber min={QOS_ARP_MIN} max={QOS_ARP_MAX} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={12}>{rate('maxUplinkKbps', q('maxUplink'))}</Col>
          <Col span={12}>{rate('maxDownlinkKbps', q('maxDownlink'))}</Col>
          <Col span={12}>{rate('gbrUplinkKbps', q('gbrUplink'), { optional: true, max: 'maxUplinkKbps' })}</Col>
          <Col span={12}>{rate('gbrDownlinkKbps', q('gbrDownlink'), { optional: true, max: 'maxDownlinkKbps' })}</Col>
        </Row>
      </Form>
    </Modal>
  );
}
