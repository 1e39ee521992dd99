import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { ErrorCode, INT32_MAX } from '@lynx/contract';
import { jsonTooDeep } from '../src/platform/request-shape.ts';
import { backends, multipart, startTestApp, type TestApp } from './harness.ts';

/** One raw HTTP request on a socket; resolves with the status and the body of the answer. */
function rawRequest(port: number, head: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [headers, ...rest] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(headers)?.[1]), headers, body: rest.join('\r\n\r\n') });
    });
    socket.write(head);
  });
}

describe('jsonTooDeep', () => {
  it.each([
    ['{}', 1, false],
    ['{"a":[1,{"b":2}]}', 3, false],
    ['{"a":[1,{"b":2}]}', 2, true],
    ['[[[]]]', 3, false],
    ['[[[[]]]]', 3, true],
    // brackets inside strings do not count, escaped quotes do not end a string
    ['["[[[[[[", "\\"[[[[[["]', 1, false],
    ['"[[[[[["', 0, false],
  ])('%s with at most %i levels: too deep %s', (text, max, expected) => {
    expect(jsonTooDeep(text, max)).toBe(expected);
  });
});

describe.each(backends)('the shared layer refuses malformed requests in the envelope (%s)', (backend) => {
  let t: TestApp;
  let admin: string;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp(backend, {}, { jobs: false });
    admin = await t.login('admin');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t?.stop());

  it('answers a request line over 16 KB with 431 in the envelope, in the language the URL asks for', async () => {
    for (const lang of ['zh', 'en'] as const) {
      const r = await rawRequest(port, `GET /api/cmp/core/sim/simQuery/getSimListPage?lang=${lang}&q=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(r.status).toBe(431);
      // the headers every answer carries, although no hook ran for this one
      for (const h of ['x-content-type-options: nosniff', 'x-frame-options: DENY', 'referrer-policy: no-referrer', "content-security-policy: default-src 'none'"]) {
        expect(r.headers.toLowerCase()).toContain(h.toLowerCase());
      }
      const body = JSON.parse(r.body);
      expect(body).toMatchObject({ success: false, errorCode: ErrorCode.RequestHeadTooLarge, data: null });
      expect(body.msg).toBe(lang === 'zh' ? '请求地址或请求头过长（上限 16 KB）' : 'The request address or headers are too long (at most 16 KB)');
    }
    // the server goes on answering
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(ok.status).toBe(200);
  });

  it('answers garbage on the socket with 400 in the envelope', async () => {
    const r = await rawRequest(port, 'NOT-HTTP\r\n\r\n');
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({ success: false, errorCode: ErrorCode.BadRequest });
  });

  const post = (path: string, payload: string | Buffer, headers: Record<string, string>, lang = 'en') =>
    t.app.inject({ method: 'POST', url: `/api/cmp/${path}?lang=${lang}`, payload, headers: { authorization: admin, ...headers } });

  it('refuses JSON nested 100,000 levels deep with 400, quickly, and keeps serving', async () => {
    const started = Date.now();
    const r = await post('core/sim/simQuery/getSimListPage', '['.repeat(100_000) + ']'.repeat(100_000), { 'content-type': 'application/json' }, 'zh');
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({ success: false, msg: '请求内容嵌套超过 32 层', errorCode: ErrorCode.JsonTooDeep, data: null });
    expect(Date.now() - started).toBeLessThan(2000);
    const deepObject = '{"current":'.repeat(50_000) + '1' + '}'.repeat(50_000);
    expect((await post('core/sim/simQuery/getSimListPage', deepObject, { 'content-type': 'application/json' })).json().errorCode).toBe(ErrorCode.JsonTooDeep);
    expect((await post('core/sim/simQuery/getSimListPage', '{"current":1}', { 'content-type': 'application/json' })).json().success).toBe(true);
  });

  it('refuses invalid JSON and unsupported content types with bilingual messages', async () => {
    const bad = await post('core/sim/simQuery/getSimListPage', '{"current":', { 'content-type': 'application/json' }, 'zh');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, msg: '请求内容不是有效的 JSON', errorCode: ErrorCode.JsonInvalid });
    const text = await post('core/sim/simQuery/getSimListPage', 'hello', { 'content-type': 'text/plain' });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toMatchObject({ success: false, msg: 'Unsupported request content type: text/plain', errorCode: ErrorCode.ContentTypeUnsupported });
  });

  it('refuses integers outside the column range as a field error, never a database error', async () => {
    for (const current of [INT32_MAX + 1, -(INT32_MAX + 2)]) {
      const r = await post('core/sim/simQuery/getSimListPage', JSON.stringify({ current }), { 'content-type': 'application/json' });
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({ success: false, errorCode: ErrorCode.Validation, data: { field: 'current' } });
    }
    const id = await post('core/account/customer/getCustomerInfo', JSON.stringify({ custId: INT32_MAX + 1 }), { 'content-type': 'application/json' }, 'zh');
    expect(id.statusCode).toBe(400);
    expect(id.json().msg).toBe(`字段 custId：不能大于 ${INT32_MAX}`);
  });

  it('answers multipart requests without a boundary or cut off early with the upload message', async () => {
    const imports = async () => (await t.database.sql.query<{ n: number }>('select count(*)::int n from card_import_batches'))[0].n;
    const before = await imports();
    const form = multipart([{ name: 'file', filename: 'cards.csv', type: 'text/csv', data: Buffer.from('iccid\n89860000000000000001\n'.repeat(50)) }]);
    const noBoundary = await post('core/sim/simEnter/insert', form.payload, { 'content-type': 'multipart/form-data' }, 'zh');
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json()).toEqual({ success: false, msg: '上传的内容不完整或格式错误，请重新选择文件上传', errorCode: ErrorCode.UploadMalformed, data: null });
    const cut = await post('core/sim/simEnter/insert', form.payload.subarray(0, form.payload.length - 300), form.headers);
    expect(cut.statusCode).toBe(400);
    expect(cut.json()).toMatchObject({ success: false, errorCode: ErrorCode.UploadMalformed });
    expect(await imports()).toBe(before);
  });
});
