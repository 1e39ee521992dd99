import { useState } from 'react';
import { Alert, App, Checkbox, Empty, Form, Input, Skeleton, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiservice, formatDateTime, Perm, validateCallbackUrl, validateLength, WebhookEventType, withZoneLabel, type Lang } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { LiveText } from '../../../../request/LiveText.tsx';
import { PermButton } from '../../../../components/PermButton.tsx';
import { ruleOf } from '../../../../components/rules.ts';

const s = (key: string) => `doc.api.subscribe.${key}`;
const CALLBACK_MAX = 300;

export const apiSubscriptionQuery = (custId: number | undefined) => ({
  queryKey: [apiservice.getApiSubscription.name, custId ?? 'self'],
  queryFn: ({ signal }: { signal: AbortSignal }) => call(apiservice.getApiSubscription, { custId }, { signal }),
});

/**
 * Tab "Ability subscription": the customer's one callback address and the event types it receives (spec §7
 * "ability subscribe", §9 one API address). Events need an address; the server says so too.
 */
export function Subscription({ custId }: { custId: number | undefined }) {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message } = App.useApp();
  const qc = useQueryClient();
  const sub = useQuery(apiSubscriptionQuery(custId));
  const [busy, setBusy] = useState(false);

  if (sub.isPending) return <Skeleton active />;
  if (!sub.data) return <Empty description={t('common.empty')} />;
  const d = sub.data;

  const save = async (v: { callbackUrl?: string; eventTypes?: number[] }) => {
    setBusy(true);
    try {
      await call(apiservice.saveApiSubscription, { custId, callbackUrl: v.callbackUrl?.trim() || null, eventTypes: v.eventTypes ?? [] });
      message.success(<LiveText k="common.operationSuccess" />);
      // the address is also the API configuration's
      await Promise.all([
        qc.invalidateQueries({ queryKey: [apiservice.getApiSubscription.name] }),
        qc.invalidateQueries({ queryKey: [apiservice.getApiConfig.name] }),
      ]);
    } catch {
      /* the request layer showed the reason */
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Typography.Paragraph type="secondary">{t(s('intro'))}</Typography.Paragraph>
      {!d.callbackUrl && <Alert type="info" showIcon title={t(s('noAddress'))} style={{ marginBottom: 16 }} />}
      <Form
        key={`${d.custId}-${sub.dataUpdatedAt}`}
        layout="vertical"
        style={{ maxWidth: 640 }}
        initialValues={{ callbackUrl: d.callbackUrl ?? '', eventTypes: d.eventTypes }}
        onFinish={save}
      >
        <Form.Item
          name="callbackUrl"
          label={t(s('callbackUrl'))}
          extra={t(s('callbackHint'))}
          rules={[ruleOf(validateCallbackUrl, { optional: true }), ruleOf((v) => validateLength(v, CALLBACK_MAX), { optional: true })]}
        >
          <Input allowClear placeholder="https://" maxLength={CALLBACK_MAX} data-testid="api-subscribe-url" />
        </Form.Item>
        <Form.Item
          name="eventTypes"
          label={t(s('events'))}
          extra={t(s('eventsHint'))}
          dependencies={['callbackUrl']}
          rules={[
            ({ getFieldValue }) => ({
              validator: (_r, value: number[] | undefined) =>
                value?.length && !String(getFieldValue('callbackUrl') ?? '').trim() ? Promise.reject(new Error(t(s('needAddress')))) : Promise.resolve(),
            }),
          ]}
        >
          <Checkbox.Group
            style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
            options={WebhookEventType.options(lang)}
            data-testid="api-subscribe-events"
          />
        </Form.Item>
        {d.updatedAt && (
          <Typography.Paragraph type="secondary">
            {withZoneLabel(t(s('updatedAt')))}: {formatDateTime(d.updatedAt)}
          </Typography.Paragraph>
        )}
        <PermButton perm={Perm.HomeApiManage} type="primary" htmlType="submit" loading={busy} data-testid="api-subscribe-save">
          {t('common.save')}
        </PermButton>
      </Form>
    </>
  );
}
