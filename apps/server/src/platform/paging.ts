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
