import { describe, expect, it } from 'vitest';
import { formatValidationMessage, validationMessages } from './messages.ts';

const placeholders = (s: string): string[] => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('validationMessages', () => {
  it.each(Object.entries(validationMessages))('%s has zh and en texts with the same placeholders', (_key, texts) => {
    expect(texts.zh.trim()).not.toBe('');
    expect(texts.en.trim()).not.toBe('');
    expect(texts.zh).toMatch(/[\u4e00-\u9fff]/);
    expect(texts.en).not.toMatch(/[\u4e00-\u9fff]/);
    expect(placeholders(texts.zh)).toEqual(placeholders(texts.en));
  });

  it.each([
    ['required', '请选择或输入', 'Please select or enter'],
    ['uploadRequired', '请上传文件', 'Please upload a file'],
    ['fileType', '文件类型错误', 'File type error'],
    ['logoTooBig', 'Logo 须小于 1500KB', 'Logo must be smaller than 1500 KB'],
    ['fileTooBig', '文件过大，须小于 {max}', 'File too big: it must be under {max}'],
    ['callbackOneAddress', '只能填写一个回调地址', 'Enter one callback address only'],
    ['ipRangeOrder', '结束 IP 必须大于起始 IP', 'End IP must be after start IP'],
  ])('spec text for %s', (key, zh, en) => {
    expect(validationMessages[key]).toEqual({ zh, en });
  });
});

describe('formatValidationMessage', () => {
  it.each<[Parameters<typeof formatValidationMessage>[0], 'zh' | 'en', string]>([
    [{ key: 'required' }, 'zh', '请选择或输入'],
    [{ key: 'required' }, 'en', 'Please select or enter'],
    [{ key: 'tooLong', params: { max: 20 } }, 'zh', '不能超过 20 个字符'],
    [{ key: 'tooLong', params: { max: 20 } }, 'en', 'At most 20 characters'],
    [{ key: 'passwordLength', params: { min: 8, max: 18 } }, 'en', 'Password must be 8-18 characters long'],
    [{ key: 'fileTooBig', params: { max: '2 MB' } }, 'zh', '文件过大，须小于 2 MB'],
    // Missing params leave the placeholder visible rather than printing 'undefined'.
    [{ key: 'tooLong' }, 'en', 'At most {max} characters'],
    // '{host}' is literal text in this message, not a placeholder.
    [{ key: 'jumpUrlInvalid' }, 'en', 'Jump address must start with http://, https:// or {host}'],
    [{ key: 'no.such.key' }, 'zh', 'no.such.key'],
    // Inherited Object properties must not be treated as message keys.
    [{ key: 'toString' }, 'en', 'toString'],
    [null, 'zh', ''],
  ])('%j in %s', (err, lang, expected) => {
    expect(formatValidationMessage(err, lang)).toBe(expected);
  });
});
