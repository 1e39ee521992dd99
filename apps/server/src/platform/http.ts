import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyError } from 'fastify';
import { Type, type TSchema, type Static } from '@sinclair/typebox';
import { ErrorCode, errorMessage, parseLang, pathOf, successMessages, type Endpoint, type Lang } from '@lynx/contract';
import { AppError, FieldError } from './errors.ts';
import type { Actor, RequestContext, SessionContext } from './context.ts';
import { hashToken, type SessionStore } from './sessions.ts';
import { checkRate, type CounterStore, type RateLimits } from './ratelimit.ts';
import type { ApiLogWriter } from './apilog.ts';
import { installBodyParsers, requestShapeError } from './request-shape.ts';

declare module 'fastify' {
  interface FastifyRequest {
    ctx: RequestContext;
    startedAt: number;
    errorCode: number | null;
  }
}

export interface HttpDeps {
  sessions: SessionStore;
  counters: CounterStore;
  limits: RateLimits;
  apiLog: ApiLogWriter;
  strictAudit: boolean;
}

const QueryBase = { ts: Type.Optional(Type.String({ maxLength: 32 })), lang: Type.Optional(Type.String({ maxLength: 16 })) };

export const envelope = (data: unknown, msg: string) => ({ success: true, msg, errorCode: null, data });

function fail(reply: FastifyReply, lang: Lang, err: AppError) {
  reply.request.errorCode = err.code;
  return reply
    .status(err.status)
    .serializer(JSON.stringify)
    .send({ success: false, msg: err.message_(lang), errorCode: err.code, data: err.data ?? null });
}

const tokenFrom = (req: FastifyRequest): string | null => {
  const h = req.headers.authorization;
  if (!h) return null;
  const t = h.startsWith('Bearer ') ? h.slice(7) : h;
  return t.length >= 20 && t.length <= 200 ? t.trim() : null;
};

const KEYWORD_REASON: Record<string, { zh: string; en: string }> = {
  required: { zh: '必填', en: 'is required' },
  minLength: { zh: '至少 {limit} 个字符', en: 'needs at least {limit} characters' },
  maxLength: { zh: '最多 {limit} 个字符', en: 'allows at most {limit} characters' },
  minimum: { zh: '不能小于 {limit}', en: 'must not be less than {limit}' },
  maximum: { zh: '不能大于 {limit}', en: 'must not be greater than {limit}' },
  minItems: { zh: '至少 {limit} 项', en: 'needs at least {limit} items' },
  maxItems: { zh: '最多 {limit} 项', en: 'allows at most {limit} items' },
  type: { zh: '类型应为 {type}', en: 'must be of type {type}' },
  pattern: { zh: '格式不正确', en: 'has an invalid format' },
  format: { zh: '格式不正确', en: 'has an invalid format' },
};
const INVALID_VALUE = { zh: '取值无效', en: 'has an invalid value' };

/** Turns a schema violation into a bilingual message that names the field. */
export function schemaError(validation: NonNullable<FastifyError['validation']>): AppError {
  const v = validation.find((e) => e.keyword === 'additionalProperties') ?? validation[0];
  const params = (v.params ?? {}) as Record<string, unknown>;
  const base = (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.');
  if (v.keyword === 'additionalProperties') {
    const field = [base, params.additionalProperty].filter(Boolean).join('.');
    return new AppError(ErrorCode.UnknownField, { field }, 400, { field });
  }
  const field = v.keyword === 'required' ? [base, params.missingProperty].filter(Boolean).join('.') : base || '(body)';
  const template = KEYWORD_REASON[v.keyword] ?? INVALID_VALUE;
  const fill = (t: string) => t.replace('{limit}', String(params.limit ?? '')).replace('{type}', String(params.type ?? ''));
  return new FieldError(field, { zh: fill(template.zh), en: fill(template.en) });
}

/** The path of the first string holding a NUL character, or null. */
export function nulField(v: unknown, path = ''): string | null {
  if (typeof v === 'string') return v.includes('\u0000') ? path : null;
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const hit = nulField(x, path ? `${path}.${k}` : k);
      if (hit !== null) return hit;
    }
  }
  return null;
}

