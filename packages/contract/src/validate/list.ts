import type { ValidationResult } from './messages.ts';

/** Splits a semicolon list; full-width '；' is accepted because Chinese IMEs produce it. */
export function splitList(s: string): string[] {
  if (s === '') return [];
  return s.split(/[;；]/);
}

export interface ListRule {
  max: number;
  validateItem: (item: string) => ValidationResult;
  /** Key used to detect duplicates, e.g. lower-cased e-mail. */
  identity?: (item: string) => string;
}

/** Shared rules for phone/e-mail lists: no spaces, no empty items, a cap, no duplicates. */
export function validateDelimitedList(s: string | null | undefined, rule: ListRule): ValidationResult {
  if (s === null || s === undefined || s.trim() === '') return { key: 'required' };
  if (/\s/.test(s)) return { key: 'noSpaces' };
  const items = splitList(s);
  if (items.includes('')) return { key: 'listEmptyItem' };
  if (items.length > rule.max) return { key: 'listTooMany', params: { max: rule.max } };
  const identity = rule.identity ?? ((x: string) => x);
  const seen = new Set<string>();
  for (const item of items) {
    const err = rule.validateItem(item);
    if (err) return err;
    const id = identity(item);
    if (seen.has(id)) return { key: 'listDuplicate', params: { value: item } };
    seen.add(id);
  }
  return null;
}
