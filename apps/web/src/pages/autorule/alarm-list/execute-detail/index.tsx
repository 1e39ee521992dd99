import { useCallback, useEffect, useState } from 'react';
import { Button, Result, Space, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { AutoRuleChannel, AutoRuleDeliveryState, WebhookDeliveryState, autorule, formatDateTime, webhook, withZoneLabel, type ResponseOf } from '@lynx/contract';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { usePerm } from '../../../../components/PermButton.tsx';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { usePageTitle } from '../../../../layout/pageTitle.ts';
import { DELIVERY_COLORS, autoRulePaths } from '../../shared.tsx';
import { WEBHOOK_STATE_COLORS, WebhookDrawer, replayable, useReplayWebhook } from './WebhookDrawer.tsx';

type DeliveryRow = ResponseOf<typeof autorule.getActionRecords>['list'][number];

/** Where a webhook notification's delivery stands: its state, and the receiver's last HTTP status when it failed. */
function WebhookCell({ w }: { w: DeliveryRow['webhook'] }) {
  const { t } = useTranslation();
  if (!w) return <>-</>;
  return (
    <Space size={4} data-testid={`webhook-cell-${w.deliveryId}`}>
      <StatusTag enumOf={WebhookDeliveryState} value={w.state} colors={WEBHOOK_STATE_COLORS} />
      {w.state !== WebhookDeliveryState.Delivered && w.lastHttpStatus !== null && <Typography.Text type="secondary">HTTP {w.lastHttpStatus}</Typography.Text>}
      {w.totalAttempts > 0 && <Typography.Text type="secondary">{t('autorule.webhook.tries', { n: w.totalAttempts })}</Typography.Text>}
    </Space>
  );
}

function DeliveryTable({ alarmId }: { alarmId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const A = (k: string) => t(`autorule.alarm.${k}`);
  const W = (k: string) => t(`autorule.webhook.${k}`);
  // ?iccid= (from a card of the trigger record) opens the list on that card's notifications
  const [params] = useSearchParams();
  const preset = params.get('iccid') ?? undefined;
  const table = useSearchTable(autorule.getActionRecords, {
    fixed: { alarmId }, initialFilters: preset ? { iccid: preset } : {},
    // a webhook due now is sent within a second or two: watch it land
    refetchInterval: (d) => (d?.list.some((r) => r.webhook?.state === WebhookDeliveryState.Pending) ? 3000 : false),
  });
  useEffect(() => {
    if (preset) table.form.setFieldsValue({ iccid: preset });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [preset]);
  const [open, setOpen] = useState<number | null>(null);
  const refresh = useCallback(() => void table.refresh(), [table]);
  const { canReplay, replay } = useReplayWebhook(refresh);
  // the rules' own code (5010000) also opens these records; a webhook delivery's attempts are the trigger records' (5020000)
  const canView = usePerm(webhook.getWebhookDeliveryDetail.perm);
  const fields: SearchField[] = [
    { name: 'iccid', label: A('iccid') },
    { name: 'channel', label: A('channel'), type: 'enum', enumOf: AutoRuleChannel },
    { name: 'state', label: A('state'), type: 'enum', enumOf: AutoRuleDeliveryState },
  ];
  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 12px' }}>{W('intro')}</Typography.Paragraph>
      <SearchTable<DeliveryRow>
        table={table} rowKey="deliveryId" fields={fields} emptyHint={W('empty')}
        title={<Space><Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(autoRulePaths.alarm(alarmId))}>{t('common.back')}</Button><span>{A('deliveries')}</span></Space>}
        columns={[
          { title: A('iccid'), dataIndex: 'iccid', width: 210, fixed: 'left' },
          { title: A('channel'), dataIndex: 'channel', width: 120, render: (v: number) => <StatusTag enumOf={AutoRuleChannel} value={v} /> },
          { title: A('state'), dataIndex: 'state', width: 150, render: (v: number) => <StatusTag enumOf={AutoRuleDeliveryState} value={v} colors={DELIVERY_COLORS} /> },
          { title: A('attempts'), dataIndex: 'attempts', width: 100, align: 'right' },
          { title: W('delivery'), dataIndex: 'webhook', width: 230, render: (w: DeliveryRow['webhook']) => <WebhookCell w={w} /> },
          { title: A('lastError'), dataIndex: 'lastError', width: 220, ellipsis: true, render: (v: string | null) => v ?? '-' },
          { title: withZoneLabel(A('createdAt')), dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
          { title: withZoneLabel(A('sentAt')), dataIndex: 'sentAt', width: 170, render: (v: string | null) => (v ? formatDateTime(v) : '-') },
          {
            title: t('common.actions'), key: 'ops', fixed: 'right', width: canReplay ? 170 : 100,
            render: (_: unknown, r) => (r.webhook && canView ? (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setOpen(r.webhook!.deliveryId)} data-testid={`webhook-open-${r.webhook.deliveryId}`}>{W('viewAttempts')}</Button>
                {canReplay && replayable(r.webhook.state) && (
                  <Button type="link" size="small" onClick={() => replay(r.webhook!.deliveryId)} data-testid={`webhook-replay-${r.webhook.deliveryId}`}>{W('replay')}</Button>
                )}
              </Space>
            ) : '-'),
          },
        ]}
      />
      <WebhookDrawer deliveryId={open} onClose={() => setOpen(null)} onChanged={refresh} />
    </>
  );
}

/**
 * /autorule/alarm-list/execute-detail/:ruleId/:actionId: the notifications of one trigger record (actionId), per card and
 * channel; a webhook one shows where its delivery stands, opens its attempts and replays it when it failed.
 */
export default function ExecuteDetail() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = Number(useParams().actionId);
  const alarmId = Number.isInteger(id) && id > 0 ? id : 0;
  usePageTitle(alarmId ? String(alarmId) : undefined);
  if (!alarmId) {
    return <div className="lx-card"><Result status="404" subTitle={t('common.notFound')} extra={<Button onClick={() => void navigate(autoRulePaths.alarms)}>{t('common.back')}</Button>} /></div>;
  }
  return <DeliveryTable alarmId={alarmId} />;
}
