import { credit, CreditPaymentUnit, CreditStatus, CreditType, formatMoney, type ResponseOf } from '@lynx/contract';
import type { TFunction } from 'i18next';

export type CreditRow = ResponseOf<typeof credit.getCreditListPage>['list'][number];

export const CREDIT_STATUS_COLORS: Record<number, string> = { [CreditStatus.Valid]: 'green', [CreditStatus.Expired]: 'default', [CreditStatus.Reset]: 'red' };
export const CREDIT_TYPE_COLORS: Record<number, string> = { [CreditType.Fixed]: 'blue', [CreditType.Provisional]: 'orange' };

export const creditLogPath = (creditId: number) => `/financial/credit/change-log/${creditId}`;

type Lang = 'zh' | 'en';

/** "30 days", "1 个月". */
export function termText(t: TFunction, lang: Lang, n: number | null | undefined, unit: number | null | undefined): string {
  if (n == null || unit == null) return '-';
  // "1 month", "2 months" (the enum's label is the plural; Chinese has one form)
  const one = n === 1 && (unit === CreditPaymentUnit.Day || unit === CreditPaymentUnit.Month);
  return t('credit.term', { n, unit: one ? t(`credit.unitOne.${unit === CreditPaymentUnit.Day ? 'day' : 'month'}`) : CreditPaymentUnit.label(unit, lang) });
}

/** "2026-11-26 ~ 2026-12-31", "2026-11-26 ~ No end". */
export function validityText(t: TFunction, from: string | null | undefined, to: string | null | undefined): string {
  if (!from) return '-';
  return `${from} ~ ${to ?? t('credit.f.longTerm')}`;
}

/** The money a user typed: a positive decimal with at most two decimals (the contract's MoneyInput), not zero. */
export const isCreditAmount = (v: unknown): boolean => typeof v === 'string' && /^\d{1,12}(\.\d{1,2})?$/.test(v.trim()) && /[1-9]/.test(v);

/** What a change-log snapshot holds, as readable lines (only what changed, when both sides are known). */
export function snapshotLines(t: TFunction, lang: Lang, snap: Record<string, unknown> | null, other: Record<string, unknown> | null): { label: string; value: string }[] {
  if (!snap) return [];
  const F = (k: string) => t(`credit.f.${k}`);
  const fields: [string, string, (s: Record<string, unknown>) => string][] = [
    ['creditType', F('creditType'), (s) => CreditType.label(s.creditType as number, lang)],
    ['amount', F('amount'), (s) => formatMoney(s.amount as string)],
    ['term', F('paymentTerm'), (s) => termText(t, lang, s.paymentTerm as number, s.paymentUnit as number)],
    ['validity', F('validity'), (s) => validityText(t, s.validFrom as string, s.validTo as string | null)],
    ['remark', F('remark'), (s) => (s.remark as string | null) || '-'],
    ['status', F('status'), (s) => CreditStatus.label(s.status as number, lang)],
  ];
  return fields
    .filter(([, , read]) => !other || read(snap) !== read(other))
    .map(([, label, read]) => ({ label, value: read(snap) }));
}
