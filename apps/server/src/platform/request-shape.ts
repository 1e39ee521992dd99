import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance } from 'fastify';
import { ErrorCode, JSON_MAX_DEPTH, errorMessage, parseLang } from '@lynx/contract';
import { AppError } from './errors.ts';
import { RAW_ANSWER_HEADERS } from './security-headers.ts';

/*
 * Malformed requests answered by the shared layer, before any handler runs, in the envelope and the caller's
 * language: JSON that is invalid or nested too deep, content types no endpoint takes, and requests Node's
 * HTTP parser refuses (a request line or headers over 16 KB, garbage on the socket).
 */

/** Node's default limit of a request line plus headers. */
export const MAX_HEAD_BYTES = 16 * 1024;

/**
 * Whether a JSON text nests arrays and objects deeper than `max`, found by one pass over the characters
 * (brackets inside strings do not count). Runs before JSON.parse so that nothing recursive (prototype
 * scan, schema validation, the NUL check) ever sees a body tens of thousands of levels deep.
 */
export function jsonTooDeep(text: string, max = JSON_MAX_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Replaces Fastify's JSON parser with one that refuses deep nesting first (keeping its prototype-poisoning
 * checks), and drops its text/plain parser: every body is a JSON object, so plain text is an unsupported type.
 */
export function installBodyParsers(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    if (jsonTooDeep(text)) return done(new AppError(ErrorCode.JsonTooDeep, { max: JSON_MAX_DEPTH }, 400), undefined);
    parseJson(req, text, done);
  });
}

/**
 * The bilingual refusal for an error Fastify raises itself while reading a request (no handler ran), or null
 * when the error is not one of those.
 */
export function requestShapeError(err: FastifyError, contentType: string | undefined): AppError | null {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError(ErrorCode.BadRequest, { detail: 'Content-Length' }, 400);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(ErrorCode.ContentTypeUnsupported, { type: (contentType ?? '').split(';')[0].trim().slice(0, 100) || '-' }, 415);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError(ErrorCode.JsonInvalid, undefined, 400);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return null;
    case 'FST_PROTO_VIOLATION':
    case 'FST_CONSTRUCTOR_VIOLATION':
      return new AppError(ErrorCode.JsonInvalid, undefined, 400);
  }
  // JSON.parse's own error, raised through the parser
  if (err instanceof SyntaxError || err.name === 'SyntaxError') return new AppError(ErrorCode.JsonInvalid, undefined, 400);
  return null;
}

/**
 * Answers what Node's HTTP parser refuses (it never reaches Fastify) in the envelope: 431 for a request line or
 * headers over the limit, 400 for anything else malformed. The language comes from a `lang=` in what was
 * received, else English.
 */
export function clientErrorHandler(err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  // a response already under way on this connection (pipelining) cannot be followed by another: just close
  const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  const head = Buffer.isBuffer(err.rawPacket) ? err.rawPacket.subarray(0, 4096).toString('latin1') : '';
  const lang = parseLang(/[?&]lang=(zh|en)\b/.exec(head)?.[1]);
  const overflow = err.code === 'HPE_HEADER_OVERFLOW';
  const status = overflow ? 431 : err.code === 'HPE_REQUEST_TIMEOUT' || err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const code = overflow ? ErrorCode.RequestHeadTooLarge : ErrorCode.BadRequest;
  const params: Record<string, string> = overflow ? { max: `${MAX_HEAD_BYTES / 1024} KB` } : { detail: lang === 'zh' ? '无法解析的 HTTP 请求' : 'the HTTP request cannot be parsed' };
  const body = JSON.stringify({ success: false, msg: errorMessage(code, lang, params), errorCode: code, data: null });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'content-type: application/json; charset=utf-8\r\n' +
      RAW_ANSWER_HEADERS +
      `content-length: ${Buffer.byteLength(body)}\r\n` +
      'connection: close\r\n\r\n' +
      body,
  );
}