export function installHttpPlatform(app: FastifyInstance, deps: HttpDeps): void {
  app.decorateRequest('ctx', null as unknown as RequestContext);
  app.decorateRequest('startedAt', 0);
  app.decorateRequest('errorCode', null);
  installBodyParsers(app);

  app.addHook('onRequest', async (req, reply) => {
    req.startedAt = performance.now();
    const q = req.query as Record<string, unknown> | undefined;
    const lang = q?.lang !== undefined ? parseLang(q.lang) : parseLang(req.headers['accept-language']);
    const token = tokenFrom(req);
    req.ctx = { actor: null, lang, ip: req.ip, endpoint: req.url.split('?')[0], tokenHash: token ? hashToken(token) : null, audited: false };
    if (!req.url.startsWith('/api/cmp/')) return;
    const wait = await checkRate(deps.counters, deps.limits, req.ip, req.ctx.tokenHash);
    if (wait !== null) {
      reply.header('retry-after', String(wait));
      const retryAt = new Date(Date.now() + wait * 1000).toISOString();
      return fail(reply, lang, new AppError(ErrorCode.CallLimitExceeded, { retryAfter: wait }, 429, { retryAfter: wait, retryAt }));
    }
  });

  // PostgreSQL text cannot hold NUL: refuse it as bad input instead of failing on insert
  app.addHook('preValidation', async (req) => {
    const field = nulField(req.body) ?? nulField(req.query);
    if (field !== null) throw new FieldError(field || '(body)', { zh: '不能包含空字符', en: 'must not contain NUL characters' });
  });

  app.addHook('onResponse', async (req, reply) => {
    if (!req.url.startsWith('/api/cmp/')) return;
    const a = req.ctx?.actor;
    deps.apiLog.push({
      accountId: a?.accountId ?? null,
      loginName: a?.loginName ?? null,
      custId: a?.custId ?? null,
      rootCustId: a?.rootCustId ?? null,
      method: req.method,
      path: req.url.split('?')[0].slice(0, 300),
      status: reply.statusCode,
      errorCode: req.errorCode,
      durationMs: Math.round((performance.now() - req.startedAt) * 100) / 100,
      ip: req.ip,
      // buffered rows are inserted together: stamp the time of the call, not of the insert
      createdAt: new Date(),
    });
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const lang = req.ctx?.lang ?? 'en';
    if (err instanceof AppError) return fail(reply, lang, err);
    if (err.validation) return fail(reply, lang, schemaError(err.validation));
    const shape = requestShapeError(err, req.headers['content-type']);
    if (shape) return fail(reply, lang, shape);
    if (err.code === 'FST_REQ_FILE_TOO_LARGE' || err.statusCode === 413) {
      return fail(reply, lang, new AppError(ErrorCode.BadRequest, { detail: lang === 'zh' ? '请求内容过大' : 'the request is too large' }, 413));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      req.log.warn({ err }, 'request refused by the framework');
      return fail(reply, lang, new AppError(ErrorCode.BadRequest, { detail: lang === 'zh' ? '请求格式错误' : 'the request is malformed' }, err.statusCode));
    }
    req.log.error({ err }, 'unhandled error');
    return fail(reply, lang, new AppError(ErrorCode.ServerError, undefined, 500));
  });
}

/**
 * Another way than a session token to say who calls: the open API's calls signed with a customer's AppKey
 * (modules/openapi/signed-calls.ts). Asked only when a call has no session token.
 */
export interface SignedCallAuthenticator {
  /** whether the request asks to be authenticated this way (read before the body) */
  claims(req: FastifyRequest): boolean;
  /** once the body is read: the actor the call acts as, or throws an AppError */
  authenticate(req: FastifyRequest, e: Endpoint): Promise<Actor>;
}

