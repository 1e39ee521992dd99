import { useState } from 'react';
import { LiveText } from '../../../request/LiveText.tsx';
import { Alert, App, Button, Form, Input, Modal, Radio, Space, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { cardcat, formatDateTime, validateLength } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { ruleOf } from '../../../components/rules.ts';
import { usePerm } from '../../../components/PermButton.tsx';

const DAY_MS = 86_400_000;

/** End a card's test (the lifecycle engine moves it into its inventory period) or extend it. */
export function TestCardActions({ iccid, testEndAt, size = 'small', type = 'link' }: {
  iccid: string; testEndAt: string | null; size?: 'small' | 'middle'; type?: 'link' | 'default';
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const allowed = usePerm(cardcat.CardCatalogPerm.TestCardUpdate);
  const [open, setOpen] = useState<'end' | 'extend' | null>(null);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ days?: number; reason?: string }>();
  const days = Form.useWatch('days', form);
  const T = (k: string, o?: Record<string, unknown>) => t(`cardcat.testCard.${k}`, o);
  if (!allowed) return null;

  const from = testEndAt && new Date(testEndAt).getTime() > Date.now() ? new Date(testEndAt).getTime() : Date.now();
  const show = (what: 'end' | 'extend') => {
    form.resetFields();
    form.setFieldsValue({ days: what === 'extend' ? 30 : undefined });
    setOpen(what);
  };
  const submit = async () => {
    let v: { days?: number; reason?: string };
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setBusy(true);
    try {
      const reason = v.reason?.trim() || undefined;
      await call(cardcat.updateTestCard, open === 'end' ? { iccid, action: 'end', reason } : { iccid, action: 'extend', days: v.days as 30, reason });
      message.success(<LiveText k="common.operationSuccess" />);
      void qc.invalidateQueries({ queryKey: [cardcat.getTestCardListPage.name] });
      void qc.invalidateQueries({ queryKey: [cardcat.getTestCardDetail.name] });
      setOpen(null);
    } catch {
      /* the refusal (e.g. beyond 12 months) is shown by the request layer; the dialog stays open */
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Space size={0}>
        <Button type={type} size={size} onClick={() => show('extend')} data-testid={`testcard-extend-${iccid}`}>{T('extend')}</Button>
        <Button type={type} size={size} danger onClick={() => show('end')} data-testid={`testcard-end-${iccid}`}>{T('end')}</Button>
      </Space>
      <Modal open={open !== null} title={open === 'end' ? T('endTitle') : T('extendTitle')} onCancel={() => setOpen(null)} onOk={() => void submit()}
        confirmLoading={busy} okText={open === 'end' ? T('end') : T('extend')} okButtonProps={{ danger: open === 'end' }} cancelText={t('common.cancel')} destroyOnHidden forceRender>
        <Form form={form} layout="vertical" disabled={busy}>
          {open === 'end' ? (
            <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={T('endConfirm', { iccid })} />
          ) : (
            <>
              <Form.Item name="days" label={T('days')} rules={[{ required: true }]}>
                <Radio.Group optionType="button" options={cardcat.TEST_EXTEND_DAYS.map((d) => ({ value: d, label: T('daysOption', { n: d }) }))} />
              </Form.Item>
              <Typography.Paragraph>
                {T('testEndAt')}{t('cardcat.testCard.colon')}{testEndAt ? formatDateTime(testEndAt) : '-'} → <b>{days ? formatDateTime(new Date(from + days * DAY_MS).toISOString()) : '-'}</b>
              </Typography.Paragraph>
              <Typography.Paragraph type="secondary">{T('limitHint')}</Typography.Paragraph>
            </>
          )}
          <Form.Item name="reason" label={T('reason')} extra={T('reasonHint')} rules={[ruleOf((v) => validateLength(v, cardcat.TEST_REASON_MAX))]}>
            <Input.TextArea rows={2} maxLength={cardcat.TEST_REASON_MAX} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
