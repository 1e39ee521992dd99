import zlib from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { calendarParts } from '@lynx/contract';

/*
 * A streamed xlsx writer: one worksheet of inline strings and numbers written as XML text, deflated and zipped
 * as it is produced. Nothing per cell is kept: rows are turned into text, batched into chunks of ~64 K characters
 * and pulled through deflate into the output with back-pressure, so a slow disk (or a slow reader of the output)
 * stops the reading of rows instead of letting them pile up in memory. Exports of a million lines (issue 14) go
 * through it; ExcelJS's WorkbookWriter built objects for every cell and wrote into its zip without waiting.
 * The zip is written here too (deflate from node:zlib, sizes in a data descriptor after the streamed part), so the
 * file needs no dependency beyond Node.
 */

export interface SheetColumn {
  header: string;
  /** the column's width in characters */
  width: number;
  /** money: a number shown with the '#,##0.00' format */
  money?: boolean;
}

export interface SheetSpec {
  /** the tab's name; made valid for Excel (sheetName) */
  name: string;
  /** the document title in its properties */
  title?: string;
  columns: SheetColumn[];
}

export type SheetCell = string | number | null | undefined;

/** characters of the sheet's XML gathered before they are handed to deflate */
const CHUNK_CHARS = 64 * 1024;
/** Excel's limit on a cell's text */
const MAX_CELL_CHARS = 32_767;
const U32 = 0xffffffff;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** the C0 controls XML 1.0 forbids (all but tab, LF and CR), as a character-class range */
const C0 = '\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F';
/** anything that needs work before it can stand in XML text: markup, characters XML 1.0 forbids, Excel's _xHHHH_ */
const NEEDS_WORK = new RegExp(`[&<>"\\r${C0}\\uD800-\\uDFFF\\uFFFE\\uFFFF]|_x[0-9A-Fa-f]{4}_`);
/** characters XML 1.0 does not allow (C0 controls but tab, LF and CR; U+FFFE/U+FFFF; unpaired surrogates) */
const ILLEGAL = new RegExp(`[${C0}\\uFFFE\\uFFFF]|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]`, 'g');
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\r': '&#13;' };

/**
 * Text as XML character data (and attribute values): markup escaped, characters XML cannot hold dropped, and a
 * literal `_x0041_` kept literal (Excel reads `_xHHHH_` in a cell's text as the character HHHH).
 */
