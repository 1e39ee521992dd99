/** A card history entry's reason column: what the person typed, as typed, then what the server noted (in the reader's language). */
export const historyReason = (r: { reason: string | null; note: string | null }): string => [r.reason, r.note].filter(Boolean).join(' · ') || '-';
