import type { TSchema } from '@sinclair/typebox';
import { pathOf, type Endpoint } from '@lynx/contract';
import type { Part } from './harness.ts';

/** One malformed request: a body (already encoded), headers, query parameters. */
export interface BadRequest {
  name: string;
  payload?: string | Buffer;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  rawQuery?: string;
  method?: 'GET' | 'POST';
  lang?: 'zh' | 'en';
  mustBeRefused?: boolean;
}

type Schema = Record<string, unknown> & { type?: string; properties?: Record<string, Schema>; required?: string[] };

const variantsOf = (s: Schema): Schema[] => ((s.anyOf ?? s.oneOf) as Schema[] | undefined) ?? [s];

/** A plausible value for a schema: the first literal, the minimum, a short string, an object of its required fields. */
export function baseline(schema: TSchema): unknown {
  const s = schema as Schema;
  const v = variantsOf(s).find((x) => x.type !== 'null') ?? variantsOf(s)[0];
  if ('const' in v) return v.const;
  if (Array.isArray(v.enum)) return v.enum[0];
  switch (v.type) {
    case 'integer':
    case 'number':
      return typeof v.minimum === 'number' && v.minimum > 0 ? v.minimum : 1;
    case 'string':
      if (v.format === 'date-time') return new Date().toISOString();
      if (v.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
      return 'x'.repeat(typeof v.minLength === 'number' ? v.minLength : 1);
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'null':
      return null;
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const k of v.required ?? []) out[k] = baseline((v.properties ?? {})[k] as TSchema);
      return out;
    }
  }
  return null;
}

const deepArray = (n: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = [v];
  return v;
};

/** Values that are wrong for most fields, and the huge numbers no database column takes. */
function wrongValues(field: Schema): { name: string; value: unknown; mustBeRefused?: boolean }[] {
  const types = new Set(variantsOf(field).map((v) => v.type));
  const out: { name: string; value: unknown; mustBeRefused?: boolean }[] = [
    { name: 'null', value: null },
    { name: 'boolean', value: true },
    { name: 'object', value: { a: 1 } },
    { name: 'array of objects', value: [{ a: 1 }] },
    { name: 'deep array', value: deepArray(30) },
    { name: 'string', value: 'not-a-value' },
    { name: 'huge string', value: '长'.repeat(70_000) },
    { name: 'negative', value: -1 },
    { name: 'fraction', value: 1.5 },
  ];
  for (const v of variantsOf(field)) {
    const max = typeof v.maximum === 'number' ? v.maximum : undefined;
    if (v.type === 'integer') {
      out.push({ name: 'integer over int32', value: 2_147_483_648, mustBeRefused: max === undefined || max < 2_147_483_648 });
      out.push({ name: 'integer under int32', value: -2_147_483_649, mustBeRefused: v.minimum === undefined || (v.minimum as number) > -2_147_483_649 });
      out.push({ name: 'integer over 2^53', value: 2 ** 60, mustBeRefused: true });
    }
    if (v.type === 'number') out.push({ name: 'number 1e300', value: 1e300, mustBeRefused: max === undefined || max < 1e300 });
  }
  if (types.has('array')) out.push({ name: 'array of 5000 strings', value: Array.from({ length: 5000 }, (_, i) => `v${i}`) });
  return out;
}

/** Malformed JSON bodies for an endpoint's body schema: whole-body mistakes, then each field made wrong in turn. */
export function badBodies(schema: TSchema, base: unknown): { name: string; body: unknown; mustBeRefused?: boolean }[] {
  const s = schema as Schema;
  const props = s.properties ?? {};
  const baseObj = (base && typeof base === 'object' ? base : {}) as Record<string, unknown>;
  const out: { name: string; body: unknown; mustBeRefused?: boolean }[] = [
    { name: 'empty object', body: {} },
    { name: 'unknown field', body: { ...baseObj, zzUnknownField: 1 } },
    { name: 'array body', body: [baseObj] },
    { name: 'string body', body: 'text' },
    { name: 'number body', body: 2_147_483_648 },
    { name: 'null body', body: null },
    { name: 'prototype key', body: JSON.parse(`{"__proto__": {"isAdmin": true}, ${JSON.stringify(baseObj).slice(1, -1) || '"a":1'}}`) },
  ];
  for (const key of s.required ?? []) {
    const rest = { ...baseObj };
    delete rest[key];
    out.push({ name: `missing ${key}`, body: rest });
  }
  for (const [key, field] of Object.entries(props)) {
    for (const w of wrongValues(field)) out.push({ name: `${key}: ${w.name}`, body: { ...baseObj, [key]: w.value }, mustBeRefused: w.mustBeRefused });
    // one level down: the fields of an object field
    for (const v of variantsOf(field)) {
      if (v.type !== 'object' || !v.properties) continue;
      const inner = baseline(v as TSchema) as Record<string, unknown>;
      for (const [k2, f2] of Object.entries(v.properties)) {
        for (const w of wrongValues(f2).filter((x) => x.mustBeRefused || x.name === 'null' || x.name === 'huge string')) {
          out.push({ name: `${key}.${k2}: ${w.name}`, body: { ...baseObj, [key]: { ...inner, [k2]: w.value } }, mustBeRefused: w.mustBeRefused });
        }
      }
    }
  }
  return out;
}