export function xmlText(s: string): string {
  if (!NEEDS_WORK.test(s)) return s;
  return s
    .replace(ILLEGAL, '')
    .replace(/_(?=x[0-9A-Fa-f]{4}_)/g, '_x005F_')
    .replace(/[&<>"\r]/g, (c) => ENTITIES[c]);
}

/**
 * A valid sheet name: without the characters Excel forbids (: \ / ? * [ ]) and characters XML cannot hold, no
 * apostrophe at either end, at most 31 characters (not splitting a surrogate pair), never empty or 'History'.
 */
export function sheetName(title: string): string {
  let s = title.replace(ILLEGAL, '').replace(/[:\\/?*[\]]/g, '').trim().replace(/^'+|'+$/g, '');
  if (s.length > 31) s = s.slice(0, /[\uD800-\uDBFF]/.test(s[30]) ? 30 : 31).replace(/'+$/, '');
  return s === '' || s.toLowerCase() === 'history' ? 'Sheet1' : s;
}

/** 'A' … 'Z', 'AA' … for a column index from 0 */
export function columnLetters(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** style indexes of styles.xml's cellXfs */
const STYLE_HEADER = 1;
const STYLE_MONEY = 2;

const STYLES = XML_HEAD + `<styleSheet xmlns="${NS_MAIN}">`
  + '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>'
  + '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>'
  + '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>'
  + '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
  + '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
  // 0 plain; 1 the header row, bold; 2 money: the built-in format 4, '#,##0.00'
  + '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
  + '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>'
  + '<xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>'
  + '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
  + '<dxfs count="0"/><tableStyles count="0"/></styleSheet>';

function packageParts(spec: SheetSpec, now: Date): [string, string][] {
  const stamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const ct = 'application/vnd.openxmlformats-officedocument';
  return [
    ['[Content_Types].xml', XML_HEAD + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
      + '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
      + '<Default Extension="xml" ContentType="application/xml"/>'
      + `<Override PartName="/xl/workbook.xml" ContentType="${ct}.spreadsheetml.sheet.main+xml"/>`
      + `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${ct}.spreadsheetml.worksheet+xml"/>`
      + `<Override PartName="/xl/styles.xml" ContentType="${ct}.spreadsheetml.styles+xml"/>`
      + '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>'
      + '</Types>'],
    ['_rels/.rels', XML_HEAD + `<Relationships xmlns="${NS_PKG_REL}">`
      + `<Relationship Id="rId1" Type="${NS_REL}/officeDocument" Target="xl/workbook.xml"/>`
      + '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>'
      + '</Relationships>'],
    ['docProps/core.xml', XML_HEAD + '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties"'
      + ' xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/"'
      + ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
      + (spec.title ? `<dc:title>${xmlText(spec.title)}</dc:title>` : '')
      + '<dc:creator>Lynx CMP</dc:creator>'
      + `<dcterms:created xsi:type="dcterms:W3CDTF">${stamp}</dcterms:created>`
      + `<dcterms:modified xsi:type="dcterms:W3CDTF">${stamp}</dcterms:modified></cp:coreProperties>`],
    ['xl/workbook.xml', XML_HEAD + `<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_REL}">`
      + '<bookViews><workbookView/></bookViews>'
      + `<sheets><sheet name="${xmlText(sheetName(spec.name))}" sheetId="1" r:id="rId1"/></sheets></workbook>`],
    ['xl/_rels/workbook.xml.rels', XML_HEAD + `<Relationships xmlns="${NS_PKG_REL}">`
      + `<Relationship Id="rId1" Type="${NS_REL}/worksheet" Target="worksheets/sheet1.xml"/>`
      + `<Relationship Id="rId2" Type="${NS_REL}/styles" Target="styles.xml"/>`
      + '</Relationships>'],
    ['xl/styles.xml', STYLES],
  ];
}

/** The worksheet's XML in chunks of about CHUNK_CHARS characters; `counter.rows` counts the data rows read. */
async function* sheetXml(spec: SheetSpec, rows: AsyncIterable<SheetCell[]>, counter: { rows: number }): AsyncGenerator<Buffer> {
  const letters = spec.columns.map((_, i) => columnLetters(i));
  const money = spec.columns.map((c) => !!c.money);
  const cols = spec.columns.map((c, i) =>
    `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"${c.money ? ` style="${STYLE_MONEY}"` : ''}/>`).join('');
  let out = XML_HEAD + `<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_REL}">`
    + '<sheetViews><sheetView workbookViewId="0"/></sheetViews><sheetFormatPr defaultRowHeight="15"/>'
    + (cols ? `<cols>${cols}</cols>` : '') + '<sheetData><row r="1">'
    + spec.columns.map((c, i) => `<c r="${letters[i]}1" s="${STYLE_HEADER}" t="inlineStr"><is><t>${textOf(c.header)}</t></is></c>`).join('')
    + '</row>';
  let r = 1;
  for await (const cells of rows) {
    r++;
    let row = `<row r="${r}">`;
    for (let i = 0; i < letters.length; i++) {
      const v = cells[i];
      if (v == null || v === '') continue;
      if (typeof v === 'number') {
        // NaN and ±Infinity have no cell value: left empty
        if (Number.isFinite(v)) row += `<c r="${letters[i]}${r}"${money[i] ? ` s="${STYLE_MONEY}"` : ''}><v>${v}</v></c>`;
      } else {
        row += `<c r="${letters[i]}${r}" t="inlineStr"><is><t${/^\s|\s$/.test(v) ? ' xml:space="preserve"' : ''}>${textOf(v)}</t></is></c>`;
      }
    }
    out += row + '</row>';
    counter.rows++;
    if (out.length >= CHUNK_CHARS) {
      yield Buffer.from(out, 'utf8');
      out = '';
    }
  }
  yield Buffer.from(out + '</sheetData></worksheet>', 'utf8');
}

/** a cell's text, cut at Excel's limit */
const textOf = (s: string) => xmlText(s.length > MAX_CELL_CHARS ? s.slice(0, MAX_CELL_CHARS) : s);

/** MS-DOS time and date of a zip entry (the business zone's wall clock, 2-second steps) */
function dosTime(d: Date): { time: number; date: number } {
  const p = calendarParts(d)!;
  return {
    time: (p.hour << 11) | (p.minute << 5) | (p.second >> 1),
    date: (Math.max(0, p.year - 1980) << 9) | (p.month << 5) | p.day,
  };
}

/** resolves when `out` takes writes again; rejects when it fails or closes first (a bare once('drain') would wait forever) */
function drained(out: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (err?: Error | null) => {
      out.off('drain', onDrain);
      out.off('error', onError);
      out.off('close', onClose);
      if (err) reject(err);
      else resolve();
    };
    const onDrain = () => done();
    const onError = (err: Error) => done(err);
    const onClose = () => done(out.errored ?? new Error('the file closed before it was written'));
    out.on('drain', onDrain);
    out.on('error', onError);
    out.on('close', onClose);
  });
}

function checkSize(n: number) {
  // shown as the download task's reason, in both languages
  if (n > U32) throw new Error('表格超过 4 GiB，请导出为 CSV / The spreadsheet is larger than 4 GiB: export it as CSV');
}

interface CentralEntry { name: Buffer; flags: number; crc: number; csize: number; usize: number; offset: number }

/**
 * A zip written front to back into a stream, deflating each entry: small parts from memory, one big part
 * streamed (crc and sizes in a data descriptor after its data). No zip64: an archive beyond 4 GiB is refused
 * (an Excel sheet's rows end long before).
 */
class ZipWriter {
  private offset = 0;
  private readonly entries: CentralEntry[] = [];
  private readonly stamp: { time: number; date: number };

  constructor(private readonly out: Writable, now: Date) {
    this.stamp = dosTime(now);
  }

  private async write(b: Buffer) {
    if (this.out.errored || this.out.destroyed) throw this.out.errored ?? new Error('the file closed before it was written');
    this.offset += b.length;
    if (!this.out.write(b)) await drained(this.out);
  }

  private localHeader(name: Buffer, flags: number, crc: number, csize: number, usize: number) {
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    h.writeUInt16LE(flags, 6);
    h.writeUInt16LE(8, 8); // deflate
    h.writeUInt16LE(this.stamp.time, 10);
    h.writeUInt16LE(this.stamp.date, 12);
    h.writeUInt32LE(crc, 14);
    h.writeUInt32LE(csize, 18);
    h.writeUInt32LE(usize, 22);
    h.writeUInt16LE(name.length, 26);
    h.writeUInt16LE(0, 28);
    return Buffer.concat([h, name]);
  }

  /** a part held in memory */
  async add(path: string, content: string) {
    const name = Buffer.from(path, 'utf8');
    const data = Buffer.from(content, 'utf8');
    const deflated = zlib.deflateRawSync(data);
    const e: CentralEntry = { name, flags: 0x0800, crc: zlib.crc32(data), csize: deflated.length, usize: data.length, offset: this.offset };
    this.entries.push(e);
    await this.write(this.localHeader(name, e.flags, e.crc, e.csize, e.usize));
    await this.write(deflated);
  }

  /** a part streamed from `source`, pulled only as fast as the output takes it */
  async addStream(path: string, source: AsyncIterable<Buffer>) {
    const name = Buffer.from(path, 'utf8');
    // bit 3: crc and sizes follow the data; bit 11: the name is UTF-8
    const e: CentralEntry = { name, flags: 0x0808, crc: 0, csize: 0, usize: 0, offset: this.offset };
    checkSize(e.offset);
    await this.write(this.localHeader(name, e.flags, 0, 0, 0));
    await pipeline(
      async function* () {
        for await (const b of source) {
          e.crc = zlib.crc32(b, e.crc);
          e.usize += b.length;
          checkSize(e.usize);
          yield b;
        }
      },
      zlib.createDeflateRaw({ level: 6 }),
      async (deflated: AsyncIterable<Buffer>) => {
        for await (const b of deflated) {
          e.csize += b.length;
          await this.write(b);
        }
      },
    );
    checkSize(e.csize);
    const dd = Buffer.alloc(16);
    dd.writeUInt32LE(0x08074b50, 0);
    dd.writeUInt32LE(e.crc, 4);
    dd.writeUInt32LE(e.csize, 8);
    dd.writeUInt32LE(e.usize, 12);
    await this.write(dd);
    this.entries.push(e);
  }

  /** the central directory and its end record */
  async finish() {
    const start = this.offset;
    for (const e of this.entries) {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE(20, 4); // made by: 2.0, MS-DOS attributes
      h.writeUInt16LE(20, 6);
      h.writeUInt16LE(e.flags, 8);
      h.writeUInt16LE(8, 10);
      h.writeUInt16LE(this.stamp.time, 12);
      h.writeUInt16LE(this.stamp.date, 14);
      h.writeUInt32LE(e.crc, 16);
      h.writeUInt32LE(e.csize, 20);
      h.writeUInt32LE(e.usize, 24);
      h.writeUInt16LE(e.name.length, 28);
      // extra, comment, disk, internal and external attributes: 0
      h.writeUInt32LE(e.offset, 42);
      await this.write(Buffer.concat([h, e.name]));
    }
    checkSize(this.offset);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.write(end);
  }
}

/**
 * Writes an xlsx of one sheet into `out` (which is not ended): a bold header row, then a row per item of `rows`,
 * its cells by position (text as inline strings, numbers as numbers, null or '' empty). Rows are read only as
 * fast as `out` takes the file. Returns the number of data rows.
 */
export async function writeXlsxStream(out: Writable, spec: SheetSpec, rows: AsyncIterable<SheetCell[]>, now = new Date()): Promise<number> {
  const zip = new ZipWriter(out, now);
  for (const [path, content] of packageParts(spec, now)) await zip.add(path, content);
  const counter = { rows: 0 };
  await zip.addStream('xl/worksheets/sheet1.xml', sheetXml(spec, rows, counter));
  await zip.finish();
  return counter.rows;
}
