// What the card detail shows from neighbouring parts of the card area: label and card type names (card
// catalogue), the last data session (usage), and retail (C-end) cycles. Kept in one place so the detail
// sections do not reach into several areas' tables.
import { and, desc, eq, gte, inArray } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import type { cards } from '../card-tables.ts';
import { cardLabels, cardTypes } from '../catalog/tables.ts';
import { cardSessions } from '../../usage/usage-tables.ts';

/** How far back the last session is looked for (the session table is partitioned by month). */
const LAST_SESSION_DAYS = 92;

type CardRow = typeof cards.$inferSelect;

export interface LastSession {
  apn: string | null;
  startAt: Date;
  endAt: Date | null;
  /** the session has not ended */
  open: boolean;
}

export async function cardExtras(ex: Executor, row: CardRow) {
  const [labels, [type]] = await Promise.all([
    row.labelIds.length
      ? ex.select({ labelId: cardLabels.labelId, name: cardLabels.name }).from(cardLabels).where(inArray(cardLabels.labelId, row.labelIds))
      : Promise.resolve([]),
    row.cardTypeId != null
      ? ex.select({ zh: cardTypes.nameZh, en: cardTypes.nameEn }).from(cardTypes).where(eq(cardTypes.cardTypeId, row.cardTypeId))
      : Promise.resolve([]),
  ]);
  return {
    labels: row.labelIds.map((id) => labels.find((l) => l.labelId === id)).filter((l): l is { labelId: number; name: string } => !!l),
    /** the card type's names; a reader sees the one of their language */
    cardType: (type as { zh: string; en: string } | undefined) ?? null,
    /**
     * C-end contract cycles come from a retail subscription of the card. Retail plans are sold to end users,
     * but no card has a retail subscription record in the product yet, so there are none to show.
     */
    retailCycles: null as { total: number; used: number; remaining: number } | null,
    lastSession: async (): Promise<LastSession | null> => {
      const [s] = await ex
        .select({ apn: cardSessions.apn, startAt: cardSessions.startedAt, endAt: cardSessions.endedAt })
        .from(cardSessions)
        .where(and(eq(cardSessions.iccid, row.iccid), gte(cardSessions.startedAt, new Date(Date.now() - LAST_SESSION_DAYS * 86_400_000))))
        .orderBy(desc(cardSessions.startedAt))
        .limit(1);
      return s ? { apn: s.apn, startAt: s.startAt, endAt: s.endAt, open: s.endAt == null } : null;
    },
  };
}
