import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import '@fastify/multipart';
import { eq } from 'drizzle-orm';
import { ErrorCode, FILE_RULES, validateUpload, sniffImageType, formatSize, type Endpoint, type FileRule } from '@lynx/contract';
import type { Db, Executor } from '../db/client.ts';
import { files } from './tables.ts';
import { AppError, FieldError } from './errors.ts';
import { nulField, schemaError } from './http.ts';
import type { Actor } from './context.ts';
import { FILE_CONTENT_SECURITY_POLICY } from './security-headers.ts';

export type FileUse = keyof typeof FILE_RULES | 'platformLogo';
export const ruleOf = (use: FileUse): FileRule => FILE_RULES[use === 'platformLogo' ? 'logo' : use];

export interface UploadedFile {
  filename: string;
  mimeType: string;
  buffer: Buffer;
}

export interface MultipartBody {
  fields: Record<string, string>;
  file: UploadedFile | null;
}

/**
 * Reads a multipart request of a contract endpoint: the text fields its body schema declares, checked as a JSON
 * body is (unknown names refused with 20007, bounds and types with 20004, same messages), and one file under the
 * endpoint's file field. A part under any other name is unknown; a second file under the file field is refused
 * (20051). The request is read to its end first, with refused files drained, not held; reading a file stops at
 * maxBytes + 1 so an oversized upload is refused without holding it in memory.
 */
export async function readMultipart(req: FastifyRequest, e: Endpoint): Promise<MultipartBody> {
  if (!e.multipart) throw new Error(`${e.name} is not a multipart endpoint`);
  const { file: fileField, maxBytes } = e.multipart;
  if (!req.isMultipart()) throw new AppError(ErrorCode.FileRequired, undefined, 400);
  const textFields = Object.keys((e.body as { properties?: object }).properties ?? {});
  const fields: Record<string, string> = {};
  let file: UploadedFile | null = null;
  let files = 0;
  let tooBig = false;
  let unknown: string | null = null;
  try {
    for await (const part of req.parts({ limits: { fileSize: maxBytes + 1, files: 3, fields: 20, fieldSize: 10_000 } })) {
      if (part.type === 'file') {
        if (part.fieldname === fileField) files++;
        else unknown ??= String(part.fieldname ?? '');
        const wanted = part.fieldname === fileField && !file;
        const chunks: Buffer[] = [];
        for await (const chunk of part.file) if (wanted) chunks.push(chunk as Buffer);
        if (!wanted) continue;
        if (part.file.truncated) tooBig = true;
        file = { filename: part.filename, mimeType: part.mimetype, buffer: Buffer.concat(chunks) };
      } else if (textFields.includes(part.fieldname)) {
        fields[part.fieldname] = String(part.value ?? '');
      } else {
        unknown ??= String(part.fieldname ?? '');
      }
    }
  } catch (err) {
    throw multipartError(err, maxBytes);
  }
  if (unknown !== null) {
    const field = unknown.slice(0, 64) || '-';
    throw new AppError(ErrorCode.UnknownField, { field }, 400, { field });
  }
  if (files > 1) throw new AppError(ErrorCode.SingleFile, undefined, 400, { field: fileField });
  const nul = nulField(fields);
  if (nul !== null) throw new FieldError(nul, { zh: '不能包含空字符', en: 'must not contain NUL characters' });
  const valid = req.compileValidationSchema(e.body as object);
  if (!valid(fields)) throw schemaError(valid.errors as NonNullable<FastifyError['validation']>);
  if (tooBig && file) file.buffer = Buffer.alloc(maxBytes + 1);
  return { fields, file };
}

/**
 * What a broken multipart request (no boundary, cut off early, malformed part headers, too many parts or
 * fields) is answered with: the upload message, never a server error; a file over the limit is "file too big".
 */
function multipartError(err: unknown, maxBytes: number): AppError {
  if (err instanceof AppError) return err;
  const e = err as { code?: string };
  if (e.code === 'FST_REQ_FILE_TOO_LARGE') return new AppError(ErrorCode.FileTooBig, { max: formatSize(maxBytes) }, 413);
  return new AppError(ErrorCode.UploadMalformed, undefined, 400);
}

/** Stores files under DATA_DIR/files with a database row per file; checks the spec's per-use rules. */
export class FileStore {
  readonly root: string;
  constructor(
    private db: Db,
    dataDir: string,
  ) {
    this.root = path.join(dataDir, 'files');
    fs.mkdirSync(this.root, { recursive: true });
  }

