import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { ErrorCode } from '@lynx/contract';
import { backends, multipart as build, startTestApp, type TestApp } from './harness.ts';

/** Text fields plus at most one file, as the upload endpoints take them. */
const multipart = (fields: Record<string, string>, file?: { field: string; name: string; type: string; data: Buffer }) =>
  build([
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    ...(file ? [{ name: file.field, filename: file.name, type: file.type, data: file.data }] : []),
  ]);


const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const GIF = Buffer.from('GIF89a', 'latin1');

describe.each(backends)('file uploads on %s', (backend) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp(backend, {}, { jobs: false });
    token = await t.login('enterprise');
  });
  afterAll(() => t?.stop());

  const upload = (fields: Record<string, string>, file?: Parameters<typeof multipart>[1], who = token, lang = 'en') => {
    const m = multipart(fields, file);
    return t.app.inject({ method: 'POST', url: `/api/cmp/base/file/upload?lang=${lang}`, payload: m.payload, headers: { ...m.headers, authorization: who } });
  };

  it('accepts a payment proof GIF under 2 MB and serves it to the same tenant only', async () => {
    const r = await upload({ use: 'paymentProof' }, { field: 'file', name: 'proof.gif', type: 'image/gif', data: Buffer.concat([GIF, Buffer.alloc(1000)]) });
    expect(r.json()).toMatchObject({ success: true, data: { mimeType: 'image/gif', size: 1006 } });
    const url = r.json().data.url;
    const own = await t.app.inject({ method: 'GET', url, headers: { authorization: token } });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/gif');
    const other = await t.app.inject({ method: 'GET', url, headers: { authorization: await t.login('channel') } });
    expect(other.json().errorCode).toBe(ErrorCode.NotFound);
    // not public
    expect((await t.app.inject({ method: 'GET', url: url.replace('/get?', '/public?') })).json().errorCode).toBe(ErrorCode.NotFound);
  });

  it('refuses a payment proof over 2 MB with the size in the message', async () => {
    const r = await upload({ use: 'paymentProof' }, { field: 'file', name: 'big.png', type: 'image/png', data: Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]) }, token, 'zh');
    expect(r.json()).toMatchObject({ success: false, errorCode: ErrorCode.FileTooBig, msg: '文件过大，须小于 2 MB' });
  });

  it('refuses a content image over 1 MB and a GIF content image', async () => {
    const big = await upload({ use: 'contentImage' }, { field: 'file', name: 'a.png', type: 'image/png', data: Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]) });
    expect(big.json().errorCode).toBe(ErrorCode.FileTooBig);
    const gif = await upload({ use: 'contentImage' }, { field: 'file', name: 'a.gif', type: 'image/gif', data: GIF });
    expect(gif.json().errorCode).toBe(ErrorCode.FileType);
  });

  it('checks real content, not the name: a text file named .png is refused', async () => {
    const r = await upload({ use: 'paymentProof' }, { field: 'file', name: 'fake.png', type: 'image/png', data: Buffer.from('hello world') });
    expect(r.json()).toMatchObject({ errorCode: ErrorCode.FileType, msg: 'File type error' });
  });

  it('needs a file and a known use', async () => {
    expect((await upload({ use: 'paymentProof' })).json().errorCode).toBe(ErrorCode.FileRequired);
    const r = await upload({ use: 'avatar' }, { field: 'file', name: 'a.png', type: 'image/png', data: PNG });
    expect(r.json().errorCode).toBe(ErrorCode.Validation);
  });

  it('checks text fields with the endpoint schema, as a JSON body is checked, and takes one file only', async () => {
    const png = { field: 'file', name: 'a.png', type: 'image/png', data: PNG };
    const missing = await upload({}, png, token, 'zh');
    expect(missing.json()).toMatchObject({ errorCode: ErrorCode.Validation, msg: expect.stringContaining('use'), data: { field: 'use' } });
    const unknown = await upload({ use: 'paymentProof', note: 'x' }, png);
    expect(unknown.json()).toMatchObject({ errorCode: ErrorCode.UnknownField, data: { field: 'note' } });
    const nul = await upload({ use: 'payment\u0000Proof' }, png);
    expect(nul.json()).toMatchObject({ errorCode: ErrorCode.Validation, data: { field: 'use' } });
    const two = build([{ name: 'use', value: 'paymentProof' }, { name: 'file', filename: 'a.png', type: 'image/png', data: PNG }, { name: 'file', filename: 'b.png', type: 'image/png', data: PNG }]);
    const r = await t.app.inject({ method: 'POST', url: '/api/cmp/base/file/upload?lang=en', payload: two.payload, headers: { ...two.headers, authorization: token } });
    expect(r.json()).toMatchObject({ errorCode: ErrorCode.SingleFile, msg: 'Upload a single file', data: { field: 'file' } });

    // the card import's remark is bounded by its schema (100 characters), before the file is read
    const admin = await t.login('admin');
    const csv = { name: 'file', filename: 'cards.csv', type: 'text/csv', data: Buffer.from('ICCID\r\n') };
    const long = build([{ name: 'remark', value: '备'.repeat(101) }, csv]);
    const refused = await t.app.inject({ method: 'POST', url: '/api/cmp/core/sim/simEnter/insert?lang=en', payload: long.payload, headers: { ...long.headers, authorization: admin } });
    expect(refused.json()).toMatchObject({ errorCode: ErrorCode.Validation, msg: expect.stringContaining('at most 100 characters'), data: { field: 'remark' } });
  });

  it('needs a session', async () => {
    const m = multipart({ use: 'paymentProof' }, { field: 'file', name: 'a.png', type: 'image/png', data: PNG });
    const r = await t.app.inject({ method: 'POST', url: '/api/cmp/base/file/upload', payload: m.payload, headers: m.headers });
    expect(r.json().errorCode).toBe(ErrorCode.SessionInvalid);
  });
});
