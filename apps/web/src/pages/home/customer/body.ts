import type { account, BodyOf, ResponseOf } from '@lynx/contract';

type CustomerRecord = ResponseOf<typeof account.getCustomerInfo>;
type SaveBody = BodyOf<typeof account.saveCustomer>;

/** The enterprise customer fields of the form (spec §3), in the order the form shows them. */
export const REQUIRED_TEXT = ['custName', 'adminName', 'adminPhone', 'adminEmail'] as const;
export const OPTIONAL_TEXT = [
  'businessUnit', 'businessLicense', 'website', 'taxNumber', 'bankName', 'bankAccount', 'industryLevel1', 'industryLevel2',
  'industryAttribute', 'salesName', 'salesPhone', 'salesEmail', 'remark',
] as const;
export const NUMBERS = ['status', 'invoiceType', 'paymentModel'] as const;
/** money fields: exact decimal strings (the form's number input in string mode) */
export const MONEY = ['registeredCapital'] as const;

export type CustomerFormValues = Partial<Record<(typeof REQUIRED_TEXT)[number] | (typeof OPTIONAL_TEXT)[number], string>> &
  Partial<Record<(typeof NUMBERS)[number] | 'parentCustId', number | null>> & Partial<Record<(typeof MONEY)[number], string | null>>;

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Form values → request body. Text is trimmed. A blank optional text is left out when creating; when
 * updating it is sent as '' so the server clears the field (leaving it out would keep the old value).
 * The parent customer is only sent when creating (a customer never moves to another parent).
 */
export function customerBody(values: CustomerFormValues, mode: 'create' | 'update'): Partial<SaveBody> {
  const out: Record<string, unknown> = {};
  for (const k of REQUIRED_TEXT) {
    const v = values[k]?.trim();
    if (v) out[k] = v;
  }
  for (const k of OPTIONAL_TEXT) {
    const v = values[k]?.trim() ?? '';
    if (v) out[k] = v;
    else if (mode === 'update') out[k] = '';
  }
  for (const k of NUMBERS) if (isNum(values[k])) out[k] = values[k];
  for (const k of MONEY) {
    const v = values[k];
    if (typeof v === 'string' && v.trim() !== '') out[k] = v.trim();
  }
  if (mode === 'create' && isNum(values.parentCustId)) out.parentCustId = values.parentCustId;
  return out as Partial<SaveBody>;
}

/** A customer record → the form's initial values (null becomes an empty field). */
export function customerFormValues(c: CustomerRecord): CustomerFormValues {
  const out: Record<string, unknown> = {};
  for (const k of [...REQUIRED_TEXT, ...OPTIONAL_TEXT, ...NUMBERS, ...MONEY]) {
    const v = c[k];
    if (v !== null && v !== undefined) out[k] = v;
  }
  return out as CustomerFormValues;
}
