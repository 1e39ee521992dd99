import path from 'node:path';
import ExcelJS from 'exceljs';
import type { FastifyRequest } from 'fastify';
import { ErrorCode, formatSize, type Endpoint, type Lang } from '@lynx/contract';
import { AppError } from './errors.ts';
import { readMultipart, type UploadedFile } from './files.ts';
import { fileTypeError, withDefaults, type Cells, type SheetLimits } from './spreadsheet/limits.ts';
import { readXlsx } from './spreadsheet/xlsx.ts';
import { readCsv } from './spreadsheet/csv.ts';

/*
 * Reading uploaded spreadsheets (xlsx or csv) into rows of trimmed text cells: the one reader every import
 * uses (operator plans, cards, card batches). An xlsx is inflated and parsed as a stream, its inflated bytes
 * counted, and every limit checked while reading: a small file that unpacks to gigabytes is refused after at
 * most `maxUnpackedBytes`, without the whole content ever being in memory. Design: docs/decisions.md.
 */

export type { Cells, SheetLimits } from './spreadsheet/limits.ts';
export { DEFAULT_LIMITS } from './spreadsheet/limits.ts';
export { csvText } from './spreadsheet/csv.ts';

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/**
 * The rows of an uploaded .xlsx (its first worksheet) or .csv file, judged by its name and its bytes (an xlsx
 * is a zip, a CSV has no NUL bytes). Anything else, or an xlsx that cannot be read, is a file type error (400).
 * A file beyond the limits is refused with the caller's `tooManyRows` or an upload error (400) naming the limit.
 */
export async function readSheet(file: { filename: string; buffer: Buffer }, limits: SheetLimits): Promise<Cells[]> {
  const ext = path.extname(file.filename).toLowerCase();
  const l = withDefaults(limits);
  try {
    if (ext === '.xlsx' && file.buffer.subarray(0, 4).equals(ZIP_MAGIC)) return await readXlsx(file.buffer, l);
    if (ext === '.csv' && !file.buffer.includes(0)) return await readCsv(file.buffer, l);
  } catch (err) {
    // anything but a refusal of ours (a bounds error on a corrupt archive, say) means the file is unreadable
    throw err instanceof AppError ? err : fileTypeError();
  }
  throw fileTypeError();
}

/*
 * The all-or-nothing file imports (super SIMs, channel cards) and the card import share the rest: the upload read
 * against its size limit, header titles matched in either language, blank rows skipped, the row count limited,
 * every wrong row kept with its reason in both languages, and the template in both formats.
 */

/** A text in both languages (a wrong row's reason is stored so and shown in the reader's). */
export interface Bilingual {
  zh: string;
  en: string;
}

/** A column of an import file: its key, its titles in both languages, and the template's example value. */
export interface SheetColumn<K extends string = string> {
  readonly key: K;
  readonly zh: string;
  readonly en: string;
  readonly example: string;
}

/** A header cell or a name compared loosely: case, spaces, slashes, brackets, underscores and dashes ignored. */
export const looseName = (s: string) => s.toLowerCase().replace(/[\s/（）()_-]/g, '');

/** A column's title in one language (the key for an unknown column). */
export const sheetColumnTitle = (columns: readonly SheetColumn[], key: string, lang: Lang) => columns.find((c) => c.key === key)?.[lang] ?? key;

/** Header cells → column keys (either language, or the key itself, compared loosely), and the required keys absent. */
export function mapSheetHeader<K extends string>(header: Cells, columns: readonly SheetColumn<K>[], required: readonly K[]): { map: (K | null)[]; missing: K[] } {
  const map = header.map((h) => (h ? (columns.find((c) => [c.zh, c.en, c.key].some((t) => looseName(t) === looseName(h)))?.key ?? null) : null));
  return { map, missing: required.filter((k) => !map.includes(k)) };
}

/**
 * The data rows of a sheet whose first row is the header: blank rows skipped, every other row handed to `check` with
 * a getter of its trimmed cells by column key, its row number (1 is the header) and the list its errors go to. A row
 * with errors is not kept. With required columns missing, no row is read.
 */
export function checkSheetRows<K extends string, R, E>(
  cells: Cells[], columns: readonly SheetColumn<K>[], required: readonly K[], check: (get: (k: K) => string, row: number, errors: E[]) => R,
): { rows: R[]; errors: E[]; dataRows: number; missing: K[] } {
  const { map, missing } = mapSheetHeader(cells[0] ?? [], columns, required);
  const rows: R[] = [];
  const errors: E[] = [];
  if (missing.length) return { rows, errors, dataRows: 0, missing };
  let dataRows = 0;
  for (let i = 1; i < cells.length; i++) {
    const line = cells[i];
    if (!line.some((c) => c != null && c !== '')) continue;
    dataRows++;
    const get = (k: K) => {
      const idx = map.indexOf(k);
      return idx < 0 ? '' : (line[idx] ?? '').trim();
    };
    const own: E[] = [];
    const parsed = check(get, i + 1, own);
    if (own.length) errors.push(...own);
    else rows.push(parsed);
  }
  return { rows, errors, dataRows, missing };
}

