import { describe, it, expect } from 'vitest';
import { detectLanguage } from './i18n.ts';
import zhBase from './zh/index.ts';
import enBase from './en/index.ts';
import zhDoc from './zh/doc.ts';
import { CJK, flatTexts } from './texts.ts';
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
  const keys = (o: object) => flatTexts(o).map(([k]) => k);
  it('have the same keys in both languages and no empty text', () => {
    expect(keys(en).sort()).toEqual(keys(zh).sort());
    const leaves = (o: object): string[] => Object.values(o).flatMap((v) => (typeof v === 'object' && v ? leaves(v) : [String(v)]));
    expect(leaves(zh).filter((s) => !s.trim())).toEqual([]);
    expect(leaves(en).filter((s) => !s.trim())).toEqual([]);
  });
  it('English texts contain no Chinese characters except language names', () => {
    // the language toggle is labelled 中文 in English, so texts may name it
    const chinese = flatTexts(en).filter(([, v]) => CJK.test(v.replaceAll('中文', '')));
    expect(chinese).toEqual([]);
  });
  it('a Chinese text is in Chinese wherever the English one is different words', () => {
    const english = new Map(flatTexts(en));
    const words = (s: string) => s.replace(/\{\{\w+\}\}/g, '').toLowerCase().match(/[a-z]{2,}/g) ?? [];
    // the same words in both (ICCID, APN / APNs, App Key) are fine; a Chinese text without a Chinese character whose
    // words the English one lacks is English left untranslated. The language toggle names the other language.
    const untranslated = flatTexts(zh).filter(([k, v]) => {
      if (CJK.test(v) || k === 'common.langSwitch') return false;
      const en = new Set(words(english.get(k) ?? ''));
      return words(v).some((w) => !en.has(w) && !en.has(`${w}s`));
    });
    expect(untranslated).toEqual([]);
  });
});
