import { setImmediate as nextTurn } from 'node:timers/promises';
import { cellTooLong, ownCopy, tooManyColumns, unpackedTooLarge, type Cells, type Limits } from './limits.ts';

/** characters parsed between turns of the event loop */
const STEP = 256 * 1024;

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

/**
 * RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF; a UTF-8 BOM dropped) as rows of trimmed cells,
 * under the same limits as an xlsx: rows and columns that carry a value, characters per cell. Blank fields
 * beyond the column limit and blank rows beyond the row limit are dropped rather than kept.
 */
export async function readCsv(buf: Buffer, limits: Limits): Promise<Cells[]> {
  if (buf.length > limits.maxUnpackedBytes) throw unpackedTooLarge(limits.maxUnpackedBytes);
  const text = csvText(buf);
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const n = s.length;
  const fieldCap = limits.maxCellChars * 2 + 100;
  const rows: Cells[] = [];
  let row: Cells = [];
  let column = 0;
  let field = '';
  let quoted = false;
  let rowNo = 1;
  const endField = () => {
    column++;
    const v = field.trim();
    field = '';
    if (v.length > limits.maxCellChars) throw cellTooLong(rowNo, column, limits.maxCellChars);
    if (v) {
      if (rowNo > limits.maxRows) throw limits.tooManyRows();
      if (column > limits.maxColumns) throw tooManyColumns(rowNo, limits.maxColumns);
    }
    // a field cut from the text would keep the whole text alive as long as the rows live
    if (column <= limits.maxColumns) row.push(v ? ownCopy(v) : null);
  };
  const endRow = () => {
    // a copy without the room push left for more cells (17 slots for a row of 6)
    if (rowNo <= limits.maxRows) rows.push(row.slice());
    row = [];
    column = 0;
    rowNo++;
  };
  let i = 0;
  let nextTurnAt = STEP;
  while (i < n) {
    if (i >= nextTurnAt) {
      await nextTurn();
      nextTurnAt = i + STEP;
    }
    if (quoted) {
      const q = s.indexOf('"', i);
      const stop = q < 0 ? n : q;
      field += s.slice(i, stop);
      if (field.length > fieldCap) throw cellTooLong(rowNo, column + 1, limits.maxCellChars);
      if (q < 0) break;
      if (s.charCodeAt(q + 1) === 0x22) {
        field += '"';
        i = q + 2;
      } else {
        quoted = false;
        i = q + 1;
      }
      continue;
    }
    let j = i;
    const until = Math.min(n, i + fieldCap + 1);
    for (; j < until; j++) {
      const c = s.charCodeAt(j);
      if (c === 0x2c || c === 0x0a || c === 0x0d || c === 0x22) break;
    }
    field += s.slice(i, j);
    if (field.length > fieldCap) throw cellTooLong(rowNo, column + 1, limits.maxCellChars);
    i = j;
    if (i >= n) break;
    const c = s.charCodeAt(i);
    if (c === 0x22) {
      // a quote opens a quoted field only at its start; elsewhere it is text
      if (field === '') quoted = true;
      else field += '"';
    } else if (c === 0x2c) endField();
    else {
      endField();
      endRow();
      if (c === 0x0d && s.charCodeAt(i + 1) === 0x0a) i++;
    }
    i++;
  }
  if (field !== '' || row.length || column) {
    endField();
    endRow();
  }
  return rows;
}
