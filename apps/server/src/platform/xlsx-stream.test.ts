import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { BillLineCategory, formatDateTime } from '@lynx/contract';
import { writeXlsx } from './export-writers.ts';
import { sizeColumns, type ExportSpec } from './exports.ts';
import { readSheet } from './spreadsheet.ts';
import { AppError } from './errors.ts';
import { columnLetters, sheetName, writeXlsxStream, xmlText } from './xlsx-stream.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lx-xlsx-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const ROWS = 5_200;
const spec: ExportSpec = {
  title: { zh: '账单卡明细', en: 'Bill: card lines [2026/10] * ? with a long title' },
  page: async () => ({ list: [], total: 0 }),
  columns: [
    { key: 'iccid', title: { zh: 'ICCID', en: 'ICCID' } },
    { key: 'category', title: { zh: '费用类别', en: 'Category' }, enum: BillLineCategory },
    { key: 'planName', title: { zh: '套餐', en: 'Plan' } },
    { key: 'quantity', title: { zh: '数量', en: 'Quantity' }, type: 'number' },
    { key: 'amount', title: { zh: '金额', en: 'Amount' }, type: 'money' },
    ...sizeColumns('usedBytes', { zh: '用量', en: 'Usage' }),
    { key: 'withheld', title: { zh: '已预扣', en: 'Withheld' }, type: 'bilingual' },
    { key: 'at', title: { zh: '时间', en: 'Time' }, type: 'datetime' },
    { key: 'note', title: { zh: '备注', en: 'Note' } },
  ],
};
const AT = '2026-10-31T16:05:09.000Z';
const line = (i: number): Record<string, unknown> => ({
  iccid: `8986${String(i).padStart(16, '0')}`,
  category: 1,
  planName: i === 0 ? '物联网 10 GB 月套餐' : `Plan ${i % 7}`,
  quantity: i,
  amount: i === 0 ? '1234.50' : (i * 0.01).toFixed(2),
  usedBytes: i === 0 ? 10 * 1024 ** 3 : null,
  withheld: { zh: '是', en: 'Yes' },
  at: i === 0 ? AT : null,
  note: i === 0 ? 'A & B <c> "d" \u0001e\u000bf\uFFFF' : i === 1 ? '' : i === 2 ? ' padded ' : null,
});
async function* lines(n: number) {
  for (let i = 0; i < n; i++) yield line(i);
}

async function readBack(file: string) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  return wb.worksheets[0];
}

