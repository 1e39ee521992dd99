import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { ChannelBillState, ErrorCode, channelbill } from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import { AppError } from '../../../platform/errors.ts';
import { readSheet } from '../../../platform/spreadsheet.ts';
import { rowsOf } from '../bills/bill-sql.ts';
import { checkBillFile, REASON, type BillLine, type LineError } from './channel-bill-file.ts';
import { reconcileChannelBill } from './channel-bill-reconcile.ts';

/*
 * The import of a channel bill as a durable job (docs/channel-bills.md "Import"). The bill row holds the state, the
 * cursor (lines stored, in file order) and a lease. A worker claims the lease, reads and checks the stored file, and
 * stores the lines in chunks; each chunk's lines and the cursor commit together, and only while the worker still holds
 * the lease and the cursor is where it read it. A worker killed in the middle loses its open chunk; the next one
 * (the `channel-bill` job, every minute and at start) takes over when the lease has run out and goes on from the
 * cursor. Then the reconciliation runs as one transaction.
 */

/** lines per INSERT … SELECT FROM unnest(…) and per committed chunk */
export const CHANNEL_BILL_CHUNK = 50_000;
/** a worker that has not moved a chunk in this long is taken over */
const LEASE_SECONDS = 120;
const { CHANNEL_BILL_MAX_LINES } = channelbill;

/** What reading a bill file may take (the shared spreadsheet reader's limits). */
export const BILL_SHEET_LIMITS = {
  minColumns: 2,
  maxRows: CHANNEL_BILL_MAX_LINES + 1000,
  tooManyRows: () => new TooManyLines(),
  maxUnpackedBytes: 400 * 1024 * 1024,
  maxColumns: 30,
  maxCellChars: 200,
  maxSharedStrings: CHANNEL_BILL_MAX_LINES * 2 + 1000,
};

/** the reader's refusal of a file with more rows than a bill may have: a line error of the file, not an HTTP answer */
class TooManyLines extends AppError {
  constructor() {
    super(ErrorCode.FileTooBig, { max: CHANNEL_BILL_MAX_LINES }, 400);
  }
}

/** fen as an exact decimal text: 12345n → '123.45' */
const fenText = (fen: bigint) => `${fen / 100n}.${String(fen % 100n).padStart(2, '0')}`;

