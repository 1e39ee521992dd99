import { COMMSERV_WHITELIST_MAX, whitelistEntryKind, whitelistIdentity } from '@lynx/contract';

/** Why typed whitelist entries cannot be added (rendered by the editor in the UI language). */
export type WhitelistInputError =
  | { kind: 'invalid'; value: string }
  | { kind: 'duplicate'; value: string }
  | { kind: 'tooMany'; max: number; count: number };

/** Entries typed or pasted into the whitelist editor: one per line, or separated by spaces, commas or semicolons (also full-width). */
export function splitWhitelistInput(text: string): string[] {
  return text.split(/[\s,;，；、]+/).map((s) => s.trim()).filter(Boolean);
}

/**
 * Adds what was typed to the whitelist, all or nothing: every entry must be a domain name, an IPv4 address
 * or an IPv4 CIDR, none may repeat (case-insensitively, also within the input), and the list holds at most
 * 32 (spec §9) — the 33rd is refused with the limit.
 */
export function addWhitelistEntries(current: readonly string[], text: string): { next: string[]; error: WhitelistInputError | null } {
  const typed = splitWhitelistInput(text);
  const seen = new Set(current.map(whitelistIdentity));
  for (const value of typed) {
    if (!whitelistEntryKind(value)) return { next: [...current], error: { kind: 'invalid', value } };
    const id = whitelistIdentity(value);
    if (seen.has(id)) return { next: [...current], error: { kind: 'duplicate', value } };
    seen.add(id);
  }
  const count = current.length + typed.length;
  if (count > COMMSERV_WHITELIST_MAX) return { next: [...current], error: { kind: 'tooMany', max: COMMSERV_WHITELIST_MAX, count } };
  return { next: [...current, ...typed], error: null };
}
