import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import '@fastify/multipart';
import { eq } from 'drizzle-orm';
import { ErrorCode, FILE_RULES, validateUpload, sniffImageType, formatSize, type FileRule } from '@lynx/contract';
import type { Db, Executor } from '../db/client.ts';
import { files } from './tables.ts';
import { AppError } from './errors.ts';
import type { Actor } from './context.ts';

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
 * Reads a multipart request: its text fields and at most one file from `fileField`. Reading stops at
 * maxBytes + 1 so an oversized upload is refused without holding it in memory.
 */
export async function readMultipart(req: FastifyRequest, fileField: string, maxBytes: number): Promise<MultipartBody> {
  if (!req.isMultipart()) throw new AppError(ErrorCode.FileRequired, undefined, 400);
  const fields: Record<string, string> = {};
  let file: UploadedFile | null = null;
  let tooBig = false;
  for await (const part of req.parts({ limits: { fileSize: maxBytes + 1, files: 3, fields: 20, fieldSize: 10_000 } })) {
    if (part.type === 'file') {
      const chunks: Buffer[] = [];
      for await (const chunk of part.file) chunks.push(chunk as Buffer);
      if (part.file.truncated) tooBig = true;
      if (part.fieldname === fileField && !file) {
        file = { filename: part.filename, mimeType: part.mimetype, buffer: Buffer.concat(chunks) };
      }
    } else {
      fields[part.fieldname] = String(part.value ?? '');
    }
  }
  if (tooBig && file) file.buffer = Buffer.alloc(maxBytes + 1);
  return { fields, file };
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
