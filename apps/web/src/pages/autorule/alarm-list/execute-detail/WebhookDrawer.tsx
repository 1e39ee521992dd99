import { useEffect, useRef } from 'react';
import { App, Button, Descriptions, Drawer, Empty, Result, Skeleton, Table, Typography, type ButtonProps } from 'antd';
import { RedoOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { WebhookAttemptOutcome, WebhookDeliveryState, WebhookEventType, formatDateTime, webhook, withZoneLabel, type ResponseOf } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { usePerm } from '../../../../components/PermButton.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { Section } from '../../../../components/Section.tsx';

type Detail = ResponseOf<typeof webhook.getWebhookDeliveryDetail>;
type Attempt = Detail['attempts'][number];

export const WEBHOOK_STATE_COLORS: Record<number, string> = {
  [WebhookDeliveryState.Pending]: 'processing', [WebhookDeliveryState.Retrying]: 'warning',
  [WebhookDeliveryState.Delivered]: 'success', [WebhookDeliveryState.Dead]: 'error',
};
const OUTCOME_COLORS: Record<number, string> = {
  [WebhookAttemptOutcome.Success]: 'success', [WebhookAttemptOutcome.HttpError]: 'error', [WebhookAttemptOutcome.NetworkError]: 'error',
  [WebhookAttemptOutcome.Timeout]: 'warning', [WebhookAttemptOutcome.NoAddress]: 'default', [WebhookAttemptOutcome.Interrupted]: 'warning',
};

/** A failed delivery (retrying or dead letter) can be replayed; the server refuses any other (21020). */
export const replayable = (state: number) => state === WebhookDeliveryState.Retrying || state === WebhookDeliveryState.Dead;

/**
 * Replay of a failed webhook delivery, after a confirmation that says what happens: a new attempt series now, to the
 * customer's current callback address, same event id. The page's own code (5020000) is the endpoint's: the trigger
 * records have no button codes. Errors (21020 not replayable, 21021 no address, 21022 in flight) show as the server words them.
 */
export function useReplayWebhook(onDone: () => void) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const canReplay = usePerm(webhook.replayWebhookDelivery.perm);
  const W = (k: string, o?: Record<string, unknown>) => t(`autorule.webhook.${k}`, o);
  const replay = (deliveryId: number) => modal.confirm({
    title: W('replayTitle', { id: deliveryId }), content: W('replayContent'), okText: W('replay'), cancelText: t('common.cancel'),
    okButtonProps: { 'data-testid': 'webhook-replay-ok' } as ButtonProps,
    onOk: async () => {
      try {
        const d = await call(webhook.replayWebhookDelivery, { deliveryId });
        message.success(W('replayed', { series: d.series }));
      } finally {
        onDone();
      }
    },
  });
  return { canReplay, replay };
}

