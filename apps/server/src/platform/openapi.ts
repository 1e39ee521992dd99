import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { endpoints, pathOf, errorMessages, type Endpoint } from '@lynx/contract';

const clean = (schema: unknown) => JSON.parse(JSON.stringify(schema));

/** OpenAPI 3 document generated from the contract: every endpoint, its schemas and permission codes. */
export function openApiDocument(list: Endpoint[] = endpoints) {
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
      security: e.auth === 'public' ? [] : [{ token: [] }],
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
        'Answers are { success, msg, errorCode, data }. Error codes: ' +
        Object.entries(errorMessages).map(([code, m]) => `${code} ${m.en}`).join('; '),
    },
    components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
    paths,
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