/** What an import file is: its columns, its limits and its refusals. */
export interface SheetImportSpec<K extends string> {
  columns: readonly SheetColumn<K>[];
  required: readonly K[];
  maxBytes: number;
  maxRows: number;
  codes: { missingColumns: ErrorCode; empty: ErrorCode };
  /** the refusal of a file over maxRows (`count`: its data rows, or "> maxRows" when the reader stopped early) */
  tooMany: (count: number | string) => AppError;
  /** the reader's limits other than the defaults below (rows: maxRows + 1000, so a file slightly over gets "too many") */
  limits?: Partial<SheetLimits>;
}

/**
 * Reads an import upload of a multipart endpoint: the file (required, at most `maxBytes`), its rows checked by `check`,
 * refused when required columns are missing, when it has no data row or more than `maxRows`.
 */
export async function readImportUpload<K extends string, T extends { dataRows: number; missing: K[] }>(
  req: FastifyRequest, endpoint: Endpoint, spec: SheetImportSpec<K>, lang: Lang, check: (cells: Cells[]) => T | Promise<T>,
): Promise<{ file: UploadedFile; fields: Record<string, string>; checked: T }> {
  const { file, fields } = await readMultipart(req, endpoint);
  if (!file || file.buffer.length === 0) throw new AppError(ErrorCode.FileRequired, undefined, 400);
  if (file.buffer.length > spec.maxBytes) throw new AppError(ErrorCode.FileTooBig, { max: formatSize(spec.maxBytes) }, 400);
  const max = spec.maxRows;
  const cells = await readSheet(file, {
    minColumns: spec.required.length, maxRows: max + 1000, maxColumns: spec.columns.length + 10, maxCellChars: 200,
    maxUnpackedBytes: 40 * 1024 * 1024, maxSharedStrings: 200_000,
    tooManyRows: () => spec.tooMany(`> ${max}`),
    ...spec.limits,
  });
  const checked = await check(cells);
  if (checked.missing.length) throw new AppError(spec.codes.missingColumns, { columns: checked.missing.map((k) => sheetColumnTitle(spec.columns, k, lang)).join(', ') });
  if (checked.dataRows === 0) throw new AppError(spec.codes.empty);
  if (checked.dataRows > max) throw spec.tooMany(checked.dataRows);
  return { file, fields, checked };
}

/**
 * The refusal of an all-or-nothing import: how many rows are wrong, and the first `listed` errors (row order) with the
 * column's title and the reason in the reader's language; `id` gives the row's identifying cell (its SN, its ICCID).
 */
export function wrongRowsError<E extends { row: number; column: string; reason: Bilingual }>(
  code: ErrorCode, errors: E[], listed: number, columns: readonly SheetColumn[], lang: Lang, id: (e: E) => Record<string, string | null>,
): AppError {
  errors.sort((a, x) => a.row - x.row || a.column.localeCompare(x.column));
  return new AppError(code, { count: new Set(errors.map((e) => e.row)).size }, 200, {
    errorCount: errors.length,
    errors: errors.slice(0, listed).map((e) => ({ row: e.row, ...id(e), column: sheetColumnTitle(columns, e.column, lang), reason: e.reason[lang] })),
  });
}

/** An import template as CSV: the header in one language and one example row, with a BOM for Excel. */
export const sheetTemplateCsv = <K extends string>(columns: readonly SheetColumn<K>[], lang: Lang, example: (k: K) => string) =>
  `\ufeff${columns.map((c) => c[lang]).join(',')}\r\n${columns.map((c) => example(c.key)).join(',')}\r\n`;

/** An import template as xlsx: the header (bold), one example row, every column text (long digits stay whole), and the help sheet. */
export async function sheetTemplateXlsx<K extends string>(
  columns: readonly SheetColumn<K>[], lang: Lang, example: (k: K) => string, o: { sheet: string; width: number; help: string[] },
): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(o.sheet);
  // long numbers typed into a number cell lose digits in Excel (15 significant digits): keep them as text
  ws.columns = columns.map((c) => ({ header: c[lang], key: c.key, width: o.width, style: { numFmt: '@' } }));
  ws.getRow(1).font = { bold: true };
  ws.addRow(Object.fromEntries(columns.map((c) => [c.key, example(c.key)])));
  const notes = wb.addWorksheet(lang === 'zh' ? '填写说明' : 'How to fill in');
  for (const line of o.help) notes.addRow([line]);
  notes.getColumn(1).width = 110;
  return Buffer.from(await wb.xlsx.writeBuffer());
}
