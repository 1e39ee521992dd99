// Labels as a batch sees them (the label catalogue itself is migrations/0013_card_catalog.sql, catalog-*.ts):
// a caller may use the platform labels and the labels of its own tenant; a customer's label goes only on
// cards of that customer's tenant (its tree for a first-level customer, itself for a second-level one).
import { and, inArray, isNull, or } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { tenantFilter, type Actor } from '../../../platform/context.ts';
import { cardLabels } from '../catalog/tables.ts';

export interface BatchLabel {
  labelId: number;
  name: string;
  custId: number | null;
  rootCustId: number | null;
}

/** The labels among `ids` the actor may put on or take off cards, by id. */
export async function labelsForBatch(ex: Executor, ids: number[], actor: Actor): Promise<Map<number, BatchLabel>> {
  if (!ids.length) return new Map();
  const rows = await ex
    .select({ labelId: cardLabels.labelId, name: cardLabels.name, custId: cardLabels.custId, rootCustId: cardLabels.rootCustId })
    .from(cardLabels)
    .where(and(inArray(cardLabels.labelId, ids), or(isNull(cardLabels.custId), tenantFilter(actor, cardLabels))));
  return new Map(rows.map((r) => [r.labelId, r]));
}

/** A label may go on this card: platform labels on any card, a customer's label on cards of its tenant. */
export function labelFitsCard(label: BatchLabel, card: { custId: number | null; rootCustId: number | null }): boolean {
  if (label.custId == null) return true;
  return label.custId === label.rootCustId ? card.rootCustId === label.rootCustId : card.custId === label.custId;
}