/** Query-string mistakes, for every endpoint (a GET endpoint's fields are its query). */
export function badQueries(e: Endpoint): BadRequest[] {
  const json = e.method === 'POST' && !e.multipart ? { payload: '{}', headers: { 'content-type': 'application/json' } } : {};
  const out: BadRequest[] = [
    { name: 'unknown query parameter', query: { zzUnknown: '1' }, ...json },
    { name: 'query: huge ts', query: { ts: '9'.repeat(5000) }, ...json },
    { name: 'query: repeated lang', rawQuery: 'lang=en&lang=zh&ts=1', ...json },
    { name: 'query: bad lang', query: { lang: 'xx'.repeat(50) }, ...json },
  ];
  if (e.method === 'GET') {
    const props = (e.body as Schema).properties ?? {};
    for (const key of Object.keys(props)) {
      for (const [name, value] of [['2147483648', '2147483648'], ['1e308', '1e308'], ['huge', 'x'.repeat(8000)], ['nul', 'a\u0000b'], ['empty', '']]) {
        out.push({ name: `query ${key}: ${name}`, query: { [key]: value } });
      }
    }
  }
  return out;
}

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]);

/** Wrong content types, broken JSON, broken multipart, the wrong method: for every endpoint. */
export function brokenRequests(e: Endpoint, multipart: (parts: Part[]) => { payload: Buffer; headers: Record<string, string> }): BadRequest[] {
  if (e.method === 'GET') {
    return [{ name: 'POST to a GET endpoint', method: 'POST', payload: '{}', headers: { 'content-type': 'application/json' } }];
  }
  const form = multipart([{ name: 'params', value: '{"a":' }, { name: 'file', filename: 'a.xlsx', type: 'application/octet-stream', data: Buffer.from('PK\u0003\u0004garbage') }]);
  const boundary = form.headers['content-type'].split('boundary=')[1];
  const out: BadRequest[] = [
    { name: 'GET to a POST endpoint', method: 'GET' },
    { name: 'text/plain', payload: 'hello', headers: { 'content-type': 'text/plain' } },
    { name: 'form-encoded', payload: 'a=1&b=2', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    { name: 'xml', payload: '<a>1</a>', headers: { 'content-type': 'application/xml' } },
    { name: 'no content type', payload: '{"a":1}', headers: {} },
    { name: 'invalid JSON', payload: '{"a":', headers: { 'content-type': 'application/json' }, lang: 'zh' },
    { name: 'empty JSON', payload: '', headers: { 'content-type': 'application/json' } },
    { name: 'JSON nested 50,000 levels', payload: '['.repeat(50_000) + ']'.repeat(50_000), headers: { 'content-type': 'application/json' }, lang: 'zh' },
    { name: 'JSON object nested 50,000 levels', payload: '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000), headers: { 'content-type': 'application/json' } },
    { name: 'multipart body', ...form },
    { name: 'multipart without a boundary', payload: form.payload, headers: { 'content-type': 'multipart/form-data' }, lang: 'zh' },
    { name: 'multipart cut off early', payload: form.payload.subarray(0, Math.floor(form.payload.length / 2)), headers: form.headers, lang: 'zh' },
    { name: 'multipart with a wrong boundary', payload: form.payload, headers: { 'content-type': 'multipart/form-data; boundary=nope' } },
    { name: 'multipart with only a boundary', payload: `--${boundary}--\r\n`, headers: form.headers },
    {
      name: 'multipart with a broken part header',
      payload: Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name\r\n\r\nvalue\r\n--${boundary}--\r\n`),
      headers: form.headers,
    },
  ];
  if (e.multipart) {
    // an upload's text fields are declared by its body schema and checked like JSON; undeclared names must be refused
    const fields = new Set([...Object.keys((e.body as Schema).properties ?? {}), 'params', 'remark', 'use', 'custId', 'note']);
    const values = ['99999999999', '9'.repeat(400), 'x'.repeat(70_000), '-1', '1.5', '{"type":1}', '[]', 'a\u0000b'];
    for (const name of fields) {
      for (const value of values) {
        // with a file the handler would accept (a PNG for the logo and upload endpoints), so the field is what is judged
        const png = { name: e.multipart.file, filename: 'a.png', type: 'image/png', data: PNG };
        out.push({ name: `multipart field ${name}: ${value.slice(0, 12)}`, ...multipart([{ name, value }, png]) });
      }
    }
  }
  return out;
}

export const urlOf = (e: Endpoint) => pathOf(e);
