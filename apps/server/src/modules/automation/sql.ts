// Small SQL helpers of the automation module (docs/automation.md).
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { isChannel, isStaff, type Actor } from '../../platform/context.ts';

export const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));
export const rows = async <T = Record<string, unknown>>(ex: Executor, q: SQL) => rowsOf<T>(await ex.execute(q));
export const iso = (v: unknown): string | null => (v == null ? null : new Date(v as string).toISOString());

/** Tenant predicate over columns `<alias>.cust_id` / `<alias>.root_cust_id` (customers, cards). */
export function tenantSql(actor: Actor, alias: string): SQL {
  const col = (name: string) => sql.raw(`${alias}.${name}`);
  if (isStaff(actor)) return sql`true`;
  if (isChannel(actor)) return actor.rootCustId == null ? sql`false` : sql`${col('root_cust_id')} = ${actor.rootCustId}`;
  return actor.custId == null ? sql`false` : sql`${col('cust_id')} = ${actor.custId}`;
}

/**
 * Which rules (and their trigger records) an actor sees, over `<alias>.owner_cust_id` / `owner_root_cust_id`: staff
 * every rule; a channel customer the rules of its tree; a second-level customer its own. Platform rules (no owner) are
 * staff's only.
 */
export function ownerSql(actor: Actor, alias: string): SQL {
  const col = (name: string) => sql.raw(`${alias}.${name}`);
  if (isStaff(actor)) return sql`true`;
  if (isChannel(actor)) return actor.rootCustId == null ? sql`false` : sql`${col('owner_root_cust_id')} = ${actor.rootCustId}`;
  return actor.custId == null ? sql`false` : sql`${col('owner_cust_id')} = ${actor.custId}`;
}

export const isUniqueViolation = (e: unknown) => {
  for (let c: unknown = e; c; c = (c as { cause?: unknown }).cause) if ((c as { code?: string }).code === '23505') return true;
  return false;
};
