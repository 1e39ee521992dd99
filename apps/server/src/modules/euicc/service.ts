// eUICCs and their profiles (issue 16, docs/euicc.md): lists, the check-then-change of profile states, EID assignment,
// import, activation codes. Every read and write is kept to the caller's tenant; a profile or eUICC outside it is
// "not found" exactly like a missing one. Writes are all or nothing.
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import QRCode from 'qrcode';
import {
  ErrorCode, EuiccAction, EuiccEvent, EuiccProfileState, batch, errorMessage, euiccNext, euicc as api,
  type BodyOf, type EuiccEventValue,
} from '@lynx/contract';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { AppError, invalid, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { isStaff, isChannel, tenantFilter, type Actor, type SessionContext } from '../../platform/context.ts';
import { pageOf } from '../../platform/paging.ts';
import { rowsOf } from '../delivery/webhook/rows.ts';
import { qrRefusal } from '../card/list/qr.ts';
import type { EsimGateway } from '../../operators/esim/gateway.ts';
import type { EuiccEngine } from './engine.ts';
import { cardBatches } from '../card/batch/tables.ts';
import { storeValidatedBatch } from '../card/batch/handlers.ts';
import type { BatchService } from '../card/batch/service.ts';
import { ACTION_OF, BATCH_TYPE_OF, EUICC_BATCH_TYPES, doneStateOf, refusalOf } from './batch.ts';

const { BatchSource, BatchVerdict, BatchItemStatus } = batch;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const S = EuiccProfileState;
const { activationCodeOf } = api;
const EID_RE = new RegExp(api.EID_PATTERN);
const ICCID_RE = new RegExp(api.PROFILE_ICCID_PATTERN);
const DOWNLOADABLE = [S.Bound, S.Occupied, S.DownloadFailed];

interface ProfileRow {
  iccid: string; eid: string | null; operator_id: number; state: number; op_action: number | null;
  reason_zh: string | null; reason_en: string | null; smdp_address: string; matching_id: string | null;
  cust_id: number | null; cust_name: string | null; state_at: Date | string;
}

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
const toProfile = (r: ProfileRow) => ({
  iccid: r.iccid, eid: r.eid, operatorId: Number(r.operator_id), state: Number(r.state),
  pendingAction: r.op_action == null ? null : Number(r.op_action),
  reasonZh: r.reason_zh, reasonEn: r.reason_en, smdpAddress: r.smdp_address, matchingId: r.matching_id,
  activationCode: r.matching_id ? activationCodeOf(r.smdp_address, r.matching_id) : null,
  custId: r.cust_id == null ? null : Number(r.cust_id), custName: r.cust_name, stateAt: iso(r.state_at),
});

const PROFILE_COLUMNS = sql`p.iccid, p.eid, p.operator_id, p.state, p.op_action, p.reason_zh, p.reason_en, p.smdp_address, p.matching_id,
  p.cust_id, c.cust_name, p.state_at`;

/** `col` starts with `prefix`, as a key range the b-tree can use (PITFALLS: LIKE under a non-C collation cannot). */
function startsWith(col: SQL, prefix: string): SQL {
  const next = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  return sql`(${col} >= ${prefix} and ${col} < ${next})`;
}

const scopeOf = (actor: Actor, alias: 'p' | 'e') =>
  tenantFilter(actor, { custId: sql.raw(`${alias}.cust_id`), rootCustId: sql.raw(`${alias}.root_cust_id`) });

/** ICCIDs trimmed, each once, in order; refused with the spec's text over 10,000 (§9). */
function normalizeIccids(iccids: string[]): string[] {
  const list = [...new Set(iccids.map((s) => s.trim()).filter(Boolean))];
  if (!list.length) throw new AppError(ErrorCode.EuiccEmpty);
  if (list.length > api.EUICC_BATCH_MAX) throw new AppError(ErrorCode.BatchTooMany, { count: list.length, max: api.EUICC_BATCH_MAX });
  return list;
}

export class EuiccService {
  constructor(
    private db: Db,
    private gateway: EsimGateway,
    private engine: EuiccEngine,
    /** the card batch engine's service: confirms a state-change batch (queues the durable job) */
    private batches: Pick<BatchService, 'confirm'>,
  ) {}

  async page(q: BodyOf<typeof api.getEuiccPage>, actor: Actor) {
    const p = pageOf(q);
    const conds: SQL[] = [scopeOf(actor, 'e')];
    if (q.eid?.trim()) conds.push(startsWith(sql`e.eid`, q.eid.trim()));
    const inner: SQL[] = [];
    if (q.iccid?.trim()) inner.push(startsWith(sql`p.iccid`, q.iccid.trim()));
    if (q.state) inner.push(sql`p.state = ${q.state}`);
    if (inner.length) conds.push(sql`exists (select 1 from euicc_profiles p where p.eid = e.eid and ${sql.join(inner, sql` and `)})`);
    const rows = rowsOf<{ eid: string; cust_id: number | null; cust_name: string | null; remark: string | null; created_at: Date; total: number }>(
      await this.db.execute(sql`
        select e.eid, e.cust_id, c.cust_name, e.remark, e.created_at, count(*) over()::int total
        from euiccs e left join customers c on c.cust_id = e.cust_id
        where ${sql.join(conds, sql` and `)}
        order by e.eid limit ${p.limit} offset ${p.offset}`),
    );
    const eids = rows.map((r) => r.eid);
    const profiles = eids.length
      ? rowsOf<ProfileRow>(await this.db.execute(sql`
          select ${PROFILE_COLUMNS} from euicc_profiles p left join customers c on c.cust_id = p.cust_id
          where p.eid = any(${sql.param(eids)}::text[]) and ${scopeOf(actor, 'p')} order by p.eid, p.iccid`))
      : [];
    return {
      list: rows.map((r) => ({
        eid: r.eid, custId: r.cust_id == null ? null : Number(r.cust_id), custName: r.cust_name, remark: r.remark, createdAt: iso(r.created_at),
        profiles: profiles.filter((x) => x.eid === r.eid).map(toProfile),
      })),
      total: rows[0]?.total ?? (p.offset > 0 ? await this.countEuiccs(conds) : 0),
      current: p.current, pageSize: p.pageSize,
    };
  }

  private async countEuiccs(conds: SQL[]): Promise<number> {
    const [r] = rowsOf<{ n: number }>(await this.db.execute(sql`select count(*)::int n from euiccs e where ${sql.join(conds, sql` and `)}`));
    return r.n;
  }

  async profilePage(q: BodyOf<typeof api.getProfilePage>, actor: Actor) {
    const p = pageOf(q);
    const conds: SQL[] = [scopeOf(actor, 'p')];
    if (q.iccid?.trim()) conds.push(startsWith(sql`p.iccid`, q.iccid.trim()));
    if (q.eid?.trim()) conds.push(startsWith(sql`p.eid`, q.eid.trim()));
    if (q.state) conds.push(sql`p.state = ${q.state}`);
    if (q.operatorId) conds.push(sql`p.operator_id = ${q.operatorId}`);
    if (q.downloadable) conds.push(sql`p.state = any(${sql.param(DOWNLOADABLE)}::smallint[]) and p.matching_id is not null and p.op_id is null`);
    if (q.batchId !== undefined) {
      const id = q.batchId.trim();
      // the profiles of a state-change batch (its valid items); an id that is no batch id matches nothing
      conds.push(UUID_RE.test(id)
        ? sql`exists (select 1 from card_batch_items i join card_batches b on b.batch_id = i.batch_id
            where i.batch_id = ${id}::uuid and i.iccid = p.iccid and i.verdict = ${BatchVerdict.Valid} and b.type = any(${sql.param(EUICC_BATCH_TYPES)}::int[]))`
        : sql`false`);
    }
    const where = sql.join(conds, sql` and `);
    const rows = rowsOf<ProfileRow & { total: number }>(await this.db.execute(sql`
      select ${PROFILE_COLUMNS}, count(*) over()::int total from euicc_profiles p left join customers c on c.cust_id = p.cust_id
      where ${where} order by p.iccid limit ${p.limit} offset ${p.offset}`));
    let total = rows[0]?.total ?? 0;
    if (!rows.length && p.offset > 0) {
      total = rowsOf<{ n: number }>(await this.db.execute(sql`select count(*)::int n from euicc_profiles p where ${where}`))[0].n;
    }
    return { list: rows.map(toProfile), total, current: p.current, pageSize: p.pageSize };
  }

  /**
   * What a state change would do to each profile (valid, invalid with the reason, already in the state it leads to),
   * stored as a validated batch of the card batch engine; nothing changes on the profiles until it is confirmed.
   */
  async check(body: BodyOf<typeof api.checkProfiles>, ctx: SessionContext) {
    const iccids = normalizeIccids(body.iccids);
    const event = this.eventOf(body.action);
    const verdicts = await this.classify(this.db, iccids, event, ctx.actor, false);
    const row = await this.db.transaction((tx) => this.store(tx, ctx, event, verdicts));
    const refused = verdicts.filter((v) => v.error && !v.already);
    return {
      batchId: row.batchId, total: iccids.length, valid: row.validCount, invalid: row.invalidCount, already: row.alreadyCount,
      validIccids: verdicts.filter((v) => !v.error).map((v) => v.iccid),
      refused: refused.slice(0, 500).map((v) => ({ iccid: v.iccid, ok: false, reasonZh: v.error!.message_('zh'), reasonEn: v.error!.message_('en') })),
    };
  }

  private store(tx: Executor, ctx: SessionContext, event: EuiccEventValue, verdicts: Awaited<ReturnType<EuiccService['classify']>>) {
    return storeValidatedBatch(tx, ctx, {
      type: BATCH_TYPE_OF[event], params: { type: BATCH_TYPE_OF[event], action: event }, source: BatchSource.Pasted,
      items: verdicts.map((v) => ({
        iccid: v.iccid,
        verdict: !v.error ? BatchVerdict.Valid : v.already ? BatchVerdict.Already : BatchVerdict.Invalid,
        reason: v.error ? { zh: v.error.message_('zh'), en: v.error.message_('en') } : null,
      })),
    });
  }

  private eventOf(action: number): EuiccEventValue {
    if (!EuiccAction.has(action)) throw invalid('action', { zh: '请选择下载、启用、停用或删除', en: 'choose download, enable, disable or delete' });
    return action as EuiccEventValue;
  }

  private async classify(ex: Executor, iccids: string[], event: EuiccEventValue, actor: Actor, lock: boolean) {
    const rows = rowsOf<{ iccid: string; state: number; op_id: string | null; eid: string | null }>(await ex.execute(sql`
      select p.iccid, p.state, p.op_id, p.eid from euicc_profiles p
      where p.iccid = any(${sql.param(iccids)}::text[]) and ${scopeOf(actor, 'p')} ${lock ? sql`for update` : sql``}`));
    const byIccid = new Map(rows.map((r) => [r.iccid, r]));
    const done = event === EuiccEvent.Assign ? null : doneStateOf(event);
    return iccids.map((iccid) => {
      const r = byIccid.get(iccid);
      const refusal = refusalOf(iccid, r, event);
      return {
        iccid, state: r ? Number(r.state) : null, error: refusal ? new AppError(refusal.code, refusal.params) : null,
        already: !!r && !r.op_id && done != null && Number(r.state) === done,
      };
    });
  }

  /**
   * Runs download / enable / disable / delete through the card batch engine: a checked batch by its id (its valid
   * profiles), or the profiles given (checked now, refused as a whole when one cannot change). Answers at once; the
   * engine places the operations, the dispatcher sends them, the SM-DP+'s answers end them.
   */
  async changeState(body: BodyOf<typeof api.changeProfileState>, ctx: SessionContext) {
    let batchId = body.batchId?.trim();
    if (batchId) {
      await this.batchRow(batchId, ctx.actor);
    } else {
      if (!body.iccids?.length) throw new AppError(ErrorCode.EuiccEmpty);
      if (body.action === undefined) throw invalid('action', { zh: '请选择下载、启用、停用或删除', en: 'choose download, enable, disable or delete' });
      const iccids = normalizeIccids(body.iccids);
      const event = this.eventOf(body.action);
      const verdicts = await this.classify(this.db, iccids, event, ctx.actor, false);
      const bad = verdicts.find((v) => v.error);
      if (bad) throw bad.error!;
      batchId = (await this.db.transaction((tx) => this.store(tx, ctx, event, verdicts))).batchId;
    }
    const confirmed = await this.batches.confirm(batchId, ctx);
    return { accepted: confirmed.validCount, batchId };
  }

  /** A state-change batch of the caller's tenant (types 30-33 only), else "not found". */
  private async batchRow(batchId: string, actor: Actor) {
    if (!UUID_RE.test(batchId)) throw notFound();
    const [b] = await this.db.select().from(cardBatches)
      .where(and(eq(cardBatches.batchId, batchId), tenantFilter(actor, cardBatches), inArray(cardBatches.type, EUICC_BATCH_TYPES)));
    if (!b) throw notFound();
    return b;
  }

  /** A batch's progress and where its placed profiles are now. */
  async batchDetail(body: BodyOf<typeof api.getEuiccBatch>, actor: Actor) {
    const b = await this.batchRow(body.batchId.trim(), actor);
    const states = rowsOf<{ state: number; n: number; flying: number }>(await this.db.execute(sql`
      select p.state, count(*)::int n, count(*) filter (where p.op_id is not null)::int flying
      from card_batch_items i join euicc_profiles p on p.iccid = i.iccid
      where i.batch_id = ${b.batchId}::uuid and i.status = ${BatchItemStatus.Succeeded} and ${scopeOf(actor, 'p')}
      group by p.state order by p.state`));
    // the counts of a running batch are refreshed every second by the engine; from the items they are exact
    const [c] = rowsOf<{ s: number; f: number }>(await this.db.execute(sql`
      select count(*) filter (where status = ${BatchItemStatus.Succeeded})::int s, count(*) filter (where status = ${BatchItemStatus.Failed})::int f
      from card_batch_items where batch_id = ${b.batchId}::uuid`));
    return {
      batchId: b.batchId, action: ACTION_OF[b.type], state: b.state, total: b.totalCount, valid: b.validCount, invalid: b.invalidCount,
      already: b.alreadyCount, succeeded: c.s, failed: c.f, processed: c.s + c.f,
      inFlight: states.reduce((n, r) => n + r.flying, 0),
      states: states.map((r) => ({ state: Number(r.state), count: r.n })),
      createdAt: b.createdAt.toISOString(), finishedAt: b.finishedAt ? b.finishedAt.toISOString() : null,
    };
  }

  async assign(body: BodyOf<typeof api.assignEid>, ctx: SessionContext) {
    await this.assignPairs([{ iccid: body.iccid.trim(), eid: body.eid.trim() }], ctx);
    const [row] = rowsOf<ProfileRow>(await this.db.execute(sql`
      select ${PROFILE_COLUMNS} from euicc_profiles p left join customers c on c.cust_id = p.cust_id where p.iccid = ${body.iccid.trim()}`));
    return toProfile(row);
  }

  async batchAssign(body: BodyOf<typeof api.batchAssignEid>, ctx: SessionContext) {
    if (body.pairs.length > api.EUICC_BATCH_MAX) throw new AppError(ErrorCode.BatchTooMany, { count: body.pairs.length, max: api.EUICC_BATCH_MAX });
    return { assigned: await this.assignPairs(body.pairs.map((x) => ({ iccid: x.iccid.trim(), eid: x.eid.trim() })), ctx) };
  }

  /**
   * Binds profiles to eUICCs: ES2+ DownloadOrder and ConfirmOrder (no release) at the SM-DP+ for each, then one
   * set-based update of the profiles (state bound, the matching id) and of their cards (eUICC flag, EID).
   */
  private async assignPairs(pairs: { iccid: string; eid: string }[], ctx: SessionContext): Promise<number> {
    if (!pairs.length) throw new AppError(ErrorCode.EuiccEmpty);
    const seen = new Set<string>();
    pairs.forEach((x, i) => {
      if (!ICCID_RE.test(x.iccid)) throw new AppError(ErrorCode.EuiccIccidFormat, { iccid: x.iccid });
      if (!EID_RE.test(x.eid)) throw new AppError(ErrorCode.EuiccEidFormat, { eid: x.eid });
      if (seen.has(x.iccid)) throw new AppError(ErrorCode.EuiccDuplicate, { row: i + 1, value: x.iccid });
      seen.add(x.iccid);
    });
    const actor = ctx.actor;
    return this.db.transaction(async (tx) => {
      const iccids = pairs.map((x) => x.iccid);
      const verdicts = await this.classify(tx, iccids, EuiccEvent.Assign, actor, true);
      const bad = verdicts.find((v) => v.error);
      if (bad) throw bad.error!;
      const eids = [...new Set(pairs.map((x) => x.eid))];
      const owners = new Map(rowsOf<{ eid: string; cust_id: number | null; root_cust_id: number | null }>(await tx.execute(sql`
        select e.eid, e.cust_id, e.root_cust_id from euiccs e where e.eid = any(${sql.param(eids)}::text[]) and ${scopeOf(actor, 'e')} for share`))
        .map((r) => [r.eid, r]));
      const missing = eids.find((e) => !owners.has(e));
      if (missing) throw new AppError(ErrorCode.EuiccNotFound, { eid: missing });
      const matching = await this.confirmOrders(pairs);
      await tx.execute(sql`
        update euicc_profiles p set eid = t.eid, matching_id = t.mid, smdp_address = t.addr, state = ${S.Bound},
          cust_id = e.cust_id, root_cust_id = e.root_cust_id, reason_zh = null, reason_en = null, state_at = now()
        from unnest(${sql.param(iccids)}::text[], ${sql.param(pairs.map((x) => x.eid))}::text[], ${sql.param(matching.map((m) => m.matchingId))}::text[],
          ${sql.param(matching.map((m) => m.smdpAddress))}::text[]) as t (iccid, eid, mid, addr)
        join euiccs e on e.eid = t.eid
        where p.iccid = t.iccid`);
      await this.syncCards(tx, iccids);
      await audit(tx, ctx, { entity: 'euiccAssign', entityId: pairs.length === 1 ? pairs[0].iccid : null, after: { pairs } });
      return pairs.length;
    });
  }

  /** ES2+ DownloadOrder + ConfirmOrder for each pair, 100 calls in flight at most; a refusal refuses the whole request. */
  private async confirmOrders(pairs: { iccid: string; eid: string }[]) {
    const out: { matchingId: string; smdpAddress: string }[] = new Array(pairs.length);
    for (let i = 0; i < pairs.length; i += 100) {
      await Promise.all(pairs.slice(i, i + 100).map(async (x, k) => {
        try {
          await this.gateway.downloadOrder({ iccid: x.iccid, eid: x.eid });
          const c = await this.gateway.confirmOrder({ iccid: x.iccid, eid: x.eid, releaseFlag: false });
          out[i + k] = { matchingId: c.matchingId, smdpAddress: c.smdpAddress };
        } catch (err) {
          throw new AppError(ErrorCode.EuiccSmdpRefused, { reason: `${x.iccid}: ${(err as Error).message}` });
        }
      }));
    }
    return out;
  }

  /** The cards whose ICCID is a profile's: eUICC flag on, EID of the profile (null once unbound). */
  private async syncCards(tx: Tx, iccids: string[]): Promise<void> {
    await tx.execute(sql`
      update cards c set euicc = true, eid = p.eid, updated_at = now()
      from euicc_profiles p where p.iccid = c.iccid and c.iccid = any(${sql.param(iccids)}::text[]) and c.eid is distinct from p.eid`);
  }

  /** The tenant an import is for: a customer imports for itself (a channel customer also for its tree), staff name one. */
  private async importOwner(ex: Executor, actor: Actor, custId: number | undefined) {
    if (custId === undefined) {
      if (isStaff(actor)) throw invalid('custId', { zh: '请选择客户', en: 'choose a customer' });
      return { custId: actor.custId, rootCustId: actor.rootCustId };
    }
    const [c] = rowsOf<{ cust_id: number; root_cust_id: number }>(await ex.execute(sql`select cust_id, root_cust_id from customers where cust_id = ${custId}`));
    const visible = c && (isStaff(actor) || (isChannel(actor) ? c.root_cust_id === actor.rootCustId : c.cust_id === actor.custId));
    if (!visible) throw invalid('custId', { zh: '客户不存在', en: 'no such customer' });
    return { custId: Number(c.cust_id), rootCustId: Number(c.root_cust_id) };
  }

  async customers(actor: Actor) {
    const rows = rowsOf<{ cust_id: number; cust_name: string }>(await this.db.execute(sql`
      select cust_id, cust_name from customers c where ${tenantFilter(actor, { custId: sql`c.cust_id`, rootCustId: sql`c.root_cust_id` })}
      order by cust_id limit 500`));
    return rows.map((r) => ({ custId: Number(r.cust_id), name: r.cust_name }));
  }

  /**
   * Import: rows of an EID (an eUICC), an ICCID with its operator (a profile in the SM-DP+'s stock, unbound), or both
   * (a profile bound to that eUICC: ordered and confirmed at the SM-DP+). All rows or none.
   */
  async batchInsert(body: BodyOf<typeof api.batchInsert>, ctx: SessionContext, remark: string | null = null) {
    const rows = body.rows;
    if (!rows.length) throw new AppError(ErrorCode.EuiccEmpty);
    if (rows.length > api.EUICC_BATCH_MAX) throw new AppError(ErrorCode.BatchTooMany, { count: rows.length, max: api.EUICC_BATCH_MAX });
    const rowError = (row: number, zh: string, en: string) => new AppError(ErrorCode.EuiccImportRowInvalid, { row, reasonZh: zh, reasonEn: en });
    const newEids: string[] = [];
    const profiles: { iccid: string; eid: string | null; operatorId: number; address: string }[] = [];
    const seenEid = new Set<string>();
    const seenIccid = new Set<string>();
    rows.forEach((r, i) => {
      const row = i + 1;
      const eid = r.eid?.trim() || null;
      const iccid = r.iccid?.trim() || null;
      if (!eid && !iccid) throw rowError(row, '请填写 EID 或 ICCID', 'enter an EID or an ICCID');
      if (eid && !EID_RE.test(eid)) throw rowError(row, `EID 格式不正确（应为 32 位数字）：${eid}`, `not an EID (32 digits): ${eid}`);
      if (eid && !seenEid.has(eid)) {
        seenEid.add(eid);
        newEids.push(eid);
      } else if (eid && !iccid) throw new AppError(ErrorCode.EuiccDuplicate, { row, value: eid });
      if (iccid) {
        if (!ICCID_RE.test(iccid)) throw rowError(row, `ICCID 格式不正确（应为 19-20 位数字或字母）：${iccid}`, `not an ICCID (19-20 digits or letters): ${iccid}`);
        if (seenIccid.has(iccid)) throw new AppError(ErrorCode.EuiccDuplicate, { row, value: iccid });
        seenIccid.add(iccid);
        if (!r.operatorId || ![1, 2, 3].includes(r.operatorId)) throw rowError(row, '请选择运营商（1 移动、2 联通、3 电信）', 'choose the operator (1 China Mobile, 2 China Unicom, 3 China Telecom)');
        profiles.push({ iccid, eid, operatorId: r.operatorId, address: r.smdpAddress?.trim() || this.gateway.smdpAddress });
      }
    });
    const result = await this.db.transaction(async (tx) => {
      const owner = await this.importOwner(tx, ctx.actor, body.custId);
      // an EID or ICCID that exists anywhere is refused (EIDs and ICCIDs are world-unique); its row is named
      const takenEids = new Set(rowsOf<{ eid: string }>(await tx.execute(sql`select eid from euiccs where eid = any(${sql.param(newEids)}::text[])`)).map((r) => r.eid));
      const takenIccids = new Set(rowsOf<{ iccid: string }>(await tx.execute(sql`
        select iccid from euicc_profiles where iccid = any(${sql.param(profiles.map((p) => p.iccid))}::text[])`)).map((r) => r.iccid));
      rows.forEach((r, i) => {
        const eid = r.eid?.trim();
        const iccid = r.iccid?.trim();
        if (iccid && takenIccids.has(iccid)) throw new AppError(ErrorCode.EuiccProfileExists, { row: i + 1, value: iccid });
        if (eid && !iccid && takenEids.has(eid)) throw new AppError(ErrorCode.EuiccProfileExists, { row: i + 1, value: eid });
      });
      // an EID given with a profile may name an eUICC of the same owner that already exists
      const foreign = rowsOf<{ eid: string }>(await tx.execute(sql`
        select eid from euiccs where eid = any(${sql.param([...takenEids])}::text[]) and cust_id is distinct from ${owner.custId}`));
      if (foreign.length) {
        const row = rows.findIndex((r) => r.eid?.trim() === foreign[0].eid) + 1;
        throw new AppError(ErrorCode.EuiccProfileExists, { row, value: foreign[0].eid });
      }
      const fresh = newEids.filter((e) => !takenEids.has(e));
      if (fresh.length) {
        await tx.execute(sql`
          insert into euiccs (eid, cust_id, root_cust_id, created_by)
          select unnest(${sql.param(fresh)}::text[]), ${owner.custId}::int, ${owner.rootCustId}::int, ${ctx.actor.loginName}`);
      }
      const bound = profiles.filter((p) => p.eid);
      const matching = bound.length ? await this.confirmOrders(bound.map((p) => ({ iccid: p.iccid, eid: p.eid! }))) : [];
      const mid = new Map(bound.map((p, i) => [p.iccid, matching[i]]));
      if (profiles.length) {
        const col = <T>(f: (p: (typeof profiles)[number]) => T) => sql.param(profiles.map(f));
        await tx.execute(sql`
          insert into euicc_profiles (iccid, eid, operator_id, state, smdp_address, matching_id, cust_id, root_cust_id)
          select t.iccid, t.eid, t.op, t.state, t.addr, t.mid, ${owner.custId}::int, ${owner.rootCustId}::int
          from unnest(${col((p) => p.iccid)}::text[], ${col((p) => p.eid)}::text[], ${col((p) => p.operatorId)}::smallint[],
            ${col((p) => (p.eid ? S.Bound : S.Unbound))}::smallint[], ${col((p) => mid.get(p.iccid)?.smdpAddress ?? p.address)}::text[],
            ${col((p) => mid.get(p.iccid)?.matchingId ?? null)}::text[]) as t (iccid, eid, op, state, addr, mid)`);
        if (bound.length) await this.syncCards(tx, bound.map((p) => p.iccid));
      }
      await audit(tx, ctx, {
        entity: 'euiccImport', entityId: null, custId: owner.custId, rootCustId: owner.rootCustId,
        after: { euiccs: fresh, profiles: profiles.map((p) => ({ iccid: p.iccid, eid: p.eid })), ...(remark ? { remark } : {}) },
      });
      return { euiccs: fresh.length, profiles: profiles.length };
    });
    return result;
  }

  /**
   * Activation codes as QR codes (the QR encodes LPA:1$<SM-DP+>$<matching id>, never the ICCID). A profile whose card
   * is invalidated, retired or frozen is skipped with the spec's message; a start-state card is unavailable; a
   * profile with nothing to download is skipped with its state. A bound profile is released at the SM-DP+ (occupied).
   */
  async qrCodes(body: BodyOf<typeof api.activationQrCodes>, ctx: SessionContext) {
    const iccids = [...new Set(body.iccids.map((s) => s.trim()).filter(Boolean))];
    if (!iccids.length) throw new AppError(ErrorCode.EuiccEmpty);
    return this.db.transaction(async (tx) => {
      const rows = rowsOf<ProfileRow & { card_state: number | null; op_id: string | null }>(await tx.execute(sql`
        select ${PROFILE_COLUMNS}, p.op_id, k.state as card_state
        from euicc_profiles p left join customers c on c.cust_id = p.cust_id left join cards k on k.iccid = p.iccid
        where p.iccid = any(${sql.param(iccids)}::text[]) and ${scopeOf(ctx.actor, 'p')} for update of p`));
      const byIccid = new Map(rows.map((r) => [r.iccid, r]));
      const skipped: { iccid: string; ok: boolean; reasonZh: string; reasonEn: string }[] = [];
      const skip = (iccid: string, code: ErrorCode, params?: Record<string, string | number>) =>
        skipped.push({ iccid, ok: false, reasonZh: errorMessage(code, 'zh', params), reasonEn: errorMessage(code, 'en', params) });
      const take: ProfileRow[] = [];
      for (const iccid of iccids) {
        const r = byIccid.get(iccid);
        if (!r) { skip(iccid, ErrorCode.EuiccProfileNotFound, { iccid }); continue; }
        const cardRefusal = r.card_state == null ? null : qrRefusal(Number(r.card_state));
        if (cardRefusal) { skip(iccid, cardRefusal); continue; }
        if (r.op_id || !r.matching_id || !DOWNLOADABLE.includes(Number(r.state) as never)) {
          skip(iccid, ErrorCode.EuiccNoActivationCode, { iccid, stateZh: S.label(Number(r.state), 'zh'), stateEn: S.label(Number(r.state), 'en') });
          continue;
        }
        take.push(r);
      }
      const release = take.filter((r) => Number(r.state) === S.Bound);
      for (const r of release) {
        try {
          await this.gateway.releaseProfile({ iccid: r.iccid });
        } catch (err) {
          throw new AppError(ErrorCode.EuiccSmdpRefused, { reason: `${r.iccid}: ${(err as Error).message}` });
        }
      }
      if (release.length) {
        await tx.execute(sql`update euicc_profiles set state = ${euiccNext(S.Bound, EuiccEvent.Release)}, state_at = now()
          where iccid = any(${sql.param(release.map((r) => r.iccid))}::text[])`);
      }
      const codes = await Promise.all(take.map(async (r) => {
        const activationCode = activationCodeOf(r.smdp_address, r.matching_id!);
        return { iccid: r.iccid, activationCode, png: await QRCode.toDataURL(activationCode, { errorCorrectionLevel: 'M', margin: 2, width: 280 }) };
      }));
      await audit(tx, ctx, { entity: 'euiccActivationCode', entityId: null, after: { released: release.map((r) => r.iccid), issued: take.map((r) => r.iccid) } });
      return { codes, skipped };
    });
  }
}

