import zlib from 'node:zlib';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { INFLATE_RATIO_FROM, MAX_INFLATE_RATIO, fileTypeError, unpackedTooLarge, type Budget } from './limits.ts';

/*
 * The parts of a zip (an xlsx is one) read from its central directory, every offset checked against the
 * buffer. Sizes the archive declares for the unpacked content are never used: an entry is inflated as a
 * stream and its bytes are counted as they come out (Budget), so a part that lies about its size is
 * stopped all the same.
 */

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflate: the only methods read */
  method: 0 | 8;
  /** where the entry's compressed bytes start and end in the buffer */
  start: number;
  end: number;
}

const EOCD = 0x06054b50;
const CEN = 0x02014b50;
const LOC = 0x04034b50;
/** a real xlsx has a few dozen parts; a directory of thousands is no spreadsheet anyone typed */
const MAX_ENTRIES = 5000;
/** bytes handed to inflate (or passed on from a stored entry) per step; the event loop gets a turn between steps */
const STEP = 64 * 1024;

/** The entries of a zip by lower-case name; anything malformed, encrypted or compressed otherwise is a file type error. */
export function zipEntries(buf: Buffer): Map<string, ZipEntry> {
  // the end-of-central-directory record is 22 bytes plus a comment of at most 65535 bytes
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65_535); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw fileTypeError();
  const count = buf.readUInt16LE(eocd + 10);
  const cenSize = buf.readUInt32LE(eocd + 12);
  const cenStart = buf.readUInt32LE(eocd + 16);
  if (count > MAX_ENTRIES || cenStart + cenSize > eocd) throw fileTypeError();
  const entries = new Map<string, ZipEntry>();
  let p = cenStart;
  for (let n = 0; n < count; n++) {
    if (p + 46 > eocd || buf.readUInt32LE(p) !== CEN) throw fileTypeError();
    const flags = buf.readUInt16LE(p + 8);
    const method = buf.readUInt16LE(p + 10);
    let compressed = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    let offset = buf.readUInt32LE(p + 42);
    const next = p + 46 + nameLen + extraLen + commentLen;
    if (next > eocd) throw fileTypeError();
    // bit 0: encrypted; bit 6: strong encryption
    if (flags & 0x41 || (method !== 0 && method !== 8)) throw fileTypeError();
    if (compressed === 0xffffffff || offset === 0xffffffff) {
      const z64 = zip64Sizes(buf, p + 46 + nameLen, extraLen, buf.readUInt32LE(p + 24) === 0xffffffff, compressed === 0xffffffff, offset === 0xffffffff);
      compressed = z64.compressed ?? compressed;
      offset = z64.offset ?? offset;
    }
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen).replace(/\\/g, '/').replace(/^\/+/, '').toLowerCase();
    if (offset + 30 > cenStart || buf.readUInt32LE(offset) !== LOC) throw fileTypeError();
    const start = offset + 30 + buf.readUInt16LE(offset + 26) + buf.readUInt16LE(offset + 28);
    const end = start + compressed;
    if (end > cenStart) throw fileTypeError();
    if (!entries.has(name)) entries.set(name, { name, method, start, end });
    p = next;
  }
  return entries;
}

/** The zip64 extra field (id 1) of a central directory entry: the 64-bit values present in its order. */
function zip64Sizes(buf: Buffer, from: number, len: number, hasSize: boolean, hasCompressed: boolean, hasOffset: boolean) {
  let p = from;
  const end = from + len;
  while (p + 4 <= end) {
    const id = buf.readUInt16LE(p);
    const size = buf.readUInt16LE(p + 2);
    if (p + 4 + size > end) break;
    if (id === 1) {
      let q = p + 4;
      const take = () => {
        if (q + 8 > p + 4 + size) throw fileTypeError();
        const v = Number(buf.readBigUInt64LE(q));
        q += 8;
        return v;
      };
      if (hasSize) take();
      const compressed = hasCompressed ? take() : undefined;
      const offset = hasOffset ? take() : undefined;
      return { compressed, offset };
    }
    p += 4 + size;
  }
  throw fileTypeError();
}

/**
 * Inflates one entry as a stream (node:zlib, off the main thread), passing each piece to `onData` as it
 * comes out after charging it to `budget`; the first refusal (the budget's or onData's) destroys the
 * stream and is what the promise rejects with. A broken deflate stream is a file type error.
 */
export async function inflateEntry(zip: Buffer, entry: ZipEntry, budget: Budget, onData: (piece: Buffer) => void): Promise<void> {
  const data = zip.subarray(entry.start, entry.end);
  if (entry.method === 0) {
    for (let i = 0; i < data.length; i += STEP) {
      const piece = data.subarray(i, i + STEP);
      budget.take(piece.length);
      onData(piece);
      await nextTurn();
    }
    return;
  }
  const inflate = zlib.createInflateRaw({ chunkSize: STEP });
  await new Promise<void>((resolve, reject) => {
    let failed = false;
    /** the deflate stream has come to its end: whatever follows it in the entry is not handed to zlib */
    let ended = false;
    /** compressed bytes handed to zlib so far, and what came out */
    let fed = 0;
    let out = 0;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      inflate.destroy();
      reject(err);
    };
    inflate.on('data', (piece: Buffer) => {
      if (failed) return;
      try {
        budget.take(piece.length);
        out += piece.length;
        if (out > INFLATE_RATIO_FROM && out > fed * MAX_INFLATE_RATIO) throw unpackedTooLarge(budget.max);
        onData(piece);
      } catch (err) {
        fail(err);
      }
    });
    inflate.on('error', () => fail(fileTypeError()));
    inflate.on('end', () => {
      ended = true;
      // an entry whose deflate stream ends early leaves zlib's input side open: it is closed here all the same
      inflate.destroy();
      if (!failed) resolve();
    });
    // fed in steps so that a stream which ends early is noticed without handing zlib the rest
    const feed = (i: number) => {
      if (failed || ended) return;
      if (i >= data.length) {
        inflate.end();
        return;
      }
      const chunk = data.subarray(i, i + STEP);
      fed += chunk.length;
      const more = inflate.write(chunk);
      if (more) setImmediate(() => feed(i + STEP));
      else inflate.once('drain', () => feed(i + STEP));
    };
    feed(0);
  });
}
