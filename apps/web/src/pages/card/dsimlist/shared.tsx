import { Select, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DsimRuleType, DsimSwitchState, Operator, dsim, type Lang, type ResponseOf } from '@lynx/contract';
import { call } from '../../../request/http.ts';

export type DsimRow = ResponseOf<typeof dsim.getDsimPage>['list'][number];
export type Strategy = ResponseOf<typeof dsim.getOemStrategyPage>['list'][number];
export const SWITCH_COLORS: Record<number, string> = { [DsimSwitchState.Requested]: 'processing', [DsimSwitchState.Succeeded]: 'success', [DsimSwitchState.Failed]: 'error' };
export const OPERATOR_COLORS: Record<number, string> = { [Operator.ChinaMobile]: 'blue', [Operator.ChinaUnicom]: 'volcano', [Operator.ChinaTelecom]: 'geekblue' };

export const useLang = (): Lang => (useTranslation().i18n.language === 'en' ? 'en' : 'zh');

export const detailPath = (r: Pick<DsimRow, 'sn' | 'isSupplierCard'>) => `/card/dsimlist/detail/${encodeURIComponent(r.sn)}/${r.isSupplierCard ? 1 : 0}`;

/** A strategy's rule in words: "No session for 30 minutes", "By cost: China Telecom, China Mobile". */
export function ruleText(s: Pick<Strategy, 'ruleType' | 'params'>, t: (k: string, o?: Record<string, unknown>) => string, lang: Lang): string {
  if (s.ruleType === DsimRuleType.NoSession) return t('dsim.strategies.minutesValue', { minutes: s.params.minutes });
  if (s.ruleType === DsimRuleType.Cost) return t('dsim.strategies.operatorOrderValue', { ops: (s.params.operatorOrder ?? []).map((o) => Operator.label(o, lang)).join(lang === 'zh' ? '、' : ', ') });
  return t('dsim.strategies.minSignalValue', { dbm: s.params.minSignal });
}

/** The strategies the viewer may choose (the first 500, by name). */
export function useStrategies() {
  return useQuery({
    queryKey: [dsim.getOemStrategyPage.name, 'options'],
    queryFn: ({ signal }) => call(dsim.getOemStrategyPage, { pageSize: 500 }, { signal, silent: true }),
  });
}

/** A strategy picker with "manual only" (value null). */
export function StrategySelect({ value, onChange, testId }: { value: number | null; onChange: (v: number | null) => void; testId?: string }) {
  const { t } = useTranslation();
  const lang = useLang();
  const q = useStrategies();
  return (
    <Select<number>
      style={{ minWidth: 280 }} value={value ?? 0} onChange={(v) => onChange(v === 0 ? null : v)} loading={q.isLoading} data-testid={testId}
      options={[{ value: 0, label: t('dsim.noStrategy') }, ...(q.data?.list ?? []).map((s) => ({ value: s.strategyId, label: `${s.strategyName} · ${ruleText(s, t, lang)}` }))]}
    />
  );
}

export function OperatorTag({ value }: { value: number }) {
  const lang = useLang();
  return <Tag color={OPERATOR_COLORS[value]}>{Operator.label(value, lang)}</Tag>;
}

const FAIL_CODES = ['VENDOR_REFUSED', 'OTA_FAILED', 'PROFILE_NOT_SERVING', 'TIMEOUT', 'UNKNOWN_REQUEST', 'NO_PROFILE'];
/** A failed switch's reason in the user's language (the vendor's own text for a code the console does not know). */
export function failText(r: { failCode: string | null; failReason: string | null }, t: (k: string) => string): string {
  if (r.failCode && FAIL_CODES.includes(r.failCode)) return t(`dsim.failCodes.${r.failCode}`);
  return [r.failCode, r.failReason].filter(Boolean).join(' ') || '-';
}
