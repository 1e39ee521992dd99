import { App, Switch, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { BillAutoActionResult, BillAutoExecState, BillAutoSwitch, BillAutoWriteOffMode, billautomate, type ResponseOf } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { usePerm } from '../../../components/PermButton.tsx';

export type RuleRow = ResponseOf<typeof billautomate.getBillAutomateDetail>;
export type ExecRow = ResponseOf<typeof billautomate.getBillAutomateExecPage>['list'][number];
export const { BillAutoPerm } = billautomate;

/** The screens of Billing › Automated ledger (spec §2). */
export const autoLedgerPaths = {
  list: '/billing/billAutomateLedger/list',
  /** one rule with its executions; without an id every execution the user sees */
  detail: (ruleId?: number) => `/billing/billAutomateLedger/detail${ruleId ? `/${ruleId}` : ''}`,
};

export const EXEC_STATE_COLORS: Record<number, string> = {
  [BillAutoExecState.Waiting]: 'processing', [BillAutoExecState.Done]: 'success', [BillAutoExecState.Attention]: 'error', [BillAutoExecState.Skipped]: 'default',
};
export const RESULT_COLORS: Record<number, string> = {
  [BillAutoActionResult.NotAsked]: 'default', [BillAutoActionResult.Done]: 'success', [BillAutoActionResult.AlreadyDone]: 'default',
  [BillAutoActionResult.Waiting]: 'processing', [BillAutoActionResult.Skipped]: 'warning', [BillAutoActionResult.Failed]: 'error',
};

/** The rule's actions in words: "Publish bill + Write off bill (Whole amount only …)". */
export function useActionsText() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [open, close] = lang === 'en' ? [' (', ')'] : ['（', '）'];
  return (r: Pick<RuleRow, 'publish' | 'writeOff' | 'writeOffMode'>) => [
    r.publish ? t('billautomate.f.publish') : null,
    r.writeOff ? `${t('billautomate.f.writeOff')}${open}${BillAutoWriteOffMode.label(r.writeOffMode, lang)}${close}` : null,
  ].filter(Boolean).join(' + ');
}

/** The day a rule acts on a period: its day in the month after the period ('2026-10', 28 → '2026-11-28'). */
export function execDayOf(periodKey: string, dayOfMonth: number): string {
  const [y, m] = periodKey.split('-').map(Number);
  const month = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
  return `${month}-${String(dayOfMonth).padStart(2, '0')}`;
}

/** When a rule acts next: on its day, or (an execution waiting for the bill) every hour from the day it came. */
export function useNextText() {
  const { t } = useTranslation();
  return (r: RuleRow) => {
    if (!r.nextDay) return '-';
    const waiting = r.lastExec?.periodKey === r.nextPeriod && r.lastExec.state === BillAutoExecState.Waiting;
    return t(waiting ? 'billautomate.retrying' : 'billautomate.nextAt', { day: waiting ? execDayOf(r.nextPeriod!, r.dayOfMonth) : r.nextDay, period: r.nextPeriod });
  };
}

/** Switching with a confirmation, and deleting: the list's and the detail's actions. */
export function useRuleActions(onDone: () => void) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const C = (k: string, o?: Record<string, unknown>) => t(`billautomate.confirm.${k}`, o);
  const toggle = (r: RuleRow, on: boolean) => modal.confirm({
    title: C(on ? 'onTitle' : 'offTitle'),
    content: C(on ? 'onContent' : 'offContent', { cust: r.custName, day: t('billautomate.dayOfMonth', { day: r.dayOfMonth }) }),
    okText: t(on ? 'billautomate.action.on' : 'billautomate.action.off'),
    okButtonProps: { danger: !on, 'data-testid': 'auto-ledger-switch-confirm' } as ButtonProps,
    cancelText: t('common.cancel'),
    onOk: async () => {
      try {
        await call(billautomate.switchBillAutomateRule, { ruleId: r.ruleId, enabled: on ? 1 : 0 });
        message.success(t(on ? 'billautomate.done.on' : 'billautomate.done.off'));
      } finally {
        onDone();
      }
    },
  });
  const remove = (r: RuleRow, after?: () => void) => modal.confirm({
    title: C('deleteTitle'),
    content: C('deleteContent', { cust: r.custName }),
    okText: t('common.delete'),
    okButtonProps: { danger: true, 'data-testid': 'auto-ledger-delete-confirm' } as ButtonProps,
    cancelText: t('common.cancel'),
    onOk: async () => {
      try {
        await call(billautomate.deleteBillAutomateRule, { ruleId: r.ruleId });
        message.success(t('billautomate.done.deleted'));
        after?.();
      } finally {
        onDone();
      }
    },
  });
  return { toggle, remove };
}

/** The on/off switch of a rule: asks before it changes anything; read-only without 4060004. */
export function RuleSwitch({ rule, onToggle }: { rule: RuleRow; onToggle: (r: RuleRow, on: boolean) => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const canSwitch = usePerm(BillAutoPerm.Switch);
  return (
    <Switch size="small" checked={rule.enabled === 1} disabled={!canSwitch} onChange={(on) => onToggle(rule, on)}
      checkedChildren={BillAutoSwitch.label(BillAutoSwitch.On, lang)} unCheckedChildren={BillAutoSwitch.label(BillAutoSwitch.Off, lang)}
      aria-label={t('billautomate.f.enabled')} data-testid={`auto-ledger-switch-${rule.ruleId}`} />
  );
}
