import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Lang } from '@lynx/contract';
import { writeCsv } from './export-writers.ts';
import type { ExportColumn } from './exports.ts';

const columns: ExportColumn[] = [
  { key: 'iccid', title: { zh: 'ICCID', en: 'ICCID' } },
  { key: 'cardTypeName', title: { zh: '卡类型', en: 'Card type' }, type: 'bilingual' },
];
const rows = async function* () {
  yield { iccid: '89860000000000000001', cardTypeName: { zh: '工业级 MFF2 贴片卡', en: 'Industrial MFF2 chip' } };
  yield { iccid: '89860000000000000002', cardTypeName: null };
};

describe('export files: catalogue names in the export\'s language', () => {
  it.each([
    ['en', 'ICCID,Card type', '89860000000000000001,Industrial MFF2 chip'],
    ['zh', 'ICCID,卡类型', '89860000000000000001,工业级 MFF2 贴片卡'],
  ] as const)('%s', async (lang: Lang, header, first) => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lx-csv-')), 'cards.csv');
    expect(await writeCsv(file, columns, rows(), lang)).toBe(2);
    const lines = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines).toEqual([header, first, '89860000000000000002,']);
    fs.rmSync(path.dirname(file), { recursive: true });
  });
});
