import { queryParamsSchema, type JsonSchema } from './schema.ts';

/** The URL of the server's live OpenAPI document (public, not an envelope endpoint). */
export const OPENAPI_URL = '/api/docs/openapi.json';
/** The full interactive reference page served next to it. */
export const OPENAPI_UI_URL = '/api/docs';

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  /** the server marks the endpoints a call signed with an AppKey may reach (the open API) */
  'x-open-api'?: boolean;
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: JsonSchema }> }>;
}

export interface OpenApiDoc {
  info?: { title?: string; version?: string };
  paths?: Record<string, Record<string, Operation>>;
}

export interface ApiEndpoint {
  id: string;
  method: string;
  path: string;
  tag: string;
  summary: { zh: string; en: string };
  isPublic: boolean;
  /** also callable with an AppKey signature (docs/open-api.md) */
  openApi: boolean;
  /** the caller needs any one of these; empty: any signed-in user */
  perms: number[];
  request: { kind: 'json' | 'multipart' | 'query' | 'none'; schema?: JsonSchema };
  response: { kind: 'file' | 'envelope'; data?: JsonSchema };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * The server writes `summary` in English and starts `description` with the Chinese summary, then a blank
 * line and the auth line ("Needs a session; permission code (any of): 1000001.").
 */
export function parseEndpoints(doc: OpenApiDoc): ApiEndpoint[] {
  const out: ApiEndpoint[] = [];
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = ops[method];
      if (!op) continue;
      const description = op.description ?? '';
      const [zhLine, ...rest] = description.split('\n\n');
      const authLine = rest.join(' ');
      const permMatch = /permission code \(any of\):\s*([\d,\s]+)/i.exec(authLine);
      const isPublic = Array.isArray(op.security) ? op.security.length === 0 : /no session/i.test(authLine);
      const content = op.requestBody?.content ?? {};
      const request: ApiEndpoint['request'] = content['application/json']
        ? { kind: 'json', schema: content['application/json'].schema }
        : content['multipart/form-data']
          ? { kind: 'multipart', schema: content['multipart/form-data'].schema }
          : queryParamsSchema(op.parameters)
            ? { kind: 'query', schema: queryParamsSchema(op.parameters) }
            : { kind: 'none' };
      const ok = op.responses?.['200'];
      const envelope = ok?.content?.['application/json']?.schema;
      out.push({
        id: `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        tag: op.tags?.[0] ?? 'other',
        summary: { en: op.summary ?? '', zh: zhLine?.trim() || op.summary || '' },
        isPublic,
        openApi: op['x-open-api'] === true,
        perms: permMatch ? permMatch[1].split(',').map((s) => Number(s.trim())).filter((n) => Number.isInteger(n) && n > 0) : [],
        request,
        response: envelope ? { kind: 'envelope', data: envelope.properties?.data } : { kind: 'file' },
      });
    }
  }
  return out;
}

/** Endpoints whose path or summary (either language) contains the keyword, case-insensitively. */
export function filterEndpoints(list: ApiEndpoint[], keyword: string): ApiEndpoint[] {
  const k = keyword.trim().toLowerCase();
  if (!k) return list;
  return list.filter((e) => `${e.path} ${e.summary.en} ${e.summary.zh}`.toLowerCase().includes(k));
}

/** Tags in first-seen order with their endpoints. */
export function groupByTag(list: ApiEndpoint[]): { tag: string; endpoints: ApiEndpoint[] }[] {
  const groups = new Map<string, ApiEndpoint[]>();
  for (const e of list) groups.set(e.tag, [...(groups.get(e.tag) ?? []), e]);
  return [...groups].map(([tag, endpoints]) => ({ tag, endpoints }));
}
