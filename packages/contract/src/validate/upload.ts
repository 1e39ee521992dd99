import { formatSize } from '../format/size.ts';
import type { ValidationKey, ValidationResult } from './messages.ts';

export type ImageMimeType = 'image/jpeg' | 'image/png' | 'image/gif';

export interface FileRule {
  /** The size limit: a file must be smaller than this (spec §5, §9: "under"), so a file of exactly this size is refused. */
  maxBytes: number;
  types: readonly string[];
  exts: readonly string[];
  /** Overrides the generic 'fileTooBig' message where the spec words it specially. */
  tooBigKey?: ValidationKey;
}

export const FILE_RULES = {
  // spec §5: "under 1500 KB (check uses 1,536,000 bytes)"; payment proof under 2 MB, content images under 1 MB
  logo: {
    maxBytes: 1_536_000,
    types: ['image/jpeg', 'image/png'],
    exts: ['jpg', 'jpeg', 'png'],
    tooBigKey: 'logoTooBig',
  },
  paymentProof: {
    maxBytes: 2 * 1024 * 1024,
    types: ['image/jpeg', 'image/png', 'image/gif'],
    exts: ['jpg', 'jpeg', 'png', 'gif'],
  },
  contentImage: {
    maxBytes: 1024 * 1024,
    types: ['image/jpeg', 'image/png'],
    exts: ['jpg', 'png', 'jpeg'],
  },
} as const satisfies Record<string, FileRule>;

export interface UploadFileInfo {
  name: string;
  size: number;
  mimeType: string | null | undefined;
}

export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

// Old browsers report JPEG as image/jpg or image/pjpeg; parameters (';charset=') are noise.
function normalizeMime(mime: string | null | undefined): string {
  const base = (mime ?? '').split(';')[0].trim().toLowerCase();
  return base === 'image/jpg' || base === 'image/pjpeg' ? 'image/jpeg' : base;
}

/** Checks name, declared type and size. Real content must still be checked with sniffImageType. */
export function validateUpload(rule: FileRule, file: UploadFileInfo | null | undefined): ValidationResult {
  if (!file) return { key: 'uploadRequired' };
  if (!rule.exts.includes(fileExtension(file.name))) return { key: 'fileType' };
  if (!rule.types.includes(normalizeMime(file.mimeType))) return { key: 'fileType' };
  // "under" the limit; written as !(<) so a NaN size is refused too.
  if (!(file.size < rule.maxBytes)) {
    return rule.tooBigKey
      ? { key: rule.tooBigKey }
      : { key: 'fileTooBig', params: { max: formatSize(rule.maxBytes) } };
  }
  return null;
}

const startsWith = (bytes: Uint8Array, sig: readonly number[]): boolean =>
  bytes.length >= sig.length && sig.every((b, i) => bytes[i] === b);

const PNG_SIG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIG = [0xff, 0xd8, 0xff];
const GIF87_SIG = [0x47, 0x49, 0x46, 0x38, 0x37, 0x61];
const GIF89_SIG = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61];

/** Image type from magic numbers, because a client-declared MIME type or name can lie. */
export function sniffImageType(bytes: Uint8Array): ImageMimeType | null {
  if (startsWith(bytes, JPEG_SIG)) return 'image/jpeg';
  if (startsWith(bytes, PNG_SIG)) return 'image/png';
  if (startsWith(bytes, GIF87_SIG) || startsWith(bytes, GIF89_SIG)) return 'image/gif';
  return null;
}

/** Server-side content check: the sniffed type must be one the rule allows. */
export function validateUploadContent(rule: FileRule, bytes: Uint8Array): ValidationResult {
  const type = sniffImageType(bytes);
  return type !== null && rule.types.includes(type) ? null : { key: 'fileType' };
}
