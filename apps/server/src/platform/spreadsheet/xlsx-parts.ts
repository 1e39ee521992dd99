import { cellTooLong, fileTypeError, markupTooLarge, ownCopy, tooManyColumns, type Cells, type Limits } from './limits.ts';
import { attrsOf, decodeXml, type XmlHandler } from './xml.ts';

/*
 * Handlers for the parts of an xlsx that the reader needs, each fed by XmlStream as the part is inflated:
 * the workbook (sheet order, 1904 dates), its relationships (where each sheet is), the styles (which cells
 * are dates), the shared strings and the first worksheet. Each keeps only what the rows need.
 */

/** a shared string longer than a cell may be: refused only if the sheet uses it */
export const TOO_LONG = Symbol('too long');
type Shared = string | null | typeof TOO_LONG;
/** characters of raw XML text collected for one value before it is decoded: an entity is at most 10 characters */
const rawCap = (l: Limits) => l.maxCellChars * 10 + 100;
/** bounds on what the small parts may list; real workbooks stay far below */
const MAX_SHEETS = 1000;
const MAX_RELS = 5000;
const MAX_STYLES = 65_536;
const MAX_ROW = 1_048_576;
const MAX_COLUMN = 16_384;

/** `<workbookPr date1904>` and the relationship id of every `<sheet>`, in order. */
export class WorkbookPart implements XmlHandler {
  readonly keep = false;
  date1904 = false;
  sheetIds: string[] = [];
  open(name: string, raw: string) {
    if (name === 'workbookPr') {
      const v = attrsOf(raw).date1904;
      this.date1904 = v === '1' || v === 'true';
    } else if (name === 'sheet' && this.sheetIds.length < MAX_SHEETS) {
      this.sheetIds.push(attrsOf(raw).id ?? '');
    }
  }
  close() {}
  text() {}
}

/** The relationships of the workbook: id → part path (resolved from xl/) and type. */
export class RelsPart implements XmlHandler {
  readonly keep = false;
  rels = new Map<string, { path: string; type: string }>();
  open(name: string, raw: string) {
    if (name !== 'Relationship' || this.rels.size >= MAX_RELS) return;
    const a = attrsOf(raw);
    if (!a.Id || !a.Target || a.TargetMode === 'External') return;
    this.rels.set(a.Id, { path: resolvePart('xl/', a.Target), type: a.Type ?? '' });
  }
  close() {}
  text() {}
  /** the first part of a relationship type (by its last path segment, e.g. 'styles') */
  pathOf(type: string): string | undefined {
    for (const r of this.rels.values()) if (r.type.endsWith(`/${type}`)) return r.path;
    return undefined;
  }
}

/** A relationship target as a zip entry name: relative to `base` unless absolute, '.' and '..' resolved. */
function resolvePart(base: string, target: string): string {
  const parts: string[] = [];
  for (const seg of (target.startsWith('/') ? target.slice(1) : base + target).split('/')) {
    if (seg === '..') parts.pop();
    else if (seg && seg !== '.') parts.push(seg);
  }
  return parts.join('/').toLowerCase();
}

/** Excel's built-in number formats that show dates or times. */
const BUILTIN_DATES = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

/** Excel's limit for a number format code; a longer one is no format Excel wrote, and is read as no date */
export const MAX_FORMAT_CODE = 255;

/** `s` without the sections from `open` to the next `close` (both included); an unclosed `open` stays as text. */
function withoutSections(s: string, open: string, close: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const from = s.indexOf(open, i);
    // no later `open` can find a `close` that this one did not: the rest is text
    const to = from < 0 ? -1 : s.indexOf(close, from + 1);
    if (to < 0) return out + s.slice(i);
    out += s.slice(i, from);
    i = to + 1;
  }
}

/**
 * A custom number format shows a date when y, m, d or h appear outside quoted text, [brackets] and escapes
 * (\x, _x, *x). Hand-written scans, each linear in the code's length (a backtracking regex took seconds on `[[[[…`).
 */
export function isDateFormat(code: string): boolean {
  if (code.length > MAX_FORMAT_CODE) return false;
  const unbracketed = withoutSections(withoutSections(code, '"', '"'), '[', ']');
  let bare = '';
  for (let i = 0; i < unbracketed.length; i++) {
    const c = unbracketed[i];
    if ((c === '\\' || c === '_' || c === '*') && i + 1 < unbracketed.length && !'\n\r\u2028\u2029'.includes(unbracketed[i + 1])) i++;
    else bare += c;
  }
  return /[ymdh]/i.test(bare) && bare.trim().toLowerCase() !== 'general';
}

