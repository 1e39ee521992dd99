import { ErrorCode, formatSize } from '@lynx/contract';
import { AppError } from '../errors.ts';

/*
 * What one read of an uploaded spreadsheet may take, and the refusals when a file goes beyond it. Every limit
 * is checked while the file is read, so memory and time stay proportional to the limits, never to the file's claims.
 */

/** One row of an uploaded sheet: trimmed cell text, null for a blank cell. */
export type Cells = (string | null)[];

export interface SheetLimits {
  /** every row that carries a value has at least this many cells */
  minColumns: number;
  /** the highest row number (header included) that may carry a value */
  maxRows: number;
  /** the caller's own "too many rows" refusal */
  tooManyRows: () => AppError;
  /** bytes actually inflated from the zip over all parts read (for a CSV: its size) */
  maxUnpackedBytes?: number;
  /** the highest column that may carry a value; empty cells beyond it are ignored */
  maxColumns?: number;
  /** characters in one cell */
  maxCellChars?: number;
  /** entries of the shared string table */
  maxSharedStrings?: number;
  /** characters of one XML tag, comment or CDATA section */
  maxTokenChars?: number;
}

export type Limits = Required<SheetLimits>;

export const DEFAULT_LIMITS = {
  maxUnpackedBytes: 16 * 1024 * 1024,
  maxColumns: 100,
  /** Excel's own limit for a cell */
  maxCellChars: 32_767,
  maxSharedStrings: 200_000,
  /** the longest tags of a real workbook (root elements with their namespaces) are about 1 KB */
  maxTokenChars: 8 * 1024,
} satisfies Partial<SheetLimits>;

export const withDefaults = (l: SheetLimits): Limits => ({ ...DEFAULT_LIMITS, ...l });

export const fileTypeError = () => new AppError(ErrorCode.FileType, undefined, 400);
export const unpackedTooLarge = (max: number) => new AppError(ErrorCode.UploadUnpackedTooLarge, { max: formatSize(max) }, 400);
export const tooManyColumns = (row: number, max: number) => new AppError(ErrorCode.UploadTooManyColumns, { row, max }, 400);
export const cellTooLong = (row: number, column: number, max: number) =>
  new AppError(ErrorCode.UploadCellTooLong, { row, column: columnName(column), max }, 400);
export const markupTooLarge = () => new AppError(ErrorCode.UploadMarkupTooLarge, undefined, 400);

/**
 * A string kept in the rows as a copy of its own. A substring of 13 or more characters (slice, trim, a regex
 * result) is, in V8, a view into the string it was cut from: a cell cut from a 64 K-character piece of XML, or
 * from a whole CSV, would keep all of it alive as long as the rows live. The copy goes through UTF-8, which
 * is lossless here (the text comes from a UTF-8 or GB18030 decoder, never a lone surrogate).
 */
export const ownCopy = (s: string): string => (s.length < 13 ? s : Buffer.from(s, 'utf8').toString('utf8'));

/** 1 → A, 27 → AA: a column as a spreadsheet shows it. */
export function columnName(n: number): string {
  let s = '';
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s;
}

/** The bytes a read may still inflate; `take` refuses the first byte beyond the limit. */
export class Budget {
  private used = 0;
  constructor(readonly max: number) {}
  take(n: number) {
    this.used += n;
    if (this.used > this.max) throw unpackedTooLarge(this.max);
  }
}

/**
 * A zip part that inflates to more than this many times the bytes fed to zlib, once it has inflated
 * INFLATE_RATIO_FROM bytes (the default budget: only the larger budgets, such as the card import's, get this far), is a compression bomb and refused like an over-budget one, without inflating on to the
 * budget (80 MB for a card import: seconds of work on a busy server). Real sheets compress 5-50 times (every row and
 * cell names its own position); Apache POI refuses at 100 times.
 */
export const MAX_INFLATE_RATIO = 200;
export const INFLATE_RATIO_FROM = 16 * 1024 * 1024;
