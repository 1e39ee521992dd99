import fs from 'node:fs';
import { once } from 'node:events';
import { formatDateTime, formatSizeIn, withZoneLabel, type Bilingual, type Lang } from '@lynx/contract';
import type { ExportColumn, ExportSpec } from './exports.ts';
import { writeXlsxStream } from './xlsx-stream.ts';

// The file writers of download tasks: a streamed xlsx (a bounded buffer of rows in memory) or a csv with a BOM.

function cell(col: ExportColumn, v: unknown, lang: Lang, forCsv: boolean): string | number | null {
  if (v == null || v === '') return null;
  if (col.enum) return col.enum.label(Number(v), lang);
  if (col.type === 'datetime') return formatDateTime(v as string, lang);
  if (col.type === 'money') return forCsv ? (typeof v === 'string' && /^-?\d+\.\d{2}$/.test(v) ? v : Number(v).toFixed(2)) : Number(v);
  if (col.type === 'size') return formatSizeIn(v as number | string, col.unit ?? 'B');
  if (col.type === 'bilingual') return (v as Bilingual)[lang] || null;
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return lang === 'zh' ? (v ? '是' : '否') : v ? 'Yes' : 'No';
  return String(v);
}

/** A column's heading; a time column names the business zone its times are in: 'Created at (UTC+8)'. */
export function headerOf(col: ExportColumn, lang: Lang): string {
  return col.type === 'datetime' ? withZoneLabel(col.title[lang]) : col.title[lang];
}

/**
 * The xlsx of a download task: one sheet named after the export, a bold header row and a row per item, streamed
 * (platform/xlsx-stream.ts) so rows are read only as fast as the file is written. Returns the number of rows.
 */
export async function writeXlsx(file: string, spec: ExportSpec, rows: AsyncIterable<Record<string, unknown>>, lang: Lang): Promise<number> {
  const out = fs.createWriteStream(file, { highWaterMark: 256 * 1024 });
  let failed: Error | undefined;
  out.on('error', (err) => { failed ??= err; });
  const closed = new Promise<void>((resolve) => out.once('close', () => resolve()));
  const sheet = {
    name: spec.title[lang],
    title: spec.title[lang],
    columns: spec.columns.map((c) => {
      const header = headerOf(c, lang);
      return { header, width: Math.max(12, header.length * 2 + 4), money: c.type === 'money' };
    }),
  };
  // no column keys: a size shows one field in two columns, so cells are by position
  const cells = async function* () {
    for await (const r of rows) yield spec.columns.map((c) => cell(c, r[c.key], lang, false));
  };
  let n: number;
  try {
    n = await writeXlsxStream(out, sheet, cells());
    out.end();
  } catch (err) {
    out.destroy();
    await closed;
    throw failed ?? err;
  }
  await closed;
  if (failed) throw failed;
  return n;
}

const csvField = (v: string | number | null) => {
  if (v == null) return '';
  const s = String(v);
  // a leading = + - @ would run as a formula in a spreadsheet
  const safe = /^[=+\-@\t\r]/.test(s) && typeof v === 'string' ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export async function writeCsv(file: string, columns: ExportColumn[], rows: AsyncIterable<Record<string, unknown>>, lang: Lang): Promise<number> {
  const out = fs.createWriteStream(file);
  const write = async (line: string) => {
    if (!out.write(line)) await once(out, 'drain');
  };
  // BOM so spreadsheet programs read the Chinese headers as UTF-8
  await write('\uFEFF' + columns.map((c) => csvField(headerOf(c, lang))).join(',') + '\r\n');
  let n = 0;
  for await (const r of rows) {
    await write(columns.map((c) => csvField(cell(c, r[c.key], lang, true))).join(',') + '\r\n');
    n++;
  }
  out.end();
  await once(out, 'finish');
  return n;
}
