import { sql, type SQL } from 'drizzle-orm';
import { ErrorCode, ResellSyncState, isKnownResaleState, resell as api, type BodyOf, type Lang } from '@lynx/contract';
import type { Db } from '../../db/client.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { tenantFilter, type Actor, type RequestContext, type SessionContext } from '../../platform/context.ts';
import { pageOf } from '../../platform/paging.ts';
import { exec, jobContext } from '../dsim/switching.ts';
import { RESALE_QUERY_MAX, type ResaleListingStatus, type ResalePlatform, type ResaleResult, type ResaleListing } from '../../operators/resale/platform.ts';

/**
 * Resale status sync (6020000, sync now 6020001; docs/channel-cards.md "Resale"): the resale platform's state of each
 * resold card, mapped to ResellSyncState, with the last sync time and error. "Sync now" syncs the chosen cards during the
 * call; the scheduled sync claims due cards in chunks (a claim with a lease, so a process killed mid-chunk leaves the
 * chunk to the next run after the lease) and writes each chunk's answers in one statement.
 */
type Row = Record<string, unknown>;
const STATE_OF: Record<ResaleListingStatus, number> = {
  PENDING_REVIEW: ResellSyncState.Listed, ON_SALE: ResellSyncState.Listed, SOLD: ResellSyncState.Sold, OFF_SHELF: ResellSyncState.Delisted,
};
/** The longest a call to the resale platform may take before the chunk counts as failed. */
export const RESALE_TIMEOUT_MS = 10_000;
/** A card is due for the scheduled sync when its last sync is older than this. */
export const RESELL_SYNC_EVERY_MINUTES = 30;
const CLAIM_LEASE_SECONDS = 120;

const tenant = (actor: Actor): SQL => tenantFilter(actor, { custId: sql.raw('r.cust_id'), rootCustId: sql.raw('r.root_cust_id') });

/** A failure reason in both languages (last_error_zh, last_error). */
export interface SyncReason {
  zh: string;
  en: string;
}

/**
 * Why a sync failed, in both languages. Our own reasons (no answer in time, the platform unavailable, no state for the
 * listing, a state we do not know) are sentences of ours; anything else the platform said is kept as it sent it, after
 * "the resale platform answered:".
 */
export const syncReasons = {
  timeout: (ms: number): SyncReason => ({ zh: `转售平台在 ${ms / 1000} 秒内没有应答（TIMEOUT）`, en: `TIMEOUT: the resale platform did not answer within ${ms / 1000} s` }),
  unreachable: (detail: string): SyncReason => ({ zh: `无法连接转售平台（ERROR：${detail}）`, en: `ERROR: the resale platform could not be reached (${detail})` }),
  down: (): SyncReason => ({ zh: '转售平台暂时不可用（PLATFORM_DOWN），稍后会自动重试', en: 'PLATFORM_DOWN: the resale platform is unavailable; the sync tries again later' }),
  noAnswer: (): SyncReason => ({ zh: '转售平台没有返回该商品的状态（NO_ANSWER）', en: 'NO_ANSWER: the resale platform gave no state for this listing' }),
  unknownState: (state: string): SyncReason => ({ zh: `转售平台返回了未知状态 ${state}，无法对应本平台状态`, en: `UNKNOWN_STATE: the resale platform answered the state ${state}, which we do not know` }),
  answered: (text: string): SyncReason => ({ zh: `转售平台答复：${text}`, en: `The resale platform answered: ${text}` }),
};

/** Our reason for a call that failed as a whole. */
function callFailure(code: string, message: string, timeoutMs: number): SyncReason {
  if (code === 'TIMEOUT') return syncReasons.timeout(timeoutMs);
  if (code === 'ERROR') return syncReasons.unreachable(message);
  if (code === 'PLATFORM_DOWN') return syncReasons.down();
  return syncReasons.answered(`${code}: ${message}`);
}

const rowOut = (r: Row, lang: Lang) => ({
  iccid: String(r.iccid), platformCode: String(r.platform_code), externalId: String(r.external_id), platformState: (r.platform_state as string | null) ?? null,
  syncState: Number(r.sync_state), lastSyncAt: r.last_sync_at == null ? null : new Date(r.last_sync_at as string).toISOString(),
  lastError: ((lang === 'zh' ? (r.last_error_zh ?? r.last_error) : r.last_error) as string | null) ?? null, custId: r.cust_id == null ? null : Number(r.cust_id), custName: (r.cust_name as string | null) ?? null,
});

