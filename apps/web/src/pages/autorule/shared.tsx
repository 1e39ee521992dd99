import { App, Switch, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  AutoRuleAction, AutoRuleChannel, AutoRuleDeliveryState, AutoRuleLevel, AutoRuleRunState, AutoRuleStatus, AutoRuleSwitch, AutoRuleTargetState, CardState,
  Operator, autorule, type ResponseOf,
} from '@lynx/contract';
import { call } from '../../request/http.ts';
import { usePerm } from '../../components/PermButton.tsx';

export type RuleRow = ResponseOf<typeof autorule.getRuleDetail>;
export type AlarmRow = ResponseOf<typeof autorule.getAlarmDetail>;
export const { AutoRulePerm } = autorule;

/** The screens of Auto rule (spec §2). */
export const autoRulePaths = {
  list: '/autorule/autorule-list/list',
  detail: (ruleId: number) => `/autorule/autorule-list/detail/${ruleId}`,
  alarms: '/autorule/alarm-list/list',
  alarm: (alarmId: number) => `/autorule/alarm-list/detail/${alarmId}`,
  execute: (ruleId: number, alarmId: number) => `/autorule/alarm-list/execute-detail/${ruleId}/${alarmId}`,
};

export const LEVEL_COLORS: Record<number, string> = { [AutoRuleLevel.Info]: 'blue', [AutoRuleLevel.Warning]: 'orange', [AutoRuleLevel.Critical]: 'red' };
export const STATUS_COLORS: Record<number, string> = { [AutoRuleStatus.Draft]: 'default', [AutoRuleStatus.Published]: 'success' };
export const RUN_COLORS: Record<number, string> = { [AutoRuleRunState.Running]: 'processing', [AutoRuleRunState.Done]: 'success', [AutoRuleRunState.Failed]: 'error' };
export const DELIVERY_COLORS: Record<number, string> = {
  [AutoRuleDeliveryState.Pending]: 'processing', [AutoRuleDeliveryState.NoChannel]: 'warning', [AutoRuleDeliveryState.Sent]: 'success', [AutoRuleDeliveryState.Failed]: 'error',
};

export const useLang = () => {
  const { i18n } = useTranslation();
  return i18n.language === 'en' ? 'en' as const : 'zh' as const;
};

/** A rule's condition in words: "Cycle data ≥ 80% of the quota". */
export function useConditionText() {
  const { t } = useTranslation();
  const lang = useLang();
  return (r: Pick<RuleRow, 'ruleType' | 'threshold' | 'states'>) => t(`autorule.conditionText.${r.ruleType}`, {
    n: r.threshold ?? '',
    states: r.states.length ? r.states.map((s) => CardState.label(s, lang)).join(lang === 'zh' ? '、' : ', ') : t('autorule.anyState'),
  });
}

/** A rule's action in words, with its target and channels. */
export function useActionText() {
  const { t } = useTranslation();
  const lang = useLang();
  return (r: RuleRow) => {
    const what = AutoRuleAction.label(r.action, lang);
    const target = r.action === AutoRuleAction.ChangeState ? AutoRuleTargetState.label(r.targetState, lang)
      : r.action === AutoRuleAction.ChangePlan ? r.targetPlanName ?? String(r.targetPlanId ?? '') : null;
    const channels = r.channels.length ? r.channels.map((c) => AutoRuleChannel.label(c, lang)).join(' / ') : t('autorule.noChannel');
    return `${what}${target ? (lang === 'zh' ? `：${target}` : `: ${target}`) : ''} · ${channels}`;
  };
}

/** A rule's scope in words: the owner's cards narrowed by customer, operator and plan. */
export function useScopeText() {
  const { t } = useTranslation();
  const lang = useLang();
  return (r: RuleRow) => {
    const parts = [
      r.scopeCustName ? `${t('autorule.f.scopeCust')}: ${r.scopeCustName}` : null,
      r.scopeOperatorId ? `${t('autorule.f.scopeOperator')}: ${Operator.label(r.scopeOperatorId, lang)}` : null,
      r.scopePlanName ? `${t('autorule.f.scopePlan')}: ${r.scopePlanName}` : null,
    ].filter(Boolean);
    return parts.length ? parts.join(' · ') : t('autorule.allCards');
  };
}

/** Publish, switch and delete with a confirmation (the list's and the detail's actions). */
export function useRuleActions(onDone: () => void) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const C = (k: string) => t(`autorule.confirm.${k}`);
  const ask = (title: string, content: string, okText: string, run: () => Promise<unknown>, done: string, danger = false, testId = 'autorule-confirm') => modal.confirm({
    title, content, okText, cancelText: t('common.cancel'), okButtonProps: { danger, 'data-testid': testId } as ButtonProps,
    onOk: async () => {
      try {
        await run();
        message.success(done);
      } finally {
        onDone();
      }
    },
  });
  return {
    publish: (r: RuleRow) => ask(C('publishTitle'), C('publishContent'), t('autorule.action.publish'),
      () => call(autorule.publishRule, { ruleId: r.ruleId }), t('autorule.done.published')),
    toggle: (r: RuleRow, on: boolean) => ask(C(on ? 'onTitle' : 'offTitle'), C(on ? 'onContent' : 'offContent'), t(on ? 'autorule.action.on' : 'autorule.action.off'),
      () => call(autorule.switchRule, { ruleId: r.ruleId, enabled: on ? 1 : 0 }), t(on ? 'autorule.done.on' : 'autorule.done.off'), !on),
    remove: (r: RuleRow, after?: () => void) => ask(C('deleteTitle'), C('deleteContent'), t('common.delete'),
      async () => {
        await call(autorule.deleteRule, { ruleId: r.ruleId });
        after?.();
      }, t('autorule.done.deleted'), true),
  };
}

/** The on/off switch of a published rule (read-only without 5010004; a draft is published instead). */
export function RuleSwitch({ rule, onToggle }: { rule: RuleRow; onToggle: (r: RuleRow, on: boolean) => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const canSwitch = usePerm(AutoRulePerm.Switch);
  return (
    <Switch size="small" checked={rule.enabled === 1} disabled={!canSwitch || rule.status !== AutoRuleStatus.Published} onChange={(on) => onToggle(rule, on)}
      checkedChildren={AutoRuleSwitch.label(AutoRuleSwitch.On, lang)} unCheckedChildren={AutoRuleSwitch.label(AutoRuleSwitch.Off, lang)}
      aria-label={t('autorule.f.enabled')} data-testid={`autorule-switch-${rule.ruleId}`} />
  );
}
