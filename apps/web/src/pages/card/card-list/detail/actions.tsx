import { useState, type ReactNode } from 'react';
import { Alert, App, Button, Form, Input, InputNumber, Modal, Select, Space, Typography } from 'antd';
import type { FormInstance } from 'antd';
import { BranchesOutlined, EditOutlined, GiftOutlined, MessageOutlined, PoweroffOutlined, ReloadOutlined, StopOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { carddata, carddetail, cardcat, NetworkType, formatMoney, type ResponseOf } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { usePerm } from '../../../../components/PermButton.tsx';
import { QrDownloadButton } from '../QrDownload.tsx';
import { useCardQuery, useLang } from './sections.tsx';

type Basic = ResponseOf<typeof carddetail.getCardDetail>;
const P = carddetail.CardDetailPerm;

/**
 * One action of the detail page: a permission-gated button, a form in a dialog, a confirmation, the call.
 * A refusal stays in the dialog with the server's message (the spec's text).
 */
function ActionModal<V extends Record<string, any>>({ perm, label, icon, title, hint, initial, children, confirm, run, disabled }: {
  perm: number; label: string; icon: ReactNode; title: string; hint?: ReactNode; initial?: Partial<V>; disabled?: boolean;
  children: (form: FormInstance<V>) => ReactNode; confirm: (v: V) => string; run: (v: V) => Promise<unknown>;
}) {
  const { t } = useLang();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const allowed = usePerm(perm);
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [form] = Form.useForm<V>();
  if (!allowed) return null;
  const submit = async () => {
    const v = await form.validateFields();
    modal.confirm({
      title: t('carddetail.actions.confirmTitle'),
      content: confirm(v),
      onOk: async () => {
        try {
          await run(v);
          message.success(t('common.operationSuccess'));
          setOpen(false);
          // every section on screen (and the card list) reads again
          await qc.invalidateQueries();
        } catch (e) {
          setError(e instanceof Error ? e.message : String(e));
        }
      },
    });
  };
  return (
    <>
      <Button icon={icon} disabled={disabled} onClick={() => { setError(null); form.resetFields(); setOpen(true); }}>{label}</Button>
      <Modal open={open} title={title} onCancel={() => setOpen(false)} onOk={() => void submit()} okText={t('common.save')} cancelText={t('common.cancel')} destroyOnHidden>
        {hint && <Typography.Paragraph type="secondary">{hint}</Typography.Paragraph>}
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
        <Form form={form} layout="vertical" initialValues={initial} preserve={false}>{children(form)}</Form>
      </Modal>
    </>
  );
}

export function CardActions({ d }: { d: Basic }) {
  const { t, lang } = useLang();
  const iccid = d.iccid;
  const A = (k: string) => t(`carddetail.actions.${k}`);
  const req = [{ required: true, message: t('carddetail.sms.required') }];
  const canPlan = usePerm(P.ChangePlan);
  const canPack = usePerm(P.OrderPack);
  const canEdit = usePerm(P.Edit);
  const planOptions = useCardQuery(carddetail.getChangePlanOptions, iccid, canPlan);
  const packOptions = useCardQuery(carddetail.getEventPackOptions, iccid, canPack);
  const cycle = useCardQuery(carddetail.getCardCycle, iccid);
  const policy = useCardQuery(carddetail.getCardPolicy, iccid, canEdit);
  const labels = useQuery({ queryKey: [cardcat.getLabelOptions.name], queryFn: ({ signal }) => call(cardcat.getLabelOptions, {}, { signal, silent: true }), enabled: canEdit });
  const plan = cycle.data?.plan;
  const opt = (o: { goodsReleaseId: number; name: string; price: number }) => ({ value: o.goodsReleaseId, label: `${o.name} · ${formatMoney(o.price)}` });
  const nameOf = (list: { goodsReleaseId: number; name: string }[] | undefined, id: number) => list?.find((p) => p.goodsReleaseId === id)?.name ?? String(id);

  return (
    <Space wrap>
      <ActionModal<{ custom1?: string; custom2?: string; labelIds?: number[] }> perm={P.Edit} label={A('edit')} icon={<EditOutlined />} title={t('carddetail.edit.title')}
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

      <ActionModal<{ action: (typeof carddata.CARD_STATE_ACTIONS)[number]; reason?: string }> perm={P.ChangeStatus} label={A('changeStatus')} icon={<PoweroffOutlined />} title={t('carddetail.status.title')}
        confirm={(v) => t('carddetail.status.confirm', { iccid, action: t(`carddetail.status.a.${v.action}`) })}
        run={(v) => call(carddata.changeCardStatus, { iccid, action: v.action, reason: v.reason || undefined }, { silent: true })}>
        {() => (
          <>
            <Form.Item name="action" label={t('carddetail.status.action')} rules={req}>
              <Select options={carddata.CARD_STATE_ACTIONS.map((a) => ({ value: a, label: t(`carddetail.status.a.${a}`) }))} />
            </Form.Item>
            <Form.Item name="reason" label={A('reason')}><Input.TextArea maxLength={carddata.CARD_CHANGE_REASON_MAX} showCount rows={2} /></Form.Item>
          </>
        )}
      </ActionModal>

      <ActionModal<{ periods: number }> perm={P.Renew} label={A('renew')} icon={<ReloadOutlined />} title={t('carddetail.renew.title')} initial={{ periods: 1 }}
        hint={t('carddetail.renew.hint', { months: plan?.durationMonths ?? '-' })}
        confirm={(v) => t('carddetail.renew.confirm', { n: v.periods })}
        run={(v) => call(carddetail.renewCard, { iccid, periods: v.periods }, { silent: true })}>
        {() => <Form.Item name="periods" label={t('carddetail.renew.periods')} rules={req}><InputNumber min={1} max={carddetail.CARD_RENEW_PERIODS_MAX} precision={0} /></Form.Item>}
      </ActionModal>

      <ActionModal<{ goodsReleaseId: number }> perm={P.ChangePlan} label={A('changePlan')} icon={<BranchesOutlined />} title={t('carddetail.changePlan.title')}
        hint={planOptions.data && !planOptions.data.length ? t('carddetail.changePlan.noOptions') : t('carddetail.changePlan.hint')}
        confirm={(v) => t('carddetail.changePlan.confirm', { name: nameOf(planOptions.data, v.goodsReleaseId) })}
        run={(v) => call(carddetail.changeCardPlan, { iccid, goodsReleaseId: v.goodsReleaseId }, { silent: true })}>
        {() => <Form.Item name="goodsReleaseId" label={t('carddetail.changePlan.target')} rules={req}><Select loading={planOptions.isFetching} options={(planOptions.data ?? []).map(opt)} /></Form.Item>}
      </ActionModal>

      <ActionModal<{ packId: number }> perm={P.OrderPack} label={A('orderPack')} icon={<GiftOutlined />} title={t('carddetail.orderPack.title')}
        hint={packOptions.data && !packOptions.data.length ? t('carddetail.orderPack.noOptions') : t('carddetail.orderPack.hint')}
        confirm={(v) => t('carddetail.orderPack.confirm', { name: nameOf(packOptions.data, v.packId) })}
        run={(v) => call(carddetail.orderEventPack, { iccid, packId: v.packId }, { silent: true })}>
        {() => <Form.Item name="packId" label={t('carddetail.orderPack.pack')} rules={req}><Select loading={packOptions.isFetching} options={(packOptions.data ?? []).map(opt)} /></Form.Item>}
      </ActionModal>

      <ActionModal<{ op: 'block' | 'permit'; target: string }> perm={P.Edit} label={A('blockZone')} icon={<StopOutlined />} title={t('carddetail.zone.title')} initial={{ op: 'block' }}
        confirm={(v) => t('carddetail.zone.confirm', { op: t(`carddetail.policy.${v.op}`), name: targetName(v.target) })}
        run={(v) => {
          const [kind, id] = v.target.split(':');
          return call(carddetail.changeCardZone, { iccid, op: v.op, kind: kind as 'zone' | 'network', targetId: Number(id) }, { silent: true });
        }}>
        {() => (
          <>
            <Form.Item name="op" label={t('carddetail.zone.op')} rules={req}>
              <Select options={(['block', 'permit'] as const).map((o) => ({ value: o, label: t(`carddetail.policy.${o}`) }))} />
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

      <ActionModal<{ content: string }> perm={P.SendSms} label={A('sms')} icon={<MessageOutlined />} title={t('carddetail.sms.send')} hint={t('carddetail.sms.hint')}
        confirm={() => t('carddetail.sms.confirm', { msisdn: d.msisdn ?? iccid })}
        run={(v) => call(carddetail.sendCardSms, { iccid, content: v.content }, { silent: true })}>
        {(form) => <SmsField form={form} />}
      </ActionModal>

      <QrDownloadButton iccids={[iccid]} />
    </Space>
  );

  function targetName(v: string) {
    const [kind, id] = v.split(':');
    if (kind === 'network') return NetworkType.label(Number(id), lang);
    return policy.data?.zones.find((z) => z.zoneId === Number(id))?.zoneName ?? id;
  }
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
