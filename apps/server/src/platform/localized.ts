import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Lang } from '@lynx/contract';

/**
 * A catalogue name in the reader's language (docs/decisions.md: one language, one set of units): the English name
 * where there is one for an English reader, else the name as typed.
 */
export function inLanguage(name: AnyColumn, nameEn: AnyColumn, lang: Lang): SQL<string> {
  return lang === 'en' ? sql<string>`coalesce(nullif(${nameEn}, ''), ${name})` : sql<string>`${name}`;
}
