import path from 'node:path';
import ExcelJS from 'exceljs';
import { ErrorCode } from '@lynx/contract';
import { AppError } from './errors.ts';

/*
 * Reading uploaded spreadsheets (xlsx or csv) into rows of trimmed text cells, shared by every import
 * (operator plans, cards): UTF-8 or GBK CSV, zip-bomb check before an xlsx is inflated.
 */

export type Cells = (string | null)[];

/**
 * The text of an uploaded CSV: UTF-8 when the bytes are valid UTF-8, else GB18030 (a superset of GBK, what
 * Excel on a Chinese Windows saves "CSV" in), so Chinese headers and names are read correctly either way.
 */
export function csvText(buf: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    return new TextDecoder('gb18030').decode(buf);
  }
}

/** The text of a cell as a person typed it (numbers without float noise, dates as yyyy-mm-dd). */
function cellText(v: ExcelJS.CellValue): string | null {
  if (v == null) return null;
  if (typeof v === 'number') return String(Math.round(v * 1e6) / 1e6);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    if ('richText' in v) return v.richText.map((t) => t.text).join('');
    if ('text' in v && typeof v.text === 'string') return v.text;
    if ('result' in v) return cellText(v.result as ExcelJS.CellValue);
    if ('error' in v) return null;
  }
  return String(v);
}

/** RFC 4180 CSV: quoted fields, doubled quotes, CRLF or LF; a UTF-8 BOM is dropped. */
export function parseCsv(text: string): Cells[] {
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < s.length) {
    const ch = s[i];
    if (quoted) {
      if (ch === '"') {
        if (s[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      if (ch === '\r' && s[i + 1] === '\n') i++;
    } else field += ch;
    i++;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.map((r) => r.map((c) => (c.trim() === '' ? null : c.trim())));
}

/**
 * The total uncompressed size the zip's central directory declares, or null when the buffer is not a
 * readable zip. Zip64 entries (sizes beyond 4 GB) count as Infinity.
 */
export function zipUnpackedSize(buf: Buffer): number | null {
  const EOCD = 0x06054b50;
  const CEN = 0x02014b50;
  // the end-of-central-directory record is 22 bytes plus a comment of at most 65535 bytes
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65_535); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const entries = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== CEN) return null;
    const size = buf.readUInt32LE(p + 24);
    if (size === 0xffffffff) return Infinity;
    total += size;
    p += 46 + buf.readUInt16LE(p + 28) + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
  }
  return total;
}

/** The first worksheet as rows of cells; every row has at least `minColumns` cells. */
export async function readXlsx(buffer: Buffer, minColumns = 0): Promise<Cells[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buffer as unknown as ArrayBuffer);
  const ws = wb.worksheets[0];
  if (!ws) return [];
  const rows: Cells[] = [];
  ws.eachRow({ includeEmpty: true }, (r, n) => {
    const values: Cells = [];
    for (let c = 1; c <= Math.max(r.cellCount, minColumns); c++) {
      const t = cellText(r.getCell(c).value);
      values.push(t === null || t.trim() === '' ? null : t.trim());
    }
    rows[n - 1] = values;
  });
  for (let i = 0; i < rows.length; i++) rows[i] ??= [];
  return rows;
}

const XLSX_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/**
 * The rows of an uploaded .xlsx or .csv file, judged by its name and its bytes (an xlsx is a zip, a CSV has
 * no NUL bytes). Anything else is a file type error (400). An xlsx that declares more unpacked content
 * than `maxUnpackedBytes` is refused with `tooBigError` before it is inflated into memory.
 */
export async function readSheet(
  file: { filename: string; buffer: Buffer },
  opts: { minColumns: number; maxUnpackedBytes: number; tooBigError: () => AppError },
): Promise<Cells[]> {
  const ext = path.extname(file.filename).toLowerCase();
  if (ext === '.xlsx' && file.buffer.subarray(0, 4).equals(XLSX_MAGIC)) {
    const unpacked = zipUnpackedSize(file.buffer);
    if (unpacked === null) throw new AppError(ErrorCode.FileType, undefined, 400);
    if (unpacked > opts.maxUnpackedBytes) throw opts.tooBigError();
    try {
      return await readXlsx(file.buffer, opts.minColumns);
    } catch {
      throw new AppError(ErrorCode.FileType, undefined, 400);
    }
  }
  if (ext === '.csv' && !file.buffer.includes(0)) return parseCsv(csvText(file.buffer));
  throw new AppError(ErrorCode.FileType, undefined, 400);
}