/** Which cell styles (cellXfs index) format numbers as dates. */
export class StylesPart implements XmlHandler {
  readonly keep = false;
  private custom = new Map<number, boolean>();
  private xfFormat: number[] = [];
  private inXfs = false;
  open(name: string, raw: string) {
    if (name === 'numFmt' && this.custom.size < MAX_STYLES) {
      const a = attrsOf(raw);
      this.custom.set(Number(a.numFmtId), isDateFormat(a.formatCode ?? ''));
    } else if (name === 'cellXfs') this.inXfs = true;
    else if (name === 'xf' && this.inXfs && this.xfFormat.length < MAX_STYLES) this.xfFormat.push(Number(attrsOf(raw).numFmtId) || 0);
  }
  close(name: string) {
    if (name === 'cellXfs') this.inXfs = false;
  }
  text() {}
  isDate(style: number): boolean {
    const id = this.xfFormat[style];
    if (id === undefined) return false;
    return this.custom.get(id) ?? BUILTIN_DATES.has(id);
  }
}

/** The shared string table: plain `<si><t>` and rich text `<si><r><t>`, phonetic runs (`<rPh>`) left out. */
export class SharedStringsPart implements XmlHandler {
  keep = false;
  strings: Shared[] = [];
  private inSi = false;
  private phonetic = 0;
  private buf = '';
  private tooLong = false;
  constructor(private readonly limits: Limits) {}
  open(name: string) {
    if (name === 'si') {
      this.inSi = true;
      this.buf = '';
      this.tooLong = false;
    } else if (name === 'rPh') this.phonetic++;
    else if (name === 't' && this.inSi && !this.phonetic && !this.tooLong) this.keep = true;
  }
  close(name: string) {
    if (name === 't') this.keep = false;
    else if (name === 'rPh') this.phonetic--;
    else if (name === 'si' && this.inSi) {
      this.inSi = false;
      // a <t> or <rPh> left open does not reach into the next string
      this.keep = false;
      this.phonetic = 0;
      if (this.strings.length >= this.limits.maxSharedStrings) throw markupTooLarge();
      const text = this.tooLong ? '' : decodeXml(this.buf).trim();
      this.strings.push(this.tooLong || text.length > this.limits.maxCellChars ? TOO_LONG : ownCopy(text) || null);
      this.buf = '';
    }
  }
  text(raw: string) {
    this.buf += raw;
    if (this.buf.length > rawCap(this.limits)) {
      this.tooLong = true;
      this.buf = '';
      this.keep = false;
    }
  }
}

/** 'B12' → 2; 0 when the reference has no column letters. */
function columnOf(ref: string): number {
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i) | 0x20;
    if (c < 0x61 || c > 0x7a) break;
    n = n * 26 + (c - 0x60);
    if (n > MAX_COLUMN) return -1;
  }
  return n;
}

/** An Excel serial day as yyyy-mm-dd (UTC), null when it is no date. */
function excelDate(serial: number, date1904: boolean): string | null {
  const d = new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 86_400_000));
  return Number.isNaN(d.getTime()) ? null : d.toISOString().slice(0, 10);
}

/**
 * The first worksheet's `<sheetData>` as rows of trimmed cell text: numbers without float noise, dates as
 * yyyy-mm-dd, booleans as true/false, errors and blanks as null. Rows without a value are [] and rows with
 * one are padded to `minColumns`. Row and column numbers follow `r` or, without it, the previous one.
 */
export class SheetPart implements XmlHandler {
  keep = false;
  done = false;
  rows: Cells[] = [];
  private inData = false;
  private rowNo = 0;
  private cur: Cells | null = null;
  private col = 0;
  private inCell = false;
  private type = 'n';
  private style = 0;
  private v: string | null = null;
  private inline: string | null = null;
  private target: 'v' | 't' | null = null;
  private inIs = false;
  private phonetic = 0;

  constructor(
    private readonly limits: Limits,
    private readonly shared: Shared[],
    private readonly styles: StylesPart,
    private readonly date1904: boolean,
  ) {}

