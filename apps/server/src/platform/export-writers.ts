import fs from 'node:fs';
import { once } from 'node:events';
import ExcelJS from 'exceljs';
import { formatDateTime, formatSizeIn, withZoneLabel, type Bilingual, type Lang } from '@lynx/contract';
import type { ExportColumn, ExportSpec } from './exports.ts';

// The file writers of download tasks: a streamed xlsx (one row in memory at a time) or a csv with a BOM.

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

export async function writeXlsx(file: string, spec: ExportSpec, rows: AsyncIterable<Record<string, unknown>>, lang: Lang): Promise<number> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet(spec.title[lang].slice(0, 31));
  ws.columns = spec.columns.map((c) => ({
    // no column keys: a size shows one field in two columns, so rows are written by position
    header: headerOf(c, lang), width: Math.max(12, headerOf(c, lang).length * 2 + 4),
    style: c.type === 'money' ? { numFmt: '#,##0.00' } : {},
  }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  let n = 0;
  for await (const r of rows) {
    ws.addRow(spec.columns.map((c) => cell(c, r[c.key], lang, false))).commit();
    n++;
  }
  ws.commit();
  await wb.commit();
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