export const channelBillOwner = () => `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;

interface Claimed {
  bill_id: number;
  state: number;
  period_key: string;
  storage_key: string;
  file_name: string;
  lines_done: string | number;
}

async function claim(db: Db, billId: number, owner: string): Promise<Claimed | null> {
  const [row] = rowsOf<Claimed>(await db.execute(sql`update channel_bills set lease_owner = ${owner}, lease_until = now() + make_interval(secs => ${LEASE_SECONDS})
    where bill_id = ${billId} and state in (${ChannelBillState.Importing}, ${ChannelBillState.Reconciling})
      and (lease_until is null or lease_until < now() or lease_owner = ${owner})
    returning bill_id, state, period_key, storage_key, file_name, lines_done`));
  return row ?? null;
}

/** Bills with work left (the job resumes them). */
export async function busyChannelBills(db: Db): Promise<number[]> {
  const r = rowsOf<{ bill_id: number }>(await db.execute(sql`select bill_id from channel_bills where state in (${ChannelBillState.Importing}, ${ChannelBillState.Reconciling}) order by bill_id`));
  return r.map((x) => Number(x.bill_id));
}

export interface ContinueOptions {
  chunk?: number;
  /** tests: stop after this many chunks as a killed worker would (lease kept, nothing released) */
  crashAfterChunks?: number;
}

/**
 * One worker's turn on one bill: claims it (or does nothing while another worker's lease runs), imports what is left
 * and reconciles. Safe to call any number of times, from any number of processes.
 */
export async function continueChannelBill(db: Db, filesRoot: string, billId: number, owner: string, opts: ContinueOptions = {}): Promise<void> {
  const bill = await claim(db, billId, owner);
  if (!bill) return;
  if (bill.state === ChannelBillState.Importing) {
    const done = await importLines(db, filesRoot, bill, owner, opts);
    if (!done) return;
  }
  await reconcileChannelBill(db, billId, owner);
}

async function fail(db: Db, billId: number, owner: string, errors: LineError[], badLines: number, dataLines: number, failure?: { zh: string; en: string }) {
  await db.transaction(async (tx) => {
    const [held] = rowsOf<{ bill_id: number }>(await tx.execute(sql`update channel_bills set state = ${ChannelBillState.Failed}, error_count = ${badLines},
      total_lines = ${dataLines}, failure_zh = ${failure?.zh ?? null}, failure_en = ${failure?.en ?? null}, lease_owner = null, lease_until = null, updated_at = now()
      where bill_id = ${billId} and lease_owner = ${owner} and state = ${ChannelBillState.Importing} returning bill_id`));
    if (!held) return;
    const col = <T>(f: (e: LineError) => T) => sql.param(errors.map(f));
    if (errors.length) {
      await tx.execute(sql`insert into channel_bill_errors (bill_id, line_no, column_name, iccid, reason_zh, reason_en)
        select ${billId}, t.* from unnest(${col((e) => e.lineNo)}::int[], ${col((e) => e.column)}::text[], ${col((e) => e.iccid)}::text[],
          ${col((e) => e.reason.zh)}::text[], ${col((e) => e.reason.en)}::text[]) as t on conflict do nothing`);
    }
  });
}

/** Reads, checks and stores the file from the cursor on; true when every line is stored (the bill is then reconciling). */
async function importLines(db: Db, filesRoot: string, bill: Claimed, owner: string, opts: ContinueOptions): Promise<boolean> {
  const billId = Number(bill.bill_id);
  let buffer: Buffer;
  try {
    buffer = await fs.readFile(path.join(filesRoot, bill.storage_key));
  } catch {
    await fail(db, billId, owner, [], 0, 0, REASON.unreadable);
    return false;
  }
  let checked;
  try {
    const cells = await readSheet({ filename: bill.file_name, buffer }, BILL_SHEET_LIMITS);
    checked = checkBillFile(cells, bill.period_key);
  } catch (err) {
    const tooMany = err instanceof TooManyLines;
    await fail(db, billId, owner, [{ lineNo: 0, iccid: null, column: 'file', reason: tooMany ? REASON.tooMany : REASON.unreadable }], 1, 0);
    return false;
  }
  if (checked.badLines > 0) {
    await fail(db, billId, owner, checked.errors, checked.badLines, checked.dataLines);
    return false;
  }
  const lines = checked.lines;
  const chunk = opts.chunk ?? CHANNEL_BILL_CHUNK;
  let done = Number(bill.lines_done);
  await db.execute(sql`select channel_bill_lines_ensure_partition(${billId}::bigint)`);
  await db.execute(sql`update channel_bills set total_lines = ${checked.dataLines}, channel_amount = ${fenText(checked.amountFen)}::numeric,
    updated_at = now() where bill_id = ${billId} and lease_owner = ${owner}`);
  let chunks = 0;
  while (done < lines.length) {
    const part = lines.slice(done, done + chunk);
    const moved = await db.transaction(async (tx) => {
      await insertLines(tx, billId, part);
      const [ok] = rowsOf<{ lines_done: string }>(await tx.execute(sql`update channel_bills set lines_done = ${done + part.length},
        lease_until = now() + make_interval(secs => ${LEASE_SECONDS}), updated_at = now()
        where bill_id = ${billId} and lease_owner = ${owner} and lines_done = ${done} returning lines_done`));
      // another worker took over (our lease ran out): this chunk is not ours to commit
      if (!ok) throw new LeaseLost();
      return part.length;
    }).catch((err: unknown) => {
      if (err instanceof LeaseLost) return 0;
      throw err;
    });
    if (!moved) return false;
    done += moved;
    chunks++;
    if (opts.crashAfterChunks !== undefined && chunks >= opts.crashAfterChunks && done < lines.length) return false;
  }
  const [ok] = rowsOf<{ bill_id: number }>(await db.execute(sql`update channel_bills set state = ${ChannelBillState.Reconciling}, imported_at = now(), updated_at = now()
    where bill_id = ${billId} and lease_owner = ${owner} and state = ${ChannelBillState.Importing} returning bill_id`));
  return Boolean(ok);
}

class LeaseLost extends Error {}

async function insertLines(ex: Executor, billId: number, lines: BillLine[]): Promise<void> {
  const col = <T>(f: (l: BillLine) => T) => sql.param(lines.map(f));
  // a chunk done twice (a worker killed after its commit, before it knew) writes each line once
  await ex.execute(sql`insert into channel_bill_lines (bill_id, iccid, line_no, channel_bytes, channel_sms, channel_amount)
    select ${billId}, t.iccid, t.line_no, t.bytes, t.sms, t.amount
    from unnest(${col((l) => l.iccid)}::text[], ${col((l) => l.lineNo)}::int[], ${col((l) => l.bytes)}::bigint[], ${col((l) => l.sms)}::int[],
      ${col((l) => l.amount)}::numeric[]) as t (iccid, line_no, bytes, sms, amount)
    on conflict do nothing`);
}
