import { describe, expect, it } from 'vitest';
import { FILE_RULES, fileExtension, sniffImageType, validateUpload, validateUploadContent, type UploadFileInfo } from './upload.ts';

const file = (name: string, size: number, mimeType: string | null = 'image/png'): UploadFileInfo => ({ name, size, mimeType });

describe('FILE_RULES', () => {
  it('matches the spec limits', () => {
    expect(FILE_RULES.logo.maxBytes).toBe(1500 * 1024);
    expect(FILE_RULES.paymentProof.maxBytes).toBe(2 * 1024 * 1024);
    expect(FILE_RULES.contentImage.maxBytes).toBe(1024 * 1024);
    expect([...FILE_RULES.paymentProof.types].sort()).toEqual(['image/gif', 'image/jpeg', 'image/png']);
  });
});

describe('fileExtension', () => {
  it.each([
    ['a.PNG', 'png'],
    ['archive.tar.gz', 'gz'],
    ['noext', ''],
    ['.png', ''], // a dotfile has no extension
    ['trailing.', ''],
  ])('%s → %j', (name, ext) => {
    expect(fileExtension(name)).toBe(ext);
  });
});

describe('validateUpload', () => {
  const { logo, paymentProof, contentImage } = FILE_RULES;

  it.each([
    [logo, file('logo.png', 1_535_999)],
    [logo, file('logo.JPG', 1000, 'image/jpeg')],
    [logo, file('logo.jpeg', 1000, 'image/jpg')],
    [logo, file('logo.jpeg', 1000, 'IMAGE/JPEG; charset=binary')],
    [paymentProof, file('proof.gif', 2 * 1024 * 1024 - 1, 'image/gif')],
    [contentImage, file('pic.png', 1024 * 1024 - 1)],
  ])('accepts %#', (rule, f) => {
    expect(validateUpload(rule, f)).toBeNull();
  });

  it.each([
    [logo, file('logo.gif', 1000, 'image/gif')],
    [logo, file('logo.png', 1000, 'image/gif')],
    [logo, file('logo.svg', 1000, 'image/svg+xml')],
    [logo, file('logo.png.exe', 1000)],
    [logo, file('logo', 1000)],
    [logo, file('logo.png', 1000, '')],
    [logo, file('logo.png', 1000, null)],
    [contentImage, file('pic.gif', 1000, 'image/gif')],
    [paymentProof, file('proof.pdf', 1000, 'application/pdf')],
  ])('rejects type %#', (rule, f) => {
    expect(validateUpload(rule, f)).toEqual({ key: 'fileType' });
  });

  it.each([
    // the spec says "under": a file of exactly the limit is refused
    [logo, file('logo.png', 1_536_000), { key: 'logoTooBig' }],
    [logo, file('logo.png', 1_536_001), { key: 'logoTooBig' }],
    [paymentProof, file('p.png', 2 * 1024 * 1024), { key: 'fileTooBig', params: { max: '2 MB' } }],
    [paymentProof, file('p.png', 2 * 1024 * 1024 + 1), { key: 'fileTooBig', params: { max: '2 MB' } }],
    [contentImage, file('c.png', 1024 * 1024), { key: 'fileTooBig', params: { max: '1 MB' } }],
    [contentImage, file('c.png', NaN), { key: 'fileTooBig', params: { max: '1 MB' } }],
  ])('rejects size %#', (rule, f, expected) => {
    expect(validateUpload(rule, f)).toEqual(expected);
  });

  it.each([null, undefined])('requires a file (%j)', (f) => {
    expect(validateUpload(FILE_RULES.logo, f)).toEqual({ key: 'uploadRequired' });
  });
});

const bytes = (...b: number[]) => new Uint8Array(b);
const PNG = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d);
const JPEG = bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10);
const GIF89 = new TextEncoder().encode('GIF89a\x01\x00');
const GIF87 = new TextEncoder().encode('GIF87a');

describe('sniffImageType', () => {
  it.each<[string, Uint8Array, string | null]>([
    ['png', PNG, 'image/png'],
    ['jpeg', JPEG, 'image/jpeg'],
    ['gif89a', GIF89, 'image/gif'],
    ['gif87a', GIF87, 'image/gif'],
    ['empty', bytes(), null],
    ['truncated png', PNG.slice(0, 7), null],
    ['truncated jpeg', bytes(0xff, 0xd8), null],
    ['gif88a', new TextEncoder().encode('GIF88a'), null],
    ['png with a broken byte', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0b), null],
    ['pdf', new TextEncoder().encode('%PDF-1.7'), null],
    ['svg', new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg">'), null],
  ])('%s', (_name, input, expected) => {
    expect(sniffImageType(input)).toBe(expected);
  });
});

describe('validateUploadContent', () => {
  it.each<[keyof typeof FILE_RULES, Uint8Array, boolean]>([
    ['logo', PNG, true],
    ['logo', JPEG, true],
    ['logo', GIF89, false],
    ['paymentProof', GIF89, true],
    ['contentImage', GIF87, false],
    ['contentImage', bytes(1, 2, 3), false],
  ])('%s', (rule, input, ok) => {
    expect(validateUploadContent(FILE_RULES[rule], input)).toEqual(ok ? null : { key: 'fileType' });
  });
});
