import { asc, desc, sql, type Column, type SQL } from 'drizzle-orm';

export interface PageQuery {
  current?: number;
  pageSize?: number;
  sortField?: string;
  sortOrder?: 'ascend' | 'descend';
}

export function pageOf(q: PageQuery): { current: number; pageSize: number; limit: number; offset: number } {
  const current = q.current ?? 1;
  const pageSize = q.pageSize ?? 20;
  return { current, pageSize, limit: pageSize, offset: (current - 1) * pageSize };
}

/** Sorting only by the columns a list allows; anything else falls back to the default order. */
export function orderOf(q: PageQuery, allowed: Record<string, Column>, fallback: SQL[]): SQL[] {
  const col = q.sortField ? allowed[q.sortField] : undefined;
  if (!col) return fallback;
  return [q.sortOrder === 'ascend' ? asc(col) : desc(col), ...fallback];
}

export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** The number of rows matching the filter, computed in the same query as the page (one round trip). */
export const totalOver = () => sql<number>`count(*) over()`.mapWith(Number);

/**
 * A page from rows carrying totalOver(). A page past the end has no rows to read the total from; only then
 * is the count asked separately.
 */
export async function pageFrom<R extends { total: number }>(rows: R[], p: { offset: number }, countAll: () => Promise<number>) {
  return { rows, total: rows.length ? rows[0].total : p.offset > 0 ? await countAll() : 0 };
}

/** An ILIKE pattern matching text that contains `s` literally (%, _ and \ in it are not wildcards). */
export const contains = (s: string) => `%${s.replace(/[%_\\]/g, '\\$&')}%`;

/**
 * The order of a name search's hits: where the text is found (a name starting with it first), then shorter names,
 * then the name itself. For the small catalogue tables the header search reads (customers, plans, pools).
 */
export const matchOrder = (col: Column, s: string): SQL[] => [sql`strpos(lower(${col}), lower(${s}))`, sql`char_length(${col})`, asc(col)];

/** A whole positive number a keyword may be (an id typed into a search box), else null. */
export const idOf = (s: string): number | null => (/^[0-9]{1,9}$/.test(s) ? Number(s) : null);

/**
 * The smallest and largest uuid starting with these hex digits (dashes ignored; at least 4 digits), so an id prefix
 * is a range of the primary key; null for anything else.
 */
export function uuidPrefixRange(keyword: string): [string, string] | null {
  const hex = keyword.trim().toLowerCase().replace(/-/g, '');
  if (!/^[0-9a-f]{4,32}$/.test(hex)) return null;
  const shape = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  return [shape(hex.padEnd(32, '0')), shape(hex.padEnd(32, 'f'))];
}
