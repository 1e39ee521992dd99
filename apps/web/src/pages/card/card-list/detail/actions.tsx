import { useState } from 'react';
import { LiveText } from '../../../../request/LiveText.tsx';
import { App, Button, Form, Input, InputNumber, Popconfirm, Select, Space, Typography } from 'antd';
import type { FormInstance } from 'antd';
import {
  BranchesOutlined, CloudDownloadOutlined, EditOutlined, GiftOutlined, MedicineBoxOutlined, MessageOutlined, PoweroffOutlined, ReloadOutlined, StopOutlined, SyncOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { CardState, carddata, carddetail, cardcat, diagnose, NetworkType, formatMoney, simtraffic, type ResponseOf } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { usePerm } from '../../../../components/PermButton.tsx';
import { QrDownloadButton } from '../QrDownload.tsx';
import { useCardQuery, useLang } from './sections.tsx';
import { ActionModal, ReasonTip, useActionView, useGroupView, useOffers, useReason, type ActionView, type Offer } from './offer.tsx';

type Basic = ResponseOf<typeof carddetail.getCardDetail>;
const P = carddetail.CardDetailPerm;

/** A select option that is not possible now shows why, under its name. */
function optionLabel(name: string, reason: string | null) {
  return reason ? (
    <div style={{ whiteSpace: 'normal' }}>
      <div>{name}</div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>{reason}</Typography.Text>
    </div>
  ) : name;
}

/**
 * The card's actions. Which are offered and why the others are not comes from the server (useOffers: the lifecycle
 * engine's rule): without the button code an action is not shown; an action that does not apply to the card (renewal,
 * plan change, event packs without a plan) is not shown; one the card's state does not allow now is disabled with the
 * reason on hover.
 */
export function CardActions({ d }: { d: Basic }) {
  const { t, lang } = useLang();
  const iccid = d.iccid;
  const A = (k: string, o?: Record<string, unknown>) => t(`carddetail.actions.${k}`, o);
  const req = [{ required: true, message: t('carddetail.sms.required') }];
  const { of } = useOffers(iccid);
  const reasonOf = useReason();
  const canEdit = usePerm(P.Edit);
  const stateLabel = CardState.label(d.state, lang);
  const views = {
    edit: { shown: canEdit, enabled: true, reason: null } as ActionView,
    status: useGroupView(carddata.CARD_STATE_ACTIONS, of, A('noStateChange', { state: stateLabel })),
    renew: useActionView('renew', of('renew')),
    changePlan: useActionView('changePlan', of('changePlan')),
    orderPack: useActionView('orderEventPack', of('orderEventPack')),
    zone: useGroupView(['block', 'permit'], of, A('notNow')),
    sms: useActionView('sendSms', of('sendSms')),
    reset: useActionView('networkReset', of('networkReset')),
    qr: useActionView('downloadQr', of('downloadQr')),
    diagnose: useActionView('diagnose', of('diagnose')),
    simulate: useSimulateView(iccid),
  };
  const planOptions = useCardQuery(carddetail.getChangePlanOptions, iccid, views.changePlan.shown && views.changePlan.enabled);
  const packOptions = useCardQuery(carddetail.getEventPackOptions, iccid, views.orderPack.shown && views.orderPack.enabled);
  const cycle = useCardQuery(carddetail.getCardCycle, iccid);
  const policy = useCardQuery(carddetail.getCardPolicy, iccid, views.zone.shown);
  const labels = useQuery({ queryKey: [cardcat.getLabelOptions.name], queryFn: ({ signal }) => call(cardcat.getLabelOptions, {}, { signal, silent: true }), enabled: canEdit });
  const plan = cycle.data?.plan;
  const opt = (o: { goodsReleaseId: number; name: string; price: string }) => ({ value: o.goodsReleaseId, label: `${o.name} · ${formatMoney(o.price)}` });
  const nameOf = (list: { goodsReleaseId: number; name: string }[] | undefined, id: number) => list?.find((p) => p.goodsReleaseId === id)?.name ?? '';
  /** a choice inside a dialog (a state change, block or permit): disabled with its reason under it when not possible now (so a
   * chosen option, always an allowed one, shows its plain name) */
  const choice = (value: string, name: string, offer: Offer | undefined) => {
    const reason = offer?.offer === 'allowed' ? null : reasonOf(offer);
    return { value, label: optionLabel(name, reason), disabled: offer?.offer !== 'allowed', title: reason ?? name };
  };

  return (
    <Space wrap data-testid="card-actions">
      <ActionModal<{ custom1?: string; custom2?: string; labelIds?: number[] }> view={views.edit} testId="edit" label={A('edit')} icon={<EditOutlined />} title={t('carddetail.edit.title')}
        initial={{ custom1: d.custom1 ?? '', custom2: d.custom2 ?? '', labelIds: d.labels.map((l) => l.labelId) }}
        confirm={() => t('carddetail.edit.title') + ` ${iccid}?`}
        run={(v) => call(carddetail.editCard, { iccid, custom1: v.custom1 ?? null, custom2: v.custom2 ?? null, labelIds: v.labelIds ?? [] }, { silent: true })}>
        {() => (
          <>
            <Form.Item name="custom1" label={t('carddetail.f.custom1')}><Input maxLength={carddetail.CARD_CUSTOM_FIELD_MAX} allowClear /></Form.Item>
            <Form.Item name="custom2" label={t('carddetail.f.custom2')}><Input maxLength={carddetail.CARD_CUSTOM_FIELD_MAX} allowClear /></Form.Item>
            <Form.Item name="labelIds" label={t('carddetail.edit.labels')} extra={t('carddetail.edit.labelsHint')}>
              <Select mode="multiple" allowClear optionFilterProp="label" loading={labels.isFetching} options={(labels.data ?? []).map((l) => ({ value: l.labelId, label: l.name }))} />
            </Form.Item>
          </>
        )}
      </ActionModal>

      <ActionModal<{ action: (typeof carddata.CARD_STATE_ACTIONS)[number]; reason?: string }> view={views.status} testId="changeStatus" label={A('changeStatus')} icon={<PoweroffOutlined />} title={t('carddetail.status.title')}
        confirm={(v) => t('carddetail.status.confirm', { iccid, action: t(`carddetail.status.a.${v.action}`) })}
        run={(v) => call(carddata.changeCardStatus, { iccid, action: v.action, reason: v.reason || undefined }, { silent: true })}>
        {() => (
          <>
            <Form.Item name="action" label={t('carddetail.status.action')} rules={req}>
              {/* what the state allows first, then the rest with why not */}
              <Select listHeight={320} options={carddata.CARD_STATE_ACTIONS.map((a) => choice(a, t(`carddetail.status.a.${a}`), of(a)))
                .sort((x, y) => Number(x.disabled) - Number(y.disabled))} />
            </Form.Item>
            <Form.Item name="reason" label={A('reason')}><Input.TextArea maxLength={carddata.CARD_CHANGE_REASON_MAX} showCount rows={2} /></Form.Item>
          </>
        )}
      </ActionModal>

      <ActionModal<{ periods: number }> view={views.renew} testId="renew" label={A('renew')} icon={<ReloadOutlined />} title={t('carddetail.renew.title')} initial={{ periods: 1 }}
        hint={t('carddetail.renew.hint', { months: plan?.durationMonths ?? '-' })}
        confirm={(v) => t('carddetail.renew.confirm', { n: v.periods })}
        run={(v) => call(carddetail.renewCard, { iccid, periods: v.periods }, { silent: true })}>
        {() => <Form.Item name="periods" label={t('carddetail.renew.periods')} rules={req}><InputNumber min={1} max={carddetail.CARD_RENEW_PERIODS_MAX} precision={0} /></Form.Item>}
      </ActionModal>

      <ActionModal<{ goodsReleaseId: number }> view={views.changePlan} testId="changePlan" label={A('changePlan')} icon={<BranchesOutlined />} title={t('carddetail.changePlan.title')}
        hint={planOptions.data && !planOptions.data.length ? t('carddetail.changePlan.noOptions') : t('carddetail.changePlan.hint')}
        confirm={(v) => t('carddetail.changePlan.confirm', { name: nameOf(planOptions.data, v.goodsReleaseId) })}
        run={(v) => call(carddetail.changeCardPlan, { iccid, goodsReleaseId: v.goodsReleaseId }, { silent: true })}>
        {() => <Form.Item name="goodsReleaseId" label={t('carddetail.changePlan.target')} rules={req}><Select loading={planOptions.isFetching} options={(planOptions.data ?? []).map(opt)} /></Form.Item>}
      </ActionModal>

      <ActionModal<{ packId: number }> view={views.orderPack} testId="orderEventPack" label={A('orderPack')} icon={<GiftOutlined />} title={t('carddetail.orderPack.title')}
        hint={packOptions.data && !packOptions.data.length ? t('carddetail.orderPack.noOptions') : t('carddetail.orderPack.hint')}
        confirm={(v) => t('carddetail.orderPack.confirm', { name: nameOf(packOptions.data, v.packId) })}
        run={(v) => call(carddetail.orderEventPack, { iccid, packId: v.packId }, { silent: true })}>
        {() => <Form.Item name="packId" label={t('carddetail.orderPack.pack')} rules={req}><Select loading={packOptions.isFetching} options={(packOptions.data ?? []).map(opt)} /></Form.Item>}
      </ActionModal>

      <ActionModal<{ op: 'block' | 'permit'; target: string }> view={views.zone} testId="zone" label={A('blockZone')} icon={<StopOutlined />} title={t('carddetail.zone.title')}
        initial={{ op: of('block')?.offer === 'allowed' ? 'block' : undefined }}
        confirm={(v) => t('carddetail.zone.confirm', { op: t(`carddetail.policy.${v.op}`), name: targetName(v.target) })}
        run={(v) => {
          const [kind, id] = v.target.split(':');
          return call(carddetail.changeCardZone, { iccid, op: v.op, kind: kind as 'zone' | 'network', targetId: Number(id) }, { silent: true });
        }}>
        {() => (
          <>
            <Form.Item name="op" label={t('carddetail.zone.op')} rules={req}>
              <Select options={(['block', 'permit'] as const).map((o) => choice(o, t(`carddetail.policy.${o}`), of(o)))} />
            </Form.Item>
            <Form.Item name="target" label={t('carddetail.zone.target')} rules={req}>
              <Select options={[
                { label: t('carddetail.policy.zone'), options: (policy.data?.zones ?? []).map((z) => ({ value: `zone:${z.zoneId}`, label: z.zoneName })) },
                { label: t('carddetail.policy.network'), options: NetworkType.options(lang).map((n) => ({ value: `network:${n.value}`, label: n.label })) },
              ]} />
            </Form.Item>
          </>
        )}
      </ActionModal>

      <ActionModal<{ content: string }> view={views.sms} testId="sendSms" label={A('sms')} icon={<MessageOutlined />} title={t('carddetail.sms.send')} hint={t('carddetail.sms.hint')} okText={t('carddetail.sms.sendButton')}
        confirm={() => t('carddetail.sms.confirm', { msisdn: d.msisdn ?? iccid })}
        run={(v) => call(carddetail.sendCardSms, { iccid, content: v.content }, { silent: true })}>
        {(form) => <SmsField form={form} />}
      </ActionModal>

      <NetworkResetButton iccid={iccid} view={views.reset} />

      {views.qr.shown && (
        <ReasonTip reason={views.qr.enabled ? null : views.qr.reason}>
          <QrDownloadButton iccids={[iccid]} disabled={!views.qr.enabled} />
        </ReasonTip>
      )}

      <DiagnoseButton iccid={iccid} view={views.diagnose} />

      <ActionModal<{ dataMb: number }> view={views.simulate} testId="simulateUsage" label={t('carddetail.simulate.action')} icon={<CloudDownloadOutlined />}
        title={t('carddetail.simulate.title')} hint={t('carddetail.simulate.hint')} okText={t('carddetail.simulate.action')}
        confirm={(v) => t('carddetail.simulate.confirm', { iccid, mb: v.dataMb })}
        run={(v) => call(simtraffic.generateTraffic, { iccid, dataMb: v.dataMb }, { silent: true })}>
        {() => (
          <Form.Item name="dataMb" label={t('carddetail.simulate.mb')} rules={[{ required: true, message: t('carddetail.simulate.required') }]}>
            <InputNumber min={1} max={simtraffic.SIM_TRAFFIC_MAX_MB} precision={0} addonAfter={t('carddetail.simulate.mbUnit')} style={{ width: 200 }} />
          </Form.Item>
        )}
      </ActionModal>
    </Space>
  );

  function targetName(v: string) {
    const [kind, id] = v.split(':');
    if (kind === 'network') return NetworkType.label(Number(id), lang);
    return policy.data?.zones.find((z) => z.zoneId === Number(id))?.zoneName ?? '';
  }
}

/**
 * Generate usage on the network simulator (staff with the access configuration's test code): shown only for a card whose
 * operator is on the simulator; disabled with the server's reason when its device cannot use the network now.
 */
function useSimulateView(iccid: string): ActionView {
  const { lang } = useLang();
  const allowed = usePerm(simtraffic.SIM_TRAFFIC_PERM);
  const target = useQuery({
    queryKey: [simtraffic.getTrafficTarget.name, iccid],
    queryFn: ({ signal }) => call(simtraffic.getTrafficTarget, { iccid }, { signal, silent: true }),
    enabled: allowed,
  });
  const d = target.data;
  return { shown: allowed && !!d?.simulator, enabled: !!d?.available, reason: d?.reason ? d.reason[lang] : null };
}

/** Network reset from the card detail (the diagnosis page's button, same endpoint and rule: at most every 3 minutes). */
function NetworkResetButton({ iccid, view }: { iccid: string; view: ActionView }) {
  const { t } = useLang();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  if (!view.shown) return null;
  const reset = async () => {
    setBusy(true);
    try {
      const r = await call(diagnose.networkReset, { iccid }, { silent: true });
      if (r?.sentToOperator) message.success(<LiveText k="carddetail.actions.resetDone" />);
      else message.warning(t('carddetail.actions.resetNotSent'));
      await qc.invalidateQueries();
    } catch (e) {
      if (e instanceof Error) message.error(e.message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <ReasonTip reason={view.enabled ? null : view.reason}>
      <Popconfirm title={t('carddetail.actions.resetConfirm')} description={<div style={{ maxWidth: 320 }}>{t('carddetail.actions.resetDesc')}</div>}
        onConfirm={reset} okText={t('common.ok')} cancelText={t('common.cancel')} disabled={!view.enabled}>
        <Button icon={<SyncOutlined />} loading={busy} disabled={!view.enabled} data-testid="action-networkReset">{t('carddetail.actions.networkReset')}</Button>
      </Popconfirm>
    </ReasonTip>
  );
}

/** Opens the card's diagnosis (it runs at once). */
function DiagnoseButton({ iccid, view }: { iccid: string; view: ActionView }) {
  const { t } = useLang();
  const navigate = useNavigate();
  if (!view.shown) return null;
  return (
    <ReasonTip reason={view.enabled ? null : view.reason}>
      <Button icon={<MedicineBoxOutlined />} disabled={!view.enabled} data-testid="action-diagnose" onClick={() => navigate(`/shortcuts/diagnose/detail/${iccid}`)}>
        {t('carddetail.actions.diagnose')}
      </Button>
    </ReasonTip>
  );
}

function SmsField({ form }: { form: FormInstance }) {
  const { t } = useLang();
  const content: string = Form.useWatch('content', form) ?? '';
  const max = carddetail.smsMaxLength(content);
  return (
    <Form.Item name="content" label={t('carddetail.sms.content')} extra={t('carddetail.sms.counter', { n: content.length, max })}
      rules={[{ required: true, message: t('carddetail.sms.required') }, { max, message: t('carddetail.sms.counter', { n: content.length, max }) }]}>
      <Input.TextArea rows={4} maxLength={carddetail.SMS_GSM_MAX} />
    </Form.Item>
  );
}
