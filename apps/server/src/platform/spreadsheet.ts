import path from 'node:path';
import { AppError } from './errors.ts';
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
