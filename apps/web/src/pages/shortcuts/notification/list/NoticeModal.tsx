import { useEffect } from 'react';
import { DatePicker, Form, Input, Modal, Radio, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { ErrorCode, SendMode, countChars, notice, validateLength, withZoneLabel, type ResponseOf } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { required, ruleOf } from '../../../../components/rules.ts';
import { businessNow, businessTodayPicker, instantToPicker, pickerToInstant } from '../../../../components/businessTime.ts';
import { useFormSave } from '../../../../components/useFormSave.ts';

export type NoticeRecord = ResponseOf<typeof notice.getNotificationListPage>['list'][number];

interface NoticeForm {
  content: string;
  englishContent: string;
  sendMode: number;
  sendTime?: Dayjs | null;
  endDate: Dayjs;
}

const LIMITS = { content: 500, englishContent: 1000 } as const;
const TIME_FORMAT = 'YYYY-MM-DD HH:mm';

/** Add or edit an announcement; the window (send time, end date) is checked here before the server checks it (20038). */
export function NoticeModal({ open, record, onClose, onSaved }: { open: boolean; record: NoticeRecord | null; onClose: () => void; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [form] = Form.useForm<NoticeForm>();
  const { busy, save: persist } = useFormSave(form, { [ErrorCode.EndBeforeSend]: 'endDate' });
  const mode = Form.useWatch('sendMode', form);
  const timed = mode === SendMode.Timed;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      record
        ? {
            content: record.content, englishContent: record.englishContent, sendMode: record.sendMode,
            sendTime: record.sendMode === SendMode.Timed ? instantToPicker(record.sendTime) : null, endDate: instantToPicker(record.endDate) ?? undefined,
          }
        : { sendMode: SendMode.Immediate, sendTime: null },
    );
  }, [open, record, form]);

  const text = (max: number): Rule[] => [{ ...required(), whitespace: true }, ruleOf((v) => validateLength(v, max))];

  const endRule: Rule = ({ getFieldValue }) => ({
    validator: async (_rule, value: Dayjs | null) => {
      if (!value) return;
      const send: Dayjs | null = getFieldValue('sendMode') === SendMode.Timed ? getFieldValue('sendTime') : null;
      if (send && !value.isAfter(send)) throw new Error(t('notice.endAfterSend'));
      if (!value.isAfter(businessNow())) throw new Error(t('notice.endAfterNow'));
    },
  });

  const save = async () => {
    let v: NoticeForm;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const body = {
      content: v.content.trim(),
      englishContent: v.englishContent.trim(),
      sendMode: v.sendMode,
      ...(v.sendMode === SendMode.Timed && v.sendTime && { sendTime: pickerToInstant(v.sendTime) }),
      endDate: pickerToInstant(v.endDate),
    };
    const saved = await persist(() =>
      record ? call(notice.updateNotification, { id: record.id, ...body }, { silent: true }) : call(notice.saveNotification, body, { silent: true }),
    );
    if (saved) {
      onSaved();
      onClose();
    }
  };

  return (
    <Modal
      open={open}
      title={record ? t('notice.edit') : t('notice.add')}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      width={640}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" disabled={busy} style={{ marginTop: 12 }}>
        <Form.Item name="content" label={t('notice.content')} rules={text(LIMITS.content)}>
          <Input.TextArea rows={3} count={{ show: true, max: LIMITS.content, strategy: countChars }} data-testid="notice-content" />
        </Form.Item>
        <Form.Item name="englishContent" label={t('notice.englishContent')} rules={text(LIMITS.englishContent)}>
          <Input.TextArea rows={3} count={{ show: true, max: LIMITS.englishContent, strategy: countChars }} data-testid="notice-english" />
        </Form.Item>
        <Form.Item name="sendMode" label={t('notice.sendMode')} rules={[required()]} extra={timed ? t('notice.timedHint') : t('notice.immediateHint')}>
          <Radio.Group
            options={SendMode.options(lang)}
            onChange={() => form.setFields([{ name: 'sendTime', errors: [] }])}
          />
        </Form.Item>
        <Form.Item
          name="sendTime"
          label={withZoneLabel(t('notice.sendTime'))}
          dependencies={['sendMode']}
          rules={[{ required: timed, message: t('common.required') }]}
        >
          <DatePicker showTime={{ format: 'HH:mm' }} format={TIME_FORMAT} disabled={!timed} style={{ width: '100%' }} data-testid="notice-send-time" />
        </Form.Item>
        <Form.Item name="endDate" label={withZoneLabel(t('notice.endDate'))} dependencies={['sendMode', 'sendTime']} rules={[required(), endRule]}>
          <DatePicker
            showTime={{ format: 'HH:mm' }}
            format={TIME_FORMAT}
            style={{ width: '100%' }}
            disabledDate={(d) => d.isBefore(businessTodayPicker(), 'day')}
            data-testid="notice-end-date"
          />
        </Form.Item>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('notice.bannerHint')}</Typography.Text>
      </Form>
    </Modal>
  );
}