async function withTimeout<T>(p: Promise<ResaleResult<T>>, ms: number): Promise<ResaleResult<T>> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ResaleResult<T>>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, code: 'TIMEOUT', message: `no answer within ${ms / 1000} s` }), ms);
  });
  try {
    return await Promise.race([p.catch((e: Error) => ({ ok: false as const, code: 'ERROR', message: e.message })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Asks the platform about the cards (chunks of RESALE_QUERY_MAX) and writes every answer, one statement a chunk. */
export async function syncCards(db: Db, platform: ResalePlatform, iccids: string[], timeoutMs = RESALE_TIMEOUT_MS): Promise<{ synced: number; failed: number }> {
  let synced = 0;
  let failed = 0;
  for (let i = 0; i < iccids.length; i += RESALE_QUERY_MAX) {
    const chunk = await exec<{ iccid: string; external_id: string }>(db, sql`select iccid, external_id from resell_cards
      where iccid = any(${sql.param(iccids.slice(i, i + RESALE_QUERY_MAX))}::text[])`);
    if (!chunk.length) continue;
    const answer = await withTimeout(platform.queryListings(chunk.map((c) => c.external_id)), timeoutMs);
    const byId = new Map<string, ResaleListing>(answer.ok ? answer.data.map((l) => [l.externalId, l]) : []);
    const failedCall = answer.ok ? null : callFailure(answer.code, answer.message, timeoutMs);
    const out = chunk.map((c): { iccid: string; status: string | null; state: number; error: SyncReason | null } => {
      if (failedCall) return { iccid: c.iccid, status: null, state: ResellSyncState.Failed, error: failedCall };
      const l = byId.get(c.external_id);
      if (!l || !l.status) return { iccid: c.iccid, status: null, state: ResellSyncState.Failed, error: l?.error ? syncReasons.answered(l.error) : syncReasons.noAnswer() };
      // a real platform may add a state: keep its word, but do not guess what it means for ours
      if (!isKnownResaleState(l.status)) return { iccid: c.iccid, status: String(l.status), state: ResellSyncState.Failed, error: syncReasons.unknownState(String(l.status)) };
      return { iccid: c.iccid, status: l.status, state: STATE_OF[l.status], error: null };
    });
    // a failed sync keeps the platform state last seen (it is still the best knowledge) and records the error
    await db.execute(sql`update resell_cards r set sync_state = t.state, platform_state = coalesce(t.status, r.platform_state), last_error = t.error_en,
        last_error_zh = t.error_zh, last_sync_at = now(), claimed_until = null
      from unnest(${sql.param(out.map((o) => o.iccid))}::text[], ${sql.param(out.map((o) => o.status))}::text[],
        ${sql.param(out.map((o) => o.state))}::smallint[], ${sql.param(out.map((o) => o.error?.en.slice(0, 1000) ?? null))}::text[],
        ${sql.param(out.map((o) => o.error?.zh.slice(0, 1000) ?? null))}::text[]) as t (iccid, status, state, error_en, error_zh)
      where r.iccid = t.iccid`);
    const bad = out.filter((o) => o.state === ResellSyncState.Failed).length;
    failed += bad;
    synced += out.length - bad;
  }
  return { synced, failed };
}

/** The scheduled sync: due cards claimed in chunks under a lease; returns the counts of this run. */
export async function runScheduledSync(db: Db, platform: ResalePlatform, maxChunks = 200): Promise<{ synced: number; failed: number }> {
  const total = { synced: 0, failed: 0 };
  for (let i = 0; i < maxChunks; i++) {
    const claimed = await exec<{ iccid: string }>(db, sql`update resell_cards set claimed_until = now() + make_interval(secs => ${CLAIM_LEASE_SECONDS})
      where iccid in (select iccid from resell_cards where (claimed_until is null or claimed_until < now())
        and (last_sync_at is null or last_sync_at < now() - make_interval(mins => ${RESELL_SYNC_EVERY_MINUTES}))
        order by last_sync_at nulls first, iccid limit ${RESALE_QUERY_MAX} for update skip locked)
      returning iccid`);
    if (!claimed.length) break;
    const r = await syncCards(db, platform, claimed.map((c) => c.iccid));
    total.synced += r.synced;
    total.failed += r.failed;
  }
  if (total.synced + total.failed > 0) {
    const ctx: RequestContext = jobContext('job:resell-sync');
    await audit(db, ctx, { entity: 'resellSync', entityId: null, custId: null, rootCustId: null, after: { scheduled: true, ...total } });
  }
  return total;
}

export class ResellService {
  constructor(private db: Db, private platform: () => ResalePlatform) {}

  async page(q: BodyOf<typeof api.getResellPage>, actor: Actor, lang: Lang) {
    const p = pageOf(q);
    const w: SQL[] = [tenant(actor)];
    if (q.iccid) {
      const s = q.iccid.trim();
      w.push(sql`r.iccid >= ${s} and r.iccid < ${`${s}\uffff`}`);
    }
    if (q.syncState !== undefined) w.push(sql`r.sync_state = ${q.syncState}`);
    const where = sql.join(w, sql` and `);
    const [rows, [{ total }]] = await Promise.all([
      exec(this.db, sql`select r.*, cu.cust_name from resell_cards r left join customers cu on cu.cust_id = r.cust_id where ${where}
        order by r.iccid limit ${p.limit} offset ${p.offset}`),
      exec<{ total: string }>(this.db, sql`select count(*) as total from resell_cards r where ${where}`),
    ]);
    return { list: rows.map((r) => rowOut(r, lang)), total: Number(total), current: p.current, pageSize: p.pageSize };
  }

  /** Sync now: every chosen card must be in the viewer's scope (else nothing is synced); the answers are written per card. */
  async syncNow(b: BodyOf<typeof api.syncResellNow>, ctx: SessionContext) {
    const iccids = [...new Set(b.iccids)];
    if (iccids.length > api.RESELL_SYNC_MAX) throw new AppError(ErrorCode.ResellSyncTooMany, { count: iccids.length, max: api.RESELL_SYNC_MAX });
    const seen = await exec<{ iccid: string }>(this.db, sql`select r.iccid from resell_cards r where r.iccid = any(${sql.param(iccids)}::text[]) and ${tenant(ctx.actor)}`);
    if (seen.length !== iccids.length) throw notFound();
    const r = await syncCards(this.db, this.platform(), iccids);
    await audit(this.db, ctx, { entity: 'resellSync', entityId: iccids.length === 1 ? iccids[0] : null, after: { iccids: iccids.slice(0, 100), count: iccids.length, ...r } });
    return r;
  }
}