describe('writeXlsx: a streamed sheet any reader opens', () => {
  it('headers, values, formats and escaping, read back by ExcelJS', async () => {
    const file = path.join(dir, 'lines-en.xlsx');
    expect(await writeXlsx(file, spec, lines(ROWS), 'en')).toBe(ROWS);
    const ws = await readBack(file);
    expect(ws.name).toBe(sheetName(spec.title.en));
    expect(ws.name).toMatch(/^Bill card lines 202610 +with a/);
    expect(ws.name.length).toBeLessThanOrEqual(31);
    expect(ws.rowCount).toBe(ROWS + 1);
    const header = ws.getRow(1);
    expect(header.values).toEqual([undefined, 'ICCID', 'Category', 'Plan', 'Quantity', 'Amount', 'Usage (bytes)', 'Usage', 'Withheld',
      'Time (UTC+8)', 'Note']);
    expect(header.getCell(1).font?.bold).toBe(true);
    const first = ws.getRow(2);
    expect(first.getCell(1).value).toBe('89860000000000000000');
    expect(first.getCell(2).value).toBe(BillLineCategory.label(1, 'en'));
    expect(first.getCell(3).value).toBe('物联网 10 GB 月套餐');
    expect(first.getCell(4).value).toBe(0);
    expect(first.getCell(5).value).toBe(1234.5);
    expect(first.getCell(5).numFmt).toBe('#,##0.00');
    expect(first.getCell(6).value).toBe(10 * 1024 ** 3);
    expect(first.getCell(7).value).toBe('10 GB');
    expect(first.getCell(8).value).toBe('Yes');
    expect(first.getCell(9).value).toBe(formatDateTime(AT, 'en'));
    // markup kept as text; characters XML 1.0 cannot hold dropped
    expect(first.getCell(10).value).toBe('A & B <c> "d" ef');
    const second = ws.getRow(3);
    expect(second.getCell(4).value).toBe(1);
    expect(second.getCell(5).value).toBe(0.01);
    expect(second.getCell(6).value).toBeNull(); // empty cells are absent
    expect(second.getCell(9).value).toBeNull();
    expect(second.getCell(10).value).toBeNull(); // '' is empty too
    expect(ws.getRow(4).getCell(10).value).toBe(' padded ');
    const last = ws.getRow(ROWS + 1);
    expect(last.getCell(1).value).toBe(`8986${String(ROWS - 1).padStart(16, '0')}`);
    expect(last.getCell(5).value).toBe(Number(((ROWS - 1) * 0.01).toFixed(2)));
    expect(ws.getColumn(10).width).toBe(12);
    expect(ws.getColumn(6).width).toBe('Usage (bytes)'.length * 2 + 4);
  });

  it('Chinese headers and sheet name; the archive passes a zip check and the import reader', async () => {
    const file = path.join(dir, 'lines-zh.xlsx');
    expect(await writeXlsx(file, spec, lines(20), 'zh')).toBe(20);
    const ws = await readBack(file);
    expect(ws.name).toBe('账单卡明细');
    expect(ws.getRow(1).getCell(3).value).toBe('套餐');
    expect(ws.getRow(2).getCell(8).value).toBe('是');
    try {
      execFileSync('unzip', ['-tq', file], { stdio: 'pipe' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err; // no unzip on this machine: ExcelJS's read is the check
    }
    // the platform's own reader (imports) takes it as well: inline strings, numbers
    const rows = await readSheet({ filename: 'a.xlsx', buffer: fs.readFileSync(file) }, {
      minColumns: 0, maxRows: 100, tooManyRows: () => new AppError(1 as never, undefined, 400),
    });
    expect(rows[0].slice(0, 4)).toEqual(['ICCID', '费用类别', '套餐', '数量']);
    expect(rows[1].slice(0, 5)).toEqual(['89860000000000000000', BillLineCategory.label(1, 'zh'), '物联网 10 GB 月套餐', '0', '1234.5']);
  });

  it('no rows: the header alone', async () => {
    const file = path.join(dir, 'empty.xlsx');
    expect(await writeXlsx(file, spec, lines(0), 'en')).toBe(0);
    const ws = await readBack(file);
    expect(ws.rowCount).toBe(1);
    expect(ws.getRow(1).getCell(1).value).toBe('ICCID');
  });

  it('a failing row source fails the write and closes the file', async () => {
    const file = path.join(dir, 'failed.xlsx');
    async function* broken() {
      yield* lines(3000);
      throw new Error('the database went away');
    }
    await expect(writeXlsx(file, spec, broken(), 'en')).rejects.toThrow('the database went away');
    fs.rmSync(file); // the handle is closed: removing it is what the export task does next
  });
});

describe('writeXlsxStream: back-pressure', () => {
  it('reads rows only as fast as the output takes the file', async () => {
    const TOTAL = 50_000;
    let pulled = 0;
    async function* rows() {
      for (let i = 0; i < TOTAL; i++) {
        pulled++;
        yield [`8986${String(i).padStart(16, '0')}`, `row ${i} ${'x'.repeat(i % 50)}`, i * 1.25];
      }
    }
    // an output that takes nothing until it is released
    const chunks: Buffer[] = [];
    let released = false;
    let waiting: (() => void)[] = [];
    const out = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _enc, cb) {
        chunks.push(chunk);
        if (released) cb();
        else waiting.push(cb);
      },
    });
    const done = writeXlsxStream(out, { name: 'S', columns: [{ header: 'a', width: 12 }, { header: 'b', width: 12 }, { header: 'c', width: 12, money: true }] }, rows());
    // deflate runs on libuv's thread pool: wait until the reading of rows has stopped for a while
    let stalledAt = -1;
    for (let still = 0, t = 0; still < 6 && t < 200; t++) {
      await sleep(50);
      still = pulled === stalledAt ? still + 1 : 0;
      stalledAt = pulled;
    }
    // a few chunks of ~64 K characters in deflate and the pipeline's buffers: a few thousand rows, not the 50,000
    expect(stalledAt).toBeGreaterThan(0);
    expect(stalledAt).toBeLessThan(10_000);
    expect(chunks.length).toBeLessThan(20);
    released = true;
    const pending = waiting;
    waiting = [];
    for (const cb of pending) cb();
    expect(await done).toBe(TOTAL);
    const file = path.join(dir, 'pressure.xlsx');
    fs.writeFileSync(file, Buffer.concat(chunks));
    const ws = await readBack(file);
    expect(ws.rowCount).toBe(TOTAL + 1);
    expect(ws.getRow(TOTAL + 1).getCell(3).value).toBe((TOTAL - 1) * 1.25);
    expect(ws.getRow(TOTAL + 1).getCell(3).numFmt).toBe('#,##0.00');
  }, 60_000);
});

describe('xlsx text', () => {
  it('escapes markup, drops what XML cannot hold, keeps _xHHHH_ literal', () => {
    expect(xmlText('plain 中文')).toBe('plain 中文');
    expect(xmlText('a&b<c>"d"')).toBe('a&amp;b&lt;c&gt;&quot;d&quot;');
    expect(xmlText('a\u0000b\u0008c\td\ne\rf\u001f\uFFFE')).toBe('abc\td\ne&#13;f');
    expect(xmlText('ok 😀 \uD800 \uDC00')).toBe('ok 😀  ');
    expect(xmlText('_x0041_ and _x12_')).toBe('_x005F_x0041_ and _x12_');
  });

  it('sheet names Excel accepts', () => {
    expect(sheetName('Bill: card lines [2026/10]')).toBe('Bill card lines 202610');
    expect(sheetName('a'.repeat(40))).toBe('a'.repeat(31));
    expect(sheetName(`${'a'.repeat(30)}😀`)).toBe('a'.repeat(30));
    expect(sheetName("'quoted'")).toBe('quoted');
    expect(sheetName('?*')).toBe('Sheet1');
    expect(sheetName('History')).toBe('Sheet1');
    expect(sheetName('账单卡明细')).toBe('账单卡明细');
  });

  it('column letters', () => {
    expect([0, 25, 26, 27, 51, 52, 701, 702].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
  });
});
