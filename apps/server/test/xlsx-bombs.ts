// Hand-built zips and xlsx compression bombs for the spreadsheet reader's tests. A bomb's content is never
// in memory: one block of a repeated pattern is deflated once (ending in a full flush, so that it refers to
// nothing before it) and the compressed block is repeated, which is a valid deflate stream of the whole.
import zlib from 'node:zlib';

export interface ZipPart {
  name: string;
  /** the content, deflated (method 8) unless `stored` */
  data?: Buffer;
  /** already deflated bytes (raw deflate) */
  deflated?: Buffer;
  stored?: boolean;
  /** the uncompressed size the headers state (default: the real size when known, else 0) */
  declared?: number;
  /** flags of the entry (bit 0: encrypted) */
  flags?: number;
  /** overrides the compression method written */
  method?: number;
}

/** A zip of the parts, local headers, central directory and end record written as a real archiver would. */
export function zipOf(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const method = p.method ?? (p.stored ? 0 : 8);
    const body = p.deflated ?? (p.stored ? p.data! : zlib.deflateRawSync(p.data!));
    const declared = p.declared ?? p.data?.length ?? 0;
    const name = Buffer.from(p.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(p.flags ?? 0, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    const cen = Buffer.alloc(46);
    cen.writeUInt32LE(0x02014b50, 0);
    cen.writeUInt16LE(20, 4);
    cen.writeUInt16LE(20, 6);
    cen.writeUInt16LE(p.flags ?? 0, 8);
    cen.writeUInt16LE(method, 10);
    cen.writeUInt32LE(body.length, 20);
    cen.writeUInt32LE(declared, 24);
    cen.writeUInt16LE(name.length, 28);
    cen.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(cen, name);
    offset += local.length + name.length + body.length;
  }
  const cenSize = centrals.reduce((n, b) => n + b.length, 0);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(parts.length, 8);
  eocd.writeUInt16LE(parts.length, 10);
  eocd.writeUInt32LE(cenSize, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, eocd]);
}

/**
 * Raw deflate of head + unit repeated until about `bytes` + tail, built without holding the content: one ~1 MB
 * block of units is compressed once and its compressed form repeated.
 */
export function deflatedRepeat(head: string, unit: string, bytes: number, tail: string): Buffer {
  const full = { finishFlush: zlib.constants.Z_FULL_FLUSH, level: 9 };
  const block = Buffer.from(unit.repeat(Math.max(1, Math.floor((1024 * 1024) / Buffer.byteLength(unit)))));
  const packed = zlib.deflateRawSync(block, full);
  const copies = Math.max(1, Math.ceil(bytes / block.length));
  return Buffer.concat([zlib.deflateRawSync(Buffer.from(head), full), ...Array<Buffer>(copies).fill(packed), zlib.deflateRawSync(Buffer.from(tail))]);
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`;
const WORKBOOK = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`;
export const SHEET_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
export const SHEET_TAIL = '</sheetData></worksheet>';
const SST_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">';

/** A minimal xlsx: the given sheet XML (or its parts), optionally a shared string table and more parts (xl/styles.xml, say). */
export function xlsxOf(sheet: Omit<ZipPart, 'name'>, sharedStrings?: Omit<ZipPart, 'name'>, more: ZipPart[] = []): Buffer {
  return zipOf([
    { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
    { name: 'xl/workbook.xml', data: Buffer.from(WORKBOOK) },
    { name: 'xl/_rels/workbook.xml.rels', data: Buffer.from(RELS) },
    { name: 'xl/worksheets/sheet1.xml', ...sheet },
    ...(sharedStrings ? [{ name: 'xl/sharedStrings.xml', ...sharedStrings }] : []),
    ...more,
  ]);
}

/** Inflated size of every bomb: past the largest limit (the card import's 80 MB), in at most ~350 KB of zip. */
const BOMB_BYTES = 96 * 1024 * 1024;
const row1 = '<row r="1"><c r="A1" t="inlineStr"><is><t>ICCID</t></is></c></row>';

/** Each way a small file can unpack to far more than an import reads, by name. */
export const bombs: Record<string, () => Buffer> = {
  giantCell: () => xlsxOf({ deflated: deflatedRepeat(`${SHEET_HEAD}${row1}<row r="2"><c r="A2" t="inlineStr"><is><t>`, 'AAAAAAAAAAAAAAAA', BOMB_BYTES, `</t></is></c></row>${SHEET_TAIL}`) }),
  endlessRows: () => xlsxOf({ deflated: deflatedRepeat(`${SHEET_HEAD}${row1}`, '<row><c t="inlineStr"><is><t>89860000000000000000</t></is></c></row>', BOMB_BYTES, SHEET_TAIL) }),
  endlessColumns: () => xlsxOf({ deflated: deflatedRepeat(`${SHEET_HEAD}<row r="1">`, '<c t="inlineStr"><is><t>ICCID</t></is></c>', BOMB_BYTES, `</row>${SHEET_TAIL}`) }),
  sharedStrings: () => xlsxOf(
    { data: Buffer.from(`${SHEET_HEAD}<row r="1"><c r="A1" t="s"><v>0</v></c></row>${SHEET_TAIL}`) },
    { deflated: deflatedRepeat(SST_HEAD, '<si><t>ICCID89860</t></si>', BOMB_BYTES, '</sst>') },
  ),
  zeros: () => xlsxOf({ deflated: deflatedRepeat(SHEET_HEAD, '\0\0\0\0\0\0\0\0', BOMB_BYTES, SHEET_TAIL) }),
  endlessTag: () => xlsxOf({ deflated: deflatedRepeat(`${SHEET_HEAD}<row r="1" `, 'a="b" ', BOMB_BYTES, `>${SHEET_TAIL}`) }),
  lyingSize: () => xlsxOf({ deflated: deflatedRepeat(`${SHEET_HEAD}${row1}`, ' \n', BOMB_BYTES, SHEET_TAIL), declared: 2048 }),
  // tags whose text a backtracking parser takes quadratic time over: each alone within the tag size limit
  /** attribute text without '=' (a regex for name="value" retried from every position: 39 s for 8 MB) */
  attributeText: () => xlsxOf({ deflated: deflatedRepeat(`${SHEET_HEAD}${row1}`, `<row ${'a'.repeat(7000)}>`, BOMB_BYTES, SHEET_TAIL) }),
  /** number formats of '[' without ']' (a regex for [sections] retried from every '[': 10 s for 4 MB) */
  formatBrackets: () => xlsxOf({ data: Buffer.from(`${SHEET_HEAD}${row1}${SHEET_TAIL}`) }, undefined, [
    { name: 'xl/styles.xml', deflated: deflatedRepeat('<styleSheet><numFmts>', `<numFmt numFmtId="164" formatCode="${'['.repeat(5000)}"/>`, BOMB_BYTES, '</numFmts></styleSheet>') },
  ]),
};
