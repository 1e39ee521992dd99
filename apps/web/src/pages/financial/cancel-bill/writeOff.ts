import { ErrorCode, errorMessage, fenToMoney, formatMoney, moneyToFen } from '@lynx/contract';

type Lang = 'zh' | 'en';

/** What a write-off may take: the bill's arrears, and what the customer can pay with now (pre-deposit above zero + grants). */
export interface WriteOffLimits { arrears: string; payable: string }

/** The amount the dialog proposes: the smaller of what is due and what the customer can pay (never below zero). */
export function defaultWriteOffAmount({ arrears, payable }: WriteOffLimits): string {
  const due = moneyToFen(arrears) ?? 0n;
  const can = moneyToFen(payable) ?? 0n;
  const min = due < can ? due : can;
  return fenToMoney(min > 0n ? min : 0n);
}

/**
 * Why an amount cannot be written off, in the server's own words (spec §5: not 0, not above the amount to be written
 * off, not above pre-deposit plus grants; error codes 20904–20906), or null when it can. A text that is no amount at
 * all gets `invalid`.
 */
export function writeOffAmountError(input: string | undefined, limits: WriteOffLimits, lang: Lang, invalid: string): string | null {
  const text = (input ?? '').trim();
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(text)) return invalid;
  const fen = moneyToFen(text)!;
  if (fen === 0n) return errorMessage(ErrorCode.WriteOffZero, lang);
  if (fen > (moneyToFen(limits.arrears) ?? 0n)) return errorMessage(ErrorCode.WriteOffAboveDue, lang, { due: formatMoney(limits.arrears) });
  if (fen > (moneyToFen(limits.payable) ?? 0n)) return errorMessage(ErrorCode.WriteOffAboveBalance, lang, { payable: formatMoney(limits.payable) });
  return null;
}