/** One webhook delivery of a trigger record: where it went, how it stands, every attempt newest first, and replay. */
export function WebhookDrawer({ deliveryId, onClose, onChanged }: { deliveryId: number | null; onClose: () => void; onChanged: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const W = (k: string, o?: Record<string, unknown>) => t(`autorule.webhook.${k}`, o);
  const q = useQuery({
    // the server words the errors in the reader's language: a language switch loads them again
    queryKey: [webhook.getWebhookDeliveryDetail.name, deliveryId, lang],
    queryFn: ({ signal }) => call(webhook.getWebhookDeliveryDetail, { deliveryId: deliveryId! }, { signal, silent: true }),
    enabled: deliveryId !== null,
    // while an attempt is due now or in flight, watch it land
    refetchInterval: (query) => {
      const d = query.state.data;
      return d && (d.delivery.state === WebhookDeliveryState.Pending || d.attempts.some((a) => a.outcome === null)) ? 1500 : false;
    },
  });
  const { canReplay, replay } = useReplayWebhook(() => void q.refetch());
  const d = q.data;
  const w = d?.delivery;
  // the list behind shows the delivery's state too: refresh it when the state here moves
  const seen = useRef<string | null>(null);
  useEffect(() => {
    if (!w) return;
    const key = `${w.deliveryId}:${w.state}:${w.totalAttempts}`;
    if (seen.current !== null && seen.current !== key && seen.current.startsWith(`${w.deliveryId}:`)) onChanged();
    seen.current = key;
  }, [w, onChanged]);

  const columns = [
    { title: W('attemptNo'), key: 'no', width: 140, render: (_: unknown, a: Attempt) => <span style={{ whiteSpace: 'nowrap' }}>{W('attemptRef', { series: a.series, no: a.attemptNo })}</span> },
    { title: withZoneLabel(W('startedAt')), dataIndex: 'startedAt', width: 170, render: (v: string) => formatDateTime(v) },
    {
      title: W('outcome'), dataIndex: 'outcome', width: 110,
      render: (v: number | null) => (v === null ? <StatusTag enumOf={WebhookDeliveryState} value={WebhookDeliveryState.Pending} colors={WEBHOOK_STATE_COLORS} />
        : <StatusTag enumOf={WebhookAttemptOutcome} value={v} colors={OUTCOME_COLORS} />),
    },
    { title: W('httpStatus'), dataIndex: 'httpStatus', width: 110, align: 'right' as const, render: (v: number | null) => v ?? '-' },
    { title: W('latency'), dataIndex: 'latencyMs', width: 90, align: 'right' as const, render: (v: number | null) => (v === null ? '-' : W('ms', { n: v })) },
    {
      title: W('error'), key: 'error', ellipsis: { showTitle: false },
      render: (_: unknown, a: Attempt) => {
        // what went wrong, and what the receiver said when it answered
        const text = [a.error, a.responseExcerpt].filter(Boolean).join(' · ');
        return text ? <Typography.Text type={a.error ? 'danger' : undefined} ellipsis={{ tooltip: text }}>{text}</Typography.Text> : '-';
      },
    },
  ];

  return (
    <Drawer open={deliveryId !== null} onClose={onClose} size={980} destroyOnHidden data-testid="webhook-drawer"
      title={W('title', { id: deliveryId ?? '' })}
      extra={w && canReplay && replayable(w.state) && (
        <Button type="primary" icon={<RedoOutlined />} onClick={() => replay(w.deliveryId)} data-testid="webhook-replay">{W('replay')}</Button>
      )}>
      {q.isError && <Result status="warning" subTitle={W('loadFailed')} extra={<Button onClick={() => void q.refetch()}>{t('common.retry')}</Button>} />}
      {!q.isError && !d && <Skeleton active />}
      {d && w && (
        <>
          <Descriptions bordered size="small" column={{ xs: 1, md: 2 }} items={[
            { key: 'state', label: W('state'), children: <span data-testid="webhook-state"><StatusTag enumOf={WebhookDeliveryState} value={w.state} colors={WEBHOOK_STATE_COLORS} /></span> },
            { key: 'event', label: W('event'), children: `${WebhookEventType.label(w.eventType, lang)} (${w.eventName} v${w.eventVersion})` },
            { key: 'id', label: W('eventId'), children: <Typography.Text copyable>{w.eventId}</Typography.Text> },
            { key: 'cust', label: W('customer'), children: w.custName },
            { key: 'url', span: 2, label: W('url'), children: <Typography.Text copyable>{w.url}</Typography.Text> },
            { key: 'n', label: W('attempts'), children: W('attemptsOf', { n: w.attempts, max: w.maxAttempts, series: w.series, total: w.totalAttempts }) },
            { key: 'at', label: withZoneLabel(W('createdAt')), children: formatDateTime(w.createdAt) },
            ...(w.nextAt ? [{ key: 'next', label: withZoneLabel(W('nextAt')), children: formatDateTime(w.nextAt) }] : []),
            ...(w.deliveredAt ? [{ key: 'done', label: withZoneLabel(W('deliveredAt')), children: formatDateTime(w.deliveredAt) }] : []),
            ...(w.deadAt ? [{ key: 'dead', label: withZoneLabel(W('deadAt')), children: formatDateTime(w.deadAt) }] : []),
            ...(w.lastError && w.state !== WebhookDeliveryState.Delivered
              ? [{ key: 'err', span: 2, label: W('lastError'), children: <Typography.Text type="danger">{w.lastError}</Typography.Text> }] : []),
          ]} />
          {w.state === WebhookDeliveryState.Dead && (
            <Typography.Paragraph type="secondary" style={{ margin: '12px 0 0' }}>{W(canReplay ? 'deadHint' : 'deadHintNoPerm')}</Typography.Paragraph>
          )}
          <Section title={W('attemptsTitle')} testId="webhook-attempts">
            <Table<Attempt> size="small" rowKey="attemptId" pagination={false} dataSource={d.attempts} columns={columns} tableLayout="fixed"
              locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={w.nextAt ? W('noAttemptsDue', { at: formatDateTime(w.nextAt) }) : W('noAttempts')} /> }} />
          </Section>
        </>
      )}
    </Drawer>
  );
}
