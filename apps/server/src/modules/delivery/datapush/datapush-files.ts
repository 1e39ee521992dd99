import { sql, type SQL } from 'drizzle-orm';
import { CardState, formatDateTime, type datapush } from '@lynx/contract';
import type { Db } from '../../../db/client.ts';
import { rowsOf } from '../../billing/bills/bill-sql.ts';

/**
 * The files a push task writes (docs/data-push.md): CSV, UTF-8 without BOM, LF line ends, a header row of English
 * column names (machines read these files), times in the business time zone as 'YYYY-MM-DD HH:mm:ss'. Rows are read in
 * keyset pages of PAGE rows by ICCID, so a million-card file never sits in memory.
 */
const PAGE = 5000;

export type FileType = datapush.DataPushFileType;

/** The cards a task's file covers: a first-level customer's tree, or a second-level customer's own cards. */
export interface FileOwner {
  custId: number;
  /** 1 first-level, 2 second-level */
  level: number;
}

const ownerFilter = (o: FileOwner, alias: string): SQL =>
  o.level === 1 ? sql`${sql.raw(alias)}.root_cust_id = ${o.custId}` : sql`${sql.raw(alias)}.cust_id = ${o.custId}`;

const field = (v: unknown): string => {
  if (v == null) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const line = (values: unknown[]) => values.map(field).join(',') + '\n';
const time = (v: unknown) => (v == null ? null : formatDateTime(v as string));

export const FILE_KEYS: Record<number, string> = { 1: 'cards', 2: 'daily-usage' };

export const CARD_COLUMNS = ['iccid', 'msisdn', 'imsi', 'imei', 'state', 'state_name', 'cust_id', 'cust_name', 'online', 'activated_at', 'last_session_at'];
export const USAGE_COLUMNS = ['day', 'iccid', 'cust_id', 'apn', 'bytes_up', 'bytes_down', 'bytes', 'sms', 'voice_seconds', 'sessions'];

/** The file's lines: the header, then one per row. `counter.rows` counts the data rows as they are read. */
export async function* fileLines(db: Db, type: number, owner: FileOwner, usageDay: string, counter: { rows: number }): AsyncGenerator<string> {
  if (type === 1) {
    yield line(CARD_COLUMNS);
    let last = '';
    for (;;) {
      const rows = rowsOf<Record<string, unknown>>(await db.execute(sql`select k.iccid, k.msisdn, k.imsi, k.imei, k.state, k.cust_id, c.cust_name,
          k.online, k.activated_at, k.last_session_at
        from cards k left join customers c on c.cust_id = k.cust_id
        where ${ownerFilter(owner, 'k')} and k.iccid > ${last} order by k.iccid limit ${PAGE}`));
      for (const r of rows) {
        yield line([r.iccid, r.msisdn, r.imsi, r.imei, r.state, CardState.label(Number(r.state), 'en'), r.cust_id, r.cust_name,
          r.online ? 1 : 0, time(r.activated_at), time(r.last_session_at)]);
      }
      counter.rows += rows.length;
      if (rows.length < PAGE) return;
      last = String(rows[rows.length - 1].iccid);
    }
  }
  yield line(USAGE_COLUMNS);
  let last = '';
  for (;;) {
    const rows = rowsOf<Record<string, unknown>>(await db.execute(sql`select u.iccid, u.cust_id, u.apn, u.bytes_up, u.bytes_down, u.bytes, u.sms,
        u.voice_seconds, u.sessions
      from card_usage_daily u where u.day = ${usageDay}::date and ${ownerFilter(owner, 'u')} and u.iccid > ${last}
      order by u.iccid limit ${PAGE}`));
    for (const r of rows) {
      yield line([usageDay, r.iccid, r.cust_id, r.apn, r.bytes_up, r.bytes_down, r.bytes, r.sms, r.voice_seconds, r.sessions]);
    }
    counter.rows += rows.length;
    if (rows.length < PAGE) return;
    last = String(rows[rows.length - 1].iccid);
  }
}

/** `cards_<custId>_<YYYYMMDD>_<HHmmss>.csv` in business time; the usage file names the day it covers. */
export function fileNameOf(type: number, custId: number, now: Date, usageDay: string): string {
  const stamp = formatDateTime(now).replace(/[-:]/g, '').replace(' ', '_');
  return type === 1 ? `${FILE_KEYS[1]}_${custId}_${stamp}.csv` : `${FILE_KEYS[2]}_${custId}_${usageDay.replace(/-/g, '')}_${stamp}.csv`;
}
