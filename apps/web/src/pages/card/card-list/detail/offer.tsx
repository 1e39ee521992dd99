import { useState, type ReactNode } from 'react';
import { LiveText } from '../../../../request/LiveText.tsx';
import { Alert, App, Button, Form, Modal, Tooltip, Typography } from 'antd';
import type { FormInstance } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { cardactions, formatDateTime, type ResponseOf } from '@lynx/contract';
import { usePerm } from '../../../../components/PermButton.tsx';
import { useCardQuery, useLang } from './sections.tsx';

type Offers = ResponseOf<typeof cardactions.getCardActions>;
export type Offer = Offers[number];
export type DetailAction = cardactions.CardDetailAction;

/**
 * What the card detail offers now (cardactions.getCardActions): the server's one rule for every action. `of(a)` is
 * undefined while the offers load (the buttons wait, disabled).
 */
export function useOffers(iccid: string) {
  const q = useCardQuery(cardactions.getCardActions, iccid);
  const by = new Map((q.data ?? []).map((o) => [o.action, o]));
  return { of: (a: DetailAction) => by.get(a), loading: q.isLoading };
}

/** The text that says why an action is not possible now (and when it will be, if it comes back by itself). */
export function useReason() {
  const { t, lang } = useLang();
  return (o: Offer | undefined): string | null => {
    if (!o || o.offer === 'allowed') return null;
    const why = o.reason?.[lang] ?? t('carddetail.actions.notNow');
    return o.availableAt ? `${why} · ${t('carddetail.actions.availableAt', { time: formatDateTime(o.availableAt) })}` : why;
  };
}

/** How an action's button shows: not at all (`shown` false), disabled with the reason, or enabled. */
export interface ActionView {
  shown: boolean;
  enabled: boolean;
  reason: string | null;
}

/**
 * One action: not shown without its button code or when it does not apply to the card (hidden); disabled with the
 * reason on hover when the card's state does not allow it now; otherwise enabled.
 */
export function useActionView(action: DetailAction, offer: Offer | undefined): ActionView {
  const permitted = usePerm(cardactions.CARD_ACTION_PERM[action]);
  const reason = useReason()(offer);
  return { shown: permitted && offer?.offer !== 'hidden', enabled: offer?.offer === 'allowed', reason };
}

/**
 * A button that stands for several actions (change status, block / permit): shown when the user holds their button
 * code, enabled when any of them is allowed now, else disabled with `noneReason` (or the one reason they share).
 */
export function useGroupView(actions: readonly DetailAction[], of: (a: DetailAction) => Offer | undefined, noneReason: string): ActionView {
  const permitted = usePerm(cardactions.CARD_ACTION_PERM[actions[0]]);
  const reasonOf = useReason();
  const offers = actions.map(of);
  const loaded = offers.every((o) => o !== undefined);
  const enabled = offers.some((o) => o?.offer === 'allowed');
  const reasons = [...new Set(offers.map(reasonOf).filter((r): r is string => !!r))];
  return {
    shown: permitted && offers.some((o) => o?.offer !== 'hidden'),
    enabled,
    reason: enabled || !loaded ? null : reasons.length === 1 ? reasons[0] : noneReason,
  };
}

/** A disabled button keeps its tooltip (a disabled button fires no mouse events itself, so a span carries it). */
export function ReasonTip({ reason, children }: { reason: string | null; children: ReactNode }) {
  if (!reason) return <>{children}</>;
  return (
    <Tooltip title={reason}>
      <span style={{ display: 'inline-block' }} data-reason={reason}>{children}</span>
    </Tooltip>
  );
}

/**
 * One action of the detail page: a button gated by its offer, a form in a dialog, a confirmation, the call. A refusal
 * (the card changed meanwhile) stays in the dialog with the server's message (the spec's text).
 */
export function ActionModal<V extends Record<string, any>>({ view, testId, label, icon, title, hint, initial, children, confirm, run, okText }: {
  view: ActionView; testId: string; label: string; icon: ReactNode; title: string; hint?: ReactNode; initial?: Partial<V>;
  /** the confirm button's text: what the action does (Send, …); Save by default */
  okText?: string;
  children: (form: FormInstance<V>) => ReactNode; confirm: (v: V) => string; run: (v: V) => Promise<unknown>;
}) {
  const { t } = useLang();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [form] = Form.useForm<V>();
  if (!view.shown) return null;
  const submit = async () => {
    const v = await form.validateFields();
    modal.confirm({
      title: t('carddetail.actions.confirmTitle'),
      content: confirm(v),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await run(v);
          message.success(<LiveText k="common.operationSuccess" />);
          setOpen(false);
          // every section on screen (the offers too, and the card list) reads again
          await qc.invalidateQueries();
        } catch (e) {
          setError(e instanceof Error ? e.message : String(e));
        }
      },
    });
  };
  return (
    <>
      <ReasonTip reason={view.enabled ? null : view.reason}>
        <Button icon={icon} disabled={!view.enabled} data-testid={`action-${testId}`}
          onClick={() => { setError(null); form.resetFields(); setOpen(true); }}>{label}</Button>
      </ReasonTip>
      <Modal open={open} title={title} onCancel={() => setOpen(false)} onOk={() => void submit()} okText={okText ?? t('common.save')} cancelText={t('common.cancel')} destroyOnHidden>
        {hint && <Typography.Paragraph type="secondary">{hint}</Typography.Paragraph>}
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
        <Form form={form} layout="vertical" initialValues={initial} preserve={false}>{children(form)}</Form>
      </Modal>
    </>
  );
}
