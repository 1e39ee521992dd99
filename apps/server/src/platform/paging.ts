import { asc, desc, type Column, type SQL } from 'drizzle-orm';

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
