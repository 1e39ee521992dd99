import { describe, expect, it } from 'vitest';
import { constraintsOf, flattenSchema, typeOf, viewOf, type JsonSchema } from './schema.ts';
import { filterEndpoints, groupByTag, parseEndpoints, type OpenApiDoc } from './openapi.ts';
import dayjs from 'dayjs';
import { usageFilters } from './ApiUsage.tsx';

const str = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra });
const nullable = (s: JsonSchema): JsonSchema => ({ anyOf: [s, { type: 'null' }] });

describe('typeOf', () => {
  it.each<[JsonSchema, string]>([
    [str(), 'string'],
    [nullable({ type: 'integer' }), 'integer | null'],
    [{ type: ['integer', 'null'] }, 'integer | null'],
    [{ type: 'array', items: { type: 'integer' } }, 'integer[]'],
    [{ type: 'array', items: nullable(str()) }, '(string | null)[]'],
    [{ anyOf: [{ const: 'ascend', type: 'string' }, { const: 'descend', type: 'string' }] }, '"ascend" | "descend"'],
    [{ type: 'object', patternProperties: { '^(.*)$': {} } }, 'Record<string, any>'],
    [{}, 'any'],
  ])('%j → %s', (s, expected) => {
    expect(typeOf(s)).toBe(expected);
  });
});

describe('constraintsOf', () => {
  it('reads limits through a nullable wrapper', () => {
    expect(constraintsOf(nullable(str({ maxLength: 300 })))).toEqual([{ key: 'maxLength', value: '300' }]);
  });
  it('lists every constraint it knows', () => {
    const keys = constraintsOf({ type: 'integer', minimum: 1, maximum: 500, default: 20, enum: [1, 2] }).map((c) => c.key);
    expect(keys).toEqual(['minimum', 'maximum', 'enumOf', 'defaultIs']);
  });
  it('leaves out a minimum length of 0', () => {
    expect(constraintsOf(str({ minLength: 0, maxLength: 64 }))).toEqual([{ key: 'maxLength', value: '64' }]);
  });
});

describe('flattenSchema', () => {
  it('expands nested objects and arrays of objects with dotted names and required flags', () => {
    const page: JsonSchema = {
      type: 'object',
      required: ['list', 'total'],
      properties: {
        list: { type: 'array', items: { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, endIp: nullable(str()) } } },
        total: { type: 'integer' },
      },
    };
    expect(flattenSchema(page).map((r) => [r.name, r.depth, r.type, r.required])).toEqual([
      ['list', 0, 'object[]', true],
      ['list[].id', 1, 'integer', true],
      ['list[].endIp', 1, 'string | null', false],
      ['total', 0, 'integer', true],
    ]);
  });
});

describe('viewOf', () => {
  it('distinguishes null, empty objects, field tables and bare types', () => {
    expect(viewOf({ type: 'null' }).kind).toBe('null');
    expect(viewOf({ type: 'object', properties: {}, additionalProperties: false }).kind).toBe('none');
    expect(viewOf({ type: 'array', items: { type: 'integer' } })).toEqual({ kind: 'scalar', type: 'integer[]' });
    const v = viewOf({ type: 'object', additionalProperties: false, properties: { custId: { type: 'integer' } } });
    expect(v).toMatchObject({ kind: 'fields', strict: true, rows: [{ name: 'custId', required: false }] });
    const arr = viewOf({ type: 'array', items: { type: 'object', properties: { roleId: { type: 'integer' } } } });
    expect(arr).toMatchObject({ kind: 'fields', rows: [{ name: '[].roleId' }] });
  });
});

const envelope = (data: JsonSchema) => ({
  description: 'envelope',
  content: { 'application/json': { schema: { type: 'object', properties: { success: { type: 'boolean' }, data } } } },
});