  /** Enforces the rule for its use: extension, declared type, real content (magic numbers) and size. */
  check(use: FileUse, file: UploadedFile | null): asserts file is UploadedFile {
    const rule = ruleOf(use);
    const err = validateUpload(rule, file ? { name: file.filename, size: file.buffer.length, mimeType: file.mimeType } : null);
    if (err) {
      if (err.key === 'uploadRequired') throw new AppError(ErrorCode.FileRequired, undefined, 400);
      if (err.key === 'fileType') throw new AppError(ErrorCode.FileType, undefined, 400);
      if (err.key === 'logoTooBig') throw new AppError(ErrorCode.LogoTooBig, undefined, 400);
      throw new AppError(ErrorCode.FileTooBig, { max: formatSize(rule.maxBytes) }, 400);
    }
    const real = sniffImageType(file!.buffer);
    if (!real || !rule.types.includes(real)) throw new AppError(ErrorCode.FileType, undefined, 400);
  }

  async save(ex: Executor, use: FileUse, file: UploadedFile, actor: Actor, tenant: { custId: number | null; rootCustId: number | null }) {
    this.check(use, file);
    const fileId = crypto.randomUUID();
    const ext = path.extname(file.filename).toLowerCase().replace(/[^.a-z0-9]/g, '');
    const now = new Date();
    const storageKey = path.posix.join(use, String(now.getUTCFullYear()), String(now.getUTCMonth() + 1).padStart(2, '0'), fileId + ext);
    const full = path.join(this.root, storageKey);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    await fs.promises.writeFile(full, file.buffer);
    const mimeType = sniffImageType(file.buffer) ?? file.mimeType;
    const [row] = await ex
      .insert(files)
      .values({
        fileId, use, originalName: file.filename.slice(0, 200), mimeType, size: file.buffer.length, storageKey,
        ownerAccountId: actor.accountId, custId: tenant.custId, rootCustId: tenant.rootCustId,
      })
      .returning();
    return row;
  }

  async get(fileId: string) {
    if (!/^[0-9a-f-]{36}$/i.test(fileId)) return null;
    const [row] = await this.db.select().from(files).where(eq(files.fileId, fileId));
    return row ?? null;
  }

  pathOf(storageKey: string): string {
    const full = path.resolve(this.root, storageKey);
    if (!full.startsWith(path.resolve(this.root) + path.sep)) throw new AppError(ErrorCode.NotFound);
    return full;
  }
}

export const publicFileUrl = (fileId: string) => `/api/cmp/base/file/public?fileId=${fileId}`;
export const privateFileUrl = (fileId: string) => `/api/cmp/base/file/get?fileId=${fileId}`;

/**
 * A Content-Disposition value: an ASCII fallback name for old clients and the real name in RFC 5987 form
 * (encodeURIComponent leaves ' ( ) * ! as they are; RFC 5987 does not allow them unescaped).
 */
export function contentDisposition(type: 'attachment' | 'inline', filename: string): string {
  let ascii = filename.replace(/[^\w.-]+/g, '_').slice(-100) || 'file';
  // a name with no ASCII letter or digit before its extension ("卡导入模板.csv") falls back to "download.csv"
  if (!/[A-Za-z0-9]/.test(path.parse(ascii).name)) ascii = `download${path.extname(ascii)}`;
  const encoded = encodeURIComponent(filename).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

const DOWNLOAD_TYPES: Record<string, string> = {
  '.csv': 'text/csv; charset=utf-8',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.zip': 'application/zip',
};

/**
 * Sends a generated or stored file as a download: its type by extension, an attachment name in both forms and
 * the sandboxing CSP every file answer carries, so no download path writes its own headers.
 */
export function sendDownload(reply: FastifyReply, filename: string, body: Buffer | string | NodeJS.ReadableStream): FastifyReply {
  const type = DOWNLOAD_TYPES[path.extname(filename).toLowerCase()] ?? 'application/octet-stream';
  return reply
    .header('content-type', type)
    .header('content-disposition', contentDisposition('attachment', filename))
    .header('content-security-policy', FILE_CONTENT_SECURITY_POLICY)
    .send(body);
}

/** Image types a browser may show inline from this server: the sniffed types uploads are checked against (never SVG). */
export const INLINE_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif'];
