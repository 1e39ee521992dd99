import { StringDecoder } from 'node:string_decoder';
import { Budget, fileTypeError, type Cells, type Limits } from './limits.ts';
import { XmlStream, type XmlHandler } from './xml.ts';
import { inflateEntry, zipEntries, type ZipEntry } from './zip.ts';
import { RelsPart, SharedStringsPart, SheetPart, StylesPart, WorkbookPart } from './xlsx-parts.ts';

/**
 * The first worksheet of an xlsx (the first `<sheet>` of the workbook that is a worksheet, as ExcelJS's
 * `worksheets[0]`) as rows of cells. Every part is inflated and parsed as a stream under one budget of
 * inflated bytes; nothing the archive declares about sizes is believed.
 */
export async function readXlsx(zip: Buffer, limits: Limits): Promise<Cells[]> {
  const entries = zipEntries(zip);
  const budget = new Budget(limits.maxUnpackedBytes);
  const read = async (name: string, h: XmlHandler): Promise<boolean> => {
    const entry = entries.get(name);
    if (!entry) return false;
    await readPart(zip, entry, budget, limits.maxTokenChars, h);
    return true;
  };

  const workbook = new WorkbookPart();
  if (!(await read('xl/workbook.xml', workbook))) throw fileTypeError();
  const rels = new RelsPart();
  await read('xl/_rels/workbook.xml.rels', rels);
  const sheetPath = workbook.sheetIds
    .map((id) => rels.rels.get(id))
    .find((r) => r && (r.type.endsWith('/worksheet') || (!r.type && r.path.includes('worksheets/'))))?.path;
  if (!sheetPath) return [];
  if (!entries.has(sheetPath)) throw fileTypeError();

  const styles = new StylesPart();
  await read(rels.pathOf('styles') ?? 'xl/styles.xml', styles);
  const shared = new SharedStringsPart(limits);
  await read(rels.pathOf('sharedStrings') ?? 'xl/sharedstrings.xml', shared);
  const sheet = new SheetPart(limits, shared.strings, styles, workbook.date1904);
  await read(sheetPath, sheet);
  return sheet.rows;
}

async function readPart(zip: Buffer, entry: ZipEntry, budget: Budget, maxToken: number, h: XmlHandler) {
  const decoder = new StringDecoder('utf8');
  const xml = new XmlStream(h, maxToken);
  await inflateEntry(zip, entry, budget, (piece) => {
    if (h.done) return;
    // text the handler does not keep is dropped anyway: a piece without a tag in it need not even be decoded
    // ('<' is never part of a multi-byte character, so resetting the decoder can only garble dropped text)
    if (!h.keep && xml.idle && piece.indexOf(0x3c) < 0) {
      decoder.end();
      return;
    }
    xml.write(decoder.write(piece));
  });
  xml.write(decoder.end());
  xml.end();
}