const doc: OpenApiDoc = {
  paths: {
    '/api/cmp/openapi/userIp/save': {
      post: {
        summary: 'Add a whitelisted IP or range (end IP after start IP)',
        description: '新增白名单 IP 或 IP 段（结束 IP 须大于起始 IP）\n\nNeeds a session; permission code (any of): 1000001, 8020000.',
        tags: ['apiservice'],
        security: [{ token: [] }],
        requestBody: { content: { 'application/json': { schema: { type: 'object', required: ['startIp'], properties: { startIp: str({ maxLength: 15 }) } } } } },
        responses: { 200: envelope({ type: 'object', properties: { id: { type: 'integer' } } }) },
      },
    },
    '/api/cmp/core/downloadTask/download': {
      get: {
        summary: 'Download an export file (same tenant only)',
        description: '下载导出文件（仅限同一租户）\n\nNeeds a session.',
        tags: ['system'],
        security: [{ token: [] }],
        parameters: [
          { name: 'ts', in: 'query' },
          { name: 'lang', in: 'query' },
          { name: 'taskId', in: 'query', required: true, schema: str({ format: 'uuid' }) },
        ],
        responses: { 200: { description: 'the file' } },
      },
    },
    '/api/cmp/base/oauth/user/login': {
      post: {
        summary: 'Log in',
        description: '登录\n\nNo session needed.',
        tags: ['auth'],
        security: [],
        responses: { 200: envelope({ type: 'null' }) },
      },
    },
  },
};

describe('parseEndpoints', () => {
  const list = parseEndpoints(doc);

  it('takes the English summary from summary and the Chinese one from the description', () => {
    expect(list[0].summary).toEqual({ en: 'Add a whitelisted IP or range (end IP after start IP)', zh: '新增白名单 IP 或 IP 段（结束 IP 须大于起始 IP）' });
  });

  it('reads auth and permission codes', () => {
    expect(list.map((e) => [e.isPublic, e.perms])).toEqual([[false, [1000001, 8020000]], [false, []], [true, []]]);
  });

  it('finds the request (json body, query params without ts/lang) and the response kind', () => {
    expect(list[0].request.kind).toBe('json');
    expect(list[0].response).toMatchObject({ kind: 'envelope', data: { properties: { id: { type: 'integer' } } } });
    expect(list[1].request).toMatchObject({ kind: 'query', schema: { required: ['taskId'] } });
    expect(Object.keys(list[1].request.schema!.properties!)).toEqual(['taskId']);
    expect(list[1].response.kind).toBe('file');
    expect(list[2].request.kind).toBe('none');
  });

  it('filters by path or summary in either language, and groups by tag', () => {
    expect(filterEndpoints(list, 'USERIP').map((e) => e.path)).toEqual(['/api/cmp/openapi/userIp/save']);
    expect(filterEndpoints(list, '导出').map((e) => e.method)).toEqual(['GET']);
    expect(filterEndpoints(list, 'log in').map((e) => e.tag)).toEqual(['auth']);
    expect(filterEndpoints(list, '  ')).toHaveLength(3);
    expect(groupByTag(list).map((g) => g.tag)).toEqual(['apiservice', 'system', 'auth']);
  });
});

describe('open API marks', () => {
  it('reads x-open-api: an endpoint a signed call may reach', () => {
    const marked = parseEndpoints({
      paths: {
        '/api/cmp/core/sim/simQuery/getSimListPage': { post: { summary: 'Card list', description: '卡列表\n\nNeeds a session.', security: [{ token: [] }, { signedAppKey: [] }], 'x-open-api': true } },
        '/api/cmp/openapi/key/query': { post: { summary: 'API key', description: 'API 密钥\n\nNeeds a session.', security: [{ token: [] }] } },
      },
    });
    expect(marked.map((e) => [e.path, e.openApi, e.isPublic])).toEqual([
      ['/api/cmp/core/sim/simQuery/getSimListPage', true, false],
      ['/api/cmp/openapi/key/query', false, false],
    ]);
  });
});

describe('usage filters', () => {
  it('sends the chosen dates as business days', () => {
    expect(usageFilters({ range: [dayjs('2026-11-01'), dayjs('2026-11-28')] })).toEqual({ startDay: '2026-11-01', endDay: '2026-11-28' });
    expect(usageFilters({ range: null })).toEqual({});
  });
});
