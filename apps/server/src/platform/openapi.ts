import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { endpoints, pathOf, errorMessages, webhook, apiservice, type Endpoint } from '@lynx/contract';

const clean = (schema: unknown) => JSON.parse(JSON.stringify(schema));
const { OPEN_API_ENDPOINT_NAMES } = apiservice;

/** The open API's signed calls (modules/openapi/signed-calls.ts, docs/open-api.md): the endpoints marked x-open-api. */
const SIGNED_CALLS_TEXT =
  'Open API: the endpoints marked x-open-api also accept, instead of Authorization, a call signed with the customer\'s ' +
  'AppKey: headers X-App-Key, X-Timestamp (Unix milliseconds, within 5 minutes of the server clock), X-Nonce (16-64 ' +
  'characters A-Z a-z 0-9 _ -, never reused; a replay within the window is refused) and X-Signature = lowercase hex ' +
  'HMAC-SHA256(AppSecret, METHOD + "\\n" + request target as sent, path and query string + "\\n" + X-Timestamp + "\\n" + ' +
  'X-Nonce + "\\n" + lowercase hex SHA-256 of the raw body bytes). The call acts as the key\'s customer; when its IP ' +
  'whitelist is enabled, a caller outside every open range is refused (21006).';
const SIGNED_CALL_HEADERS = ['X-App-Key', 'X-Timestamp', 'X-Nonce', 'X-Signature'];
const SIGNED_CALL_SCHEMES = Object.fromEntries(
  SIGNED_CALL_HEADERS.map((name) => [`signed${name.slice(2).replace('-', '')}`, { type: 'apiKey', in: 'header', name, description: SIGNED_CALLS_TEXT }]),
);
const SIGNED_CALL_SECURITY = Object.fromEntries(Object.keys(SIGNED_CALL_SCHEMES).map((k) => [k, []]));

/** OpenAPI 3 document generated from the contract: every endpoint, its schemas and permission codes. */
export function openApiDocument(list: Endpoint[] = endpoints) {
  const webhookEvents = webhook.webhookOpenApi();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of list) {
    const op: Record<string, unknown> = {
      operationId: e.name.replace(/\//g, '_'),
      summary: e.summary.en,
      description: `${e.summary.zh}\n\n${e.auth === 'public' ? 'No session needed.' : `Needs a session${e.perm ? `; permission code (any of): ${e.perm.join(', ')}` : ''}.`}`,
      tags: [e.tag],
      'x-permissions': e.perm ?? [],
      'x-auth': e.auth,
      'x-kind': e.kind,
      security: e.auth === 'public' ? [] : [{ token: [] }, ...(OPEN_API_ENDPOINT_NAMES.has(e.name) ? [SIGNED_CALL_SECURITY] : [])],
      ...(OPEN_API_ENDPOINT_NAMES.has(e.name) && { 'x-open-api': true }),
      parameters: [
        { name: 'ts', in: 'query', required: false, schema: { type: 'string' }, description: 'client timestamp' },
        { name: 'lang', in: 'query', required: false, schema: { type: 'string', enum: ['zh', 'en'] }, description: 'language of msg' },
      ],
      responses: {
        200: e.raw
          ? { description: 'the file' }
          : {
              description: 'envelope',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { success: { type: 'boolean' }, msg: { type: 'string' }, errorCode: { type: ['integer', 'null'] }, data: clean(e.response) },
                  },
                },
              },
            },
        429: { description: 'errorCode 20006: call limit exceeded; data.retryAfter seconds' },
      },
    };
    const body = clean(e.body);
    if (e.method === 'GET') {
      for (const [name, schema] of Object.entries<Record<string, unknown>>(body.properties ?? {})) {
        (op.parameters as unknown[]).push({ name, in: 'query', required: (body.required ?? []).includes(name), schema });
      }
    } else if (e.multipart) {
      op.requestBody = { content: { 'multipart/form-data': { schema: body } } };
    } else {
      op.requestBody = { required: true, content: { 'application/json': { schema: body } } };
    }
    paths[pathOf(e)] = { [e.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Lynx CMP API',
      version: '0.1.0',
      description:
        'Every call carries query params ts and lang (zh | en) and the header Authorization: <access token>. ' +
        'Answers are { success, msg, errorCode, data }. ' + SIGNED_CALLS_TEXT + ' Error codes: ' +
        Object.entries(errorMessages).map(([code, m]) => `${code} ${m.en}`).join('; '),
    },
    components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' }, ...SIGNED_CALL_SCHEMES }, schemas: webhookEvents.schemas },
    paths,
    // the events the platform POSTs to a customer's callback address, with their versioned payload schemas (docs/webhooks.md)
    webhooks: webhookEvents.webhooks,
  };
}

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Lynx CMP API</title>
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/assets/init.js"></script>
</body></html>`;
// a file, not an inline script: the Content-Security-Policy allows scripts from the own origin only
const INIT = "window.ui = SwaggerUIBundle({ url: '/api/docs/openapi.json', dom_id: '#ui', deepLinking: true, validatorUrl: null });\n";

/** /api/docs (reference page), /api/docs/openapi.json (the document). */
export function docsRoutes(app: FastifyInstance): void {
  const doc = openApiDocument();
  const uiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  app.get('/api/docs/openapi.json', async () => doc);
  app.get('/api/docs', async (_req, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
  app.get('/api/docs/assets/init.js', async (_req, reply) => reply.type('application/javascript').header('cache-control', 'no-cache').send(INIT));
  app.get<{ Params: { file: string } }>('/api/docs/assets/:file', async (req, reply) => {
    const allowed = ['swagger-ui.css', 'swagger-ui-bundle.js'];
    if (!allowed.includes(req.params.file)) return reply.status(404).send();
    return reply
      .type(req.params.file.endsWith('.css') ? 'text/css' : 'application/javascript')
      .header('cache-control', 'public, max-age=86400')
      .send(fs.createReadStream(path.join(uiDir, req.params.file)));
  });
}
