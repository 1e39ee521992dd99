import { ProfitShareMethod, formatMoney, retail, type Lang } from '@lynx/contract';

const MONEY = new Set(['price', 'crossedPrice']);
const PERCENT = new Set(['taxRate', 'dividendProportion']);

/** One recorded value as a person reads it: money with two decimals, labels for enums, names for references. */
export function formatRecordValue(field: string, value: unknown, lang: Lang): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'object' && 'name' in (value as object)) {
    const ref = value as { id: unknown; name: string };
    return ref.name ? `${ref.name} (ID ${String(ref.id)})` : `ID ${String(ref.id)}`;
  }
  // money is recorded as decimal text ('1234.50'); records written before that hold a number (1234.5)
  if (MONEY.has(field)) return formatMoney(typeof value === 'string' || typeof value === 'number' ? value : null);
  // the field labels carry the unit (税率（%）), so the value does not
  if (PERCENT.has(field)) return Number(value).toFixed(2).replace(/\.?0+$/, '');
  if (field === 'status') return retail.RetailStatus.label(value as number, lang);
  if (field === 'dividendMethod') return ProfitShareMethod.label(value as number, lang);
  return String(value);
}