  open(name: string, raw: string) {
    switch (name) {
      case 'sheetData':
        this.inData = true;
        break;
      case 'row': {
        if (!this.inData) return;
        const r = attrsOf(raw).r;
        const n = r === undefined ? this.rowNo + 1 : Number(r);
        // rows come in ascending order; anything else is no sheet Excel wrote
        if (!Number.isInteger(n) || n <= this.rowNo || n > MAX_ROW) throw fileTypeError();
        this.rowNo = n;
        this.cur = [];
        this.col = 0;
        break;
      }
      case 'c': {
        if (!this.cur) return;
        const a = attrsOf(raw);
        const col = a.r === undefined ? this.col + 1 : columnOf(a.r);
        if (col <= 0 || col > MAX_COLUMN) throw fileTypeError();
        this.col = col;
        this.inCell = true;
        this.type = a.t ?? 'n';
        this.style = Number(a.s) || 0;
        this.v = null;
        this.inline = null;
        break;
      }
      case 'v':
        if (this.inCell) this.collect('v');
        break;
      case 'is':
        if (this.inCell) this.inIs = true;
        break;
      case 'rPh':
        this.phonetic++;
        break;
      case 't':
        if (this.inIs && !this.phonetic) this.collect('t');
        break;
    }
  }

  private collect(target: 'v' | 't') {
    this.target = target;
    this.keep = true;
    if (target === 'v') this.v = '';
    else this.inline ??= '';
  }

  text(raw: string) {
    const cap = rawCap(this.limits);
    if (this.target === 'v') {
      this.v += raw;
      if (this.v!.length > cap) throw cellTooLong(this.rowNo, this.col, this.limits.maxCellChars);
    } else {
      this.inline += raw;
      if (this.inline!.length > cap) throw cellTooLong(this.rowNo, this.col, this.limits.maxCellChars);
    }
  }

  close(name: string) {
    switch (name) {
      case 'v':
      case 't':
        this.keep = false;
        this.target = null;
        break;
      case 'rPh':
        this.phonetic--;
        break;
      case 'is':
        this.inIs = false;
        break;
      case 'c':
        if (this.inCell) this.endCell();
        this.endMarkup();
        break;
      case 'row':
        if (this.cur) this.endRow();
        this.endMarkup();
        break;
      case 'sheetData':
        // what follows the cells (merged cells, conditional formats, validations) is not read at all
        this.inData = false;
        this.done = true;
        break;
    }
  }

  /** A `<v>`, `<t>`, `<is>` or `<rPh>` left open ends with its cell (or row): nothing of it reaches the next cell. */
  private endMarkup() {
    this.inCell = false;
    this.keep = false;
    this.target = null;
    this.inIs = false;
    this.phonetic = 0;
  }

  private endCell() {
    const text = this.cellText();
    if (text === null) return;
    const l = this.limits;
    if (text === TOO_LONG || text.length > l.maxCellChars) throw cellTooLong(this.rowNo, this.col, l.maxCellChars);
    if (this.rowNo > l.maxRows) throw l.tooManyRows();
    if (this.col > l.maxColumns) throw tooManyColumns(this.rowNo, l.maxColumns);
    const cur = this.cur!;
    while (cur.length < this.col - 1) cur.push(null);
    // a shared string is a copy of its own already, and may stand in many cells
    cur[this.col - 1] = this.type === 's' ? text : ownCopy(text);
  }

  private endRow() {
    const cur = this.cur!;
    this.cur = null;
    if (!cur.length) return;
    while (cur.length < this.limits.minColumns) cur.push(null);
    while (this.rows.length < this.rowNo - 1) this.rows.push([]);
    // a copy without the room push left for more cells (17 slots for a row of 6)
    this.rows.push(cur.slice());
  }

  private cellText(): Shared {
    const v = this.v === null ? null : decodeXml(this.v).trim();
    switch (this.type) {
      case 's': {
        const s = v ? this.shared[Number(v)] : undefined;
        return s === undefined ? null : s;
      }
      case 'inlineStr':
        return this.inline === null ? v || null : decodeXml(this.inline).trim() || null;
      case 'str':
        return v || null;
      case 'b':
        return v ? (v === '1' || v.toLowerCase() === 'true' ? 'true' : 'false') : null;
      case 'e':
        return null;
      case 'd': {
        if (!v) return null;
        const d = new Date(v);
        return Number.isNaN(d.getTime()) ? v : d.toISOString().slice(0, 10);
      }
      default: {
        if (!v) return null;
        const num = Number(v);
        if (!Number.isFinite(num)) return v;
        if (this.styles.isDate(this.style)) return excelDate(num, this.date1904) ?? String(Math.round(num * 1e6) / 1e6);
        return String(Math.round(num * 1e6) / 1e6);
      }
    }
  }
}