export type Handler<E extends Endpoint> = (
  body: Static<E['body']>,
  ctx: E['auth'] extends 'public' ? RequestContext : SessionContext,
  req: FastifyRequest,
  reply: FastifyReply,
) => Promise<E['response'] extends TSchema ? Static<E['response']> | FastifyReply : unknown>;

/**
 * Binds one contract endpoint: schema validation (unknown fields refused), session, permission code,
 * envelope, and the audit rule for mutations. Handlers receive the validated body and the caller's context.
 */
export function bind<E extends Endpoint>(
  app: FastifyInstance, deps: Pick<HttpDeps, 'sessions' | 'strictAudit'> & { signedCalls?: SignedCallAuthenticator }, e: E, handler: Handler<E>,
): void {
  const isGet = e.method === 'GET';
  const bodyProps = (e.body as unknown as { properties?: Record<string, TSchema> }).properties ?? {};
  const querystring = Type.Object(isGet ? { ...QueryBase, ...bodyProps } : QueryBase, { additionalProperties: false });
  const schema: Record<string, unknown> = { querystring };
  if (!isGet && !e.multipart) schema.body = e.body;
  if (!e.raw) {
    schema.response = {
      200: Type.Object({
        success: Type.Boolean(),
        msg: Type.String(),
        errorCode: Type.Union([Type.Integer(), Type.Null()]),
        data: e.response,
      }),
    };
  }
  app.route({
    method: e.method,
    url: pathOf(e),
    schema,
    onRequest: async (req, reply) => {
      if (reply.sent) return;
      req.ctx.endpoint = e.name;
      if (e.auth === 'public') {
        if (req.ctx.tokenHash) req.ctx.actor = await deps.sessions.lookup(req.ctx.tokenHash);
        return;
      }
      const actor = req.ctx.tokenHash ? await deps.sessions.lookup(req.ctx.tokenHash) : null;
      // no session token but a signed call: authenticated in preValidation, once the body it signs has been read
      if (!actor && !req.ctx.tokenHash && deps.signedCalls?.claims(req)) return;
      if (!actor) return fail(reply, req.ctx.lang, new AppError(ErrorCode.SessionInvalid));
      req.ctx.actor = actor;
      // a forced password change is enforced here, not only by the console
      if (actor.mustResetPassword && !e.allowWhenPasswordExpired) {
        return fail(reply, req.ctx.lang, new AppError(ErrorCode.PasswordChangeRequired));
      }
      if (e.perm && !e.perm.some((p) => actor.permissions.has(p))) {
        return fail(reply, req.ctx.lang, new AppError(ErrorCode.PermissionDenied));
      }
    },
    preValidation: async (req) => {
      if (e.auth === 'public' || req.ctx.actor || !deps.signedCalls) return;
      const actor = await deps.signedCalls.authenticate(req, e);
      req.ctx.actor = actor;
      if (e.perm && !e.perm.some((p) => actor.permissions.has(p))) throw new AppError(ErrorCode.PermissionDenied);
    },
    handler: async (req, reply) => {
      const body = (isGet ? stripQueryBase(req.query) : (req.body ?? {})) as Static<E['body']>;
      const result = await handler(body, req.ctx as never, req, reply);
      if (e.raw || reply.sent) return reply;
      if (e.kind === 'mutation' && !req.ctx.audited) {
        // a bug, not a user error: fail loudly in tests, log in production
        if (deps.strictAudit) throw new Error(`mutation ${e.name} finished without an audit record`);
        req.log.error({ endpoint: e.name }, 'mutation finished without an audit record');
      }
      return envelope(result ?? null, successMessages.ok[req.ctx.lang]);
    },
  });
}

const stripQueryBase = (q: unknown) => {
  const { ts: _ts, lang: _lang, ...rest } = (q ?? {}) as Record<string, unknown>;
  return rest;
};

export const messageOf = (code: ErrorCode, lang: Lang) => errorMessage(code, lang);
