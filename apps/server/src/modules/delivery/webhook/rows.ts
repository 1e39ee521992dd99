// Small helpers for the module's raw SQL.

/** Rows of a drizzle `execute` answer on either driver (node-postgres and PGlite both answer { rows }). */
export const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));

/** A timestamptz column as ISO 8601 (UTC), or null. */
export const isoOf = (v: unknown): string | null => (v == null ? null : new Date(v as string | Date).toISOString());

export const numOrNull = (v: unknown): number | null => (v == null ? null : Number(v));
