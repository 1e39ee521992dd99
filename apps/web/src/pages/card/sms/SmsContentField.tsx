import { Alert, Form, Input } from 'antd';
import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { sms } from '@lynx/contract';
import { smsCounter } from './shared.tsx';

/** The message of a batch SMS (the batch wizard's step 1), with its live length in its encoding. */
export function SmsContentField({ form }: { form: FormInstance }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const content: string = Form.useWatch('content', form) ?? '';
  const counter = smsCounter(content, t, lang);
  return (
    <>
      <Form.Item name="content" label={t('sms.batchContent')} extra={<span data-testid="batch-sms-counter">{counter.text}</span>}
        rules={[
          { required: true, whitespace: true, message: t('sms.send.contentRequired') },
          { validator: async (_r, v: string | undefined) => { if (v && !sms.smsLength(v).fits) throw new Error(counter.text); } },
        ]}>
        <Input.TextArea rows={3} maxLength={sms.SMS_GSM7_MAX} data-testid="batch-sms-content" />
      </Form.Item>
      <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('sms.batchHint')} />
    </>
  );
}
