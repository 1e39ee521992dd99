import { describe, it, expect } from 'vitest';
import { detectLanguage } from './i18n.ts';
import zhBase from './zh/index.ts';
import enBase from './en/index.ts';
import zhDoc from './zh/doc.ts';
import enDoc from './en/doc.ts';

const zh = { ...zhBase, doc: zhDoc };
const en = { ...enBase, doc: enDoc };

describe('language detection (spec §1)', () => {
  it.each([
    ['zh', 'en-US', 'zh'],
    ['zh-CN', 'en-US', 'zh'],
    ['zh_TW', 'en', 'zh'],
    ['en', 'zh-CN', 'en'],
    ['fr', 'zh-CN', 'en'],
    [null, 'zh-CN', 'zh'],
    [null, 'zh', 'zh'],
    [null, 'en-GB', 'en'],
    [null, undefined, 'en'],
  ])('stored %s, browser %s → %s', (stored, browser, lang) => {
    expect(detectLanguage(stored, browser)).toBe(lang);
  });
});

describe('locale files', () => {
  const keys = (o: object, p = ''): string[] =>
    Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' && v ? keys(v, `${p}${k}.`) : [`${p}${k}`]));
  it('have the same keys in both languages and no empty text', () => {
    expect(keys(en).sort()).toEqual(keys(zh).sort());
    const leaves = (o: object): string[] => Object.values(o).flatMap((v) => (typeof v === 'object' && v ? leaves(v) : [String(v)]));
    expect(leaves(zh).filter((s) => !s.trim())).toEqual([]);
    expect(leaves(en).filter((s) => !s.trim())).toEqual([]);
  });
  it('English texts contain no Chinese characters except language names', () => {
    const leaves = (o: object, p = ''): [string, string][] =>
      Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' && v ? leaves(v, `${p}${k}.`) : [[`${p}${k}`, String(v)] as [string, string]]));
    // the language toggle is labelled 中文 in English, so texts may name it
    const chinese = leaves(en).filter(([, v]) => /[\u4e00-\u9fff]/.test(v.replaceAll('中文', '')));
    expect(chinese).toEqual([]);
  });
});
