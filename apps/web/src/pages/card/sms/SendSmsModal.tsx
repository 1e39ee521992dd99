import { useState } from 'react';
import { App, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { carddetail, carddata, sms } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { LiveText } from '../../../request/LiveText.tsx';
import { smsCounter } from './shared.tsx';

/**
 * Send an SMS to one card from the SMS centre (2010006): the card detail's call, so the same rules hold (a card of
 * the caller's tenant, in test or activated state, with an MSISDN and an access configuration of its operator).
 */
export function SendSmsModal({ open, onClose, onSent }: { open: boolean; onClose: () => void; onSent: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message } = App.useApp();
  const [form] = Form.useForm<{ iccid: string; content: string }>();
  const [busy, setBusy] = useState(false);
  const content: string = Form.useWatch('content', form) ?? '';
  const counter = smsCounter(content, t, lang);
  const S = (k: string) => t(`sms.send.${k}`);

  const submit = async () => {
    // a field that does not pass shows its own message under it
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setBusy(true);
    try {
      await call(carddetail.sendCardSms, { iccid: v.iccid.trim(), content: v.content });
      message.success(<LiveText k="sms.send.done" />);
      form.resetFields();
      onSent();
      onClose();
    } catch {
      /* the refusal (card state, no MSISDN, length) is shown by the request layer */
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={open} title={S('title')} okText={S('ok')} onOk={() => void submit()} confirmLoading={busy} onCancel={onClose} destroyOnHidden forceRender>
      <Form form={form} layout="vertical" data-testid="sms-send-form">
        <Form.Item name="iccid" label="ICCID" rules={[{ required: true, message: t('common.required') }, { pattern: carddata.ICCID_RE, message: S('iccidFormat') }]}>
          <Input maxLength={20} placeholder={S('iccidPlaceholder')} data-testid="sms-send-iccid" />
        </Form.Item>
        <Form.Item name="content" label={S('content')} extra={<span data-testid="sms-send-counter">{counter.text}</span>}
          rules={[
            { required: true, whitespace: true, message: S('contentRequired') },
            { validator: async (_r, v: string | undefined) => { if (v && !sms.smsLength(v).fits) throw new Error(counter.text); } },
          ]}>
          <Input.TextArea rows={4} maxLength={sms.SMS_GSM7_MAX} data-testid="sms-send-content" />
        </Form.Item>
        <div style={{ color: 'rgba(0,0,0,.45)' }}>{S('hint')}</div>
      </Form>
    </Modal>
  );
}
