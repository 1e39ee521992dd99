// What a batch does to one card, shared by validation (classify, nothing changes) and the job (the action to
// apply): the batch's parameters checked once, then per card the lifecycle engine's verdict on the card's
// snapshot. Design note: docs/batch.md.
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  BASE_TARIFFS, ErrorCode, NetworkType, PlanOperationMode, batch, errorMessage, type BodyOf,
} from '@lynx/contract';
import type { Executor } from '../../../db/client.ts';
import { AppError, FieldError, denied } from '../../../platform/errors.ts';
import type { Actor } from '../../../platform/context.ts';
import { visibleBasicPlan } from '../../plan/plan-service.ts';
import { planZones } from '../../plan/plan-tables.ts';
import { plansWithPendingPriceChange } from '../../plan/plan-price.ts';
import { cardZoneBlocks } from '../card-tables.ts';
import { loadCardPlan, snapshotOf, type CardRow } from '../lifecycle/card-service.ts';
import { transition, type CardAction, type CardPlan, type StateActionType, type ZoneTarget } from '../lifecycle/engine.ts';
import { labelFitsCard, labelsForBatch, type BatchLabel } from './labels.ts';
import { isPoolBatch, poolForBatch, poolNames, poolVerdict, type BatchPool } from '../../pool/pool-members.ts';
import { isSmsBatch, smsBatchParams, smsGatewayOperators, smsVerdict } from '../../sms/batch.ts';

const { BatchType, BatchVerdict, BATCH_TYPE_PERMS } = batch;
type Params = BodyOf<typeof batch.validateBatch>['params'];

/** A batch's operation, checked and normalised; stored as the batch's params (names kept for the screens). */
export interface BatchOp {
  type: number;
  action?: StateActionType;
  goodsReleaseId?: number;
  planName?: string;
  zoneOp?: 'block' | 'permit';
  targetKind?: 'zone' | 'network';
  targetId?: number;
  targetName?: string;
  labelOp?: 'add' | 'remove' | 'replace';
  labelIds?: number[];
  labelNames?: string[];
  /** pool join / leave */
  poolId?: number;
  poolName?: string;
  /** batch SMS: the message and its encoding (docs/sms.md) */
  content?: string;
  encoding?: number;
  reason?: string;
}

export interface Verdict {
  verdict: number;
  code?: ErrorCode;
  params?: Record<string, string | number>;
  /** parameters that differ by language (e.g. a state's label) */
  localParams?: { zh: Record<string, string | number>; en: Record<string, string | number> };
}

export const reasonOf = (v: Verdict) =>
  v.code === undefined ? { zh: null, en: null }
    : { zh: errorMessage(v.code, 'zh', v.localParams?.zh ?? v.params), en: errorMessage(v.code, 'en', v.localParams?.en ?? v.params) };

/** The caller may run batches of this type (any one of the type's codes). */
export function mayRun(actor: Actor, type: number): boolean {
  return (BATCH_TYPE_PERMS[type] ?? []).some((p) => actor.permissions.has(p));
}

/** The caller may see batches of this type: those it may run, and pool changes with the pool page code (2060000). */
export function mayView(actor: Actor, type: number): boolean {
  return mayRun(actor, type) || (batch.POOL_BATCH_TYPES.includes(type) && actor.permissions.has(batch.BatchPerm.Pools));
}

const need = (field: string, zh: string, en: string) => new FieldError(`params.${field}`, { zh, en });

/** Checks the parameters of a new batch for its type; answers the normalised operation. */
export async function checkParams(ex: Executor, p: Params, actor: Actor): Promise<BatchOp> {
  if (!BatchType.has(p.type)) throw need('type', '不支持的操作类型', 'is not a batch type');
  if (!mayRun(actor, p.type)) throw denied();
  const reason = p.reason?.trim() || undefined;
  switch (p.type) {
    case BatchType.StatusChange:
    case BatchType.StandardCard:
      if (!p.action) throw need('action', '请选择要执行的状态操作', 'choose the status action');
      return { type: p.type, action: p.action, reason };
    case BatchType.PlanChange: {
      if (!p.goodsReleaseId) throw need('goodsReleaseId', '请选择套餐', 'choose the plan');
      const plan = await visibleBasicPlan(ex, p.goodsReleaseId, actor);
      if (!plan) throw new AppError(ErrorCode.BatchPlanUnknown);
      if (!BASE_TARIFFS.includes(plan.tariffType)) throw need('goodsReleaseId', '只能变更为基础套餐，不能选择加油包等补充包', 'must be a basic plan, not a supplementary pack');
      return { type: p.type, goodsReleaseId: plan.goodsReleaseId, planName: plan.name, reason };
    }
    case BatchType.Zone: {
      if (!p.zoneOp) throw need('zoneOp', '请选择限制或放开', 'choose block or permit');
      if (!p.targetKind) throw need('targetKind', '请选择区域或网络', 'choose a zone or a network');
      if (!p.targetId) throw need('targetId', '请选择要限制或放开的对象', 'choose what to block or permit');
      let targetName: string;
      if (p.targetKind === 'network') {
        if (!NetworkType.has(p.targetId)) throw need('targetId', '不是有效的网络类型', 'is not a network type');
        targetName = NetworkType.label(p.targetId, 'en');
      } else {
        const [zone] = await ex.select().from(planZones).where(eq(planZones.zoneId, p.targetId));
        if (!zone || !(await visibleBasicPlan(ex, zone.goodsReleaseId, actor))) throw need('targetId', '区域不存在', 'no such zone');
        targetName = zone.zoneName;
      }
      return { type: p.type, zoneOp: p.zoneOp, targetKind: p.targetKind, targetId: p.targetId, targetName, reason };
    }
    case BatchType.Labels: {
      if (!p.labelOp) throw need('labelOp', '请选择添加、移除或替换', 'choose add, remove or replace');
      const ids = [...new Set(p.labelIds ?? [])];
      if (!ids.length && p.labelOp !== 'replace') throw need('labelIds', '请选择标签', 'choose at least one label');
      const labels = await labelsForBatch(ex, ids, actor);
      const missing = ids.filter((id) => !labels.has(id));
      if (missing.length) throw new AppError(ErrorCode.BatchLabelUnknown, { ids: missing.join(', ') });
      return { type: p.type, labelOp: p.labelOp, labelIds: ids, labelNames: ids.map((id) => labels.get(id)!.name), reason };
    }
    case BatchType.DataRecovery:
      return { type: p.type, reason };
    case BatchType.PoolJoin:
    case BatchType.PoolLeave: {
      if (!p.poolId) throw need('poolId', '请选择流量池', 'choose the pool');
      const pool = await poolForBatch(ex, p.poolId, actor);
      if (!pool) throw new AppError(ErrorCode.PoolNotFound);
      return { type: p.type, poolId: pool.poolId, poolName: pool.name, reason };
    }
    case BatchType.Sms:
      return { type: p.type, ...smsBatchParams(p.content), reason };
    default:
      throw need('type', '不支持的操作类型', 'is not a batch type');
  }
}

/** The engine's zone target of a zone batch. */
export const zoneTarget = (op: BatchOp): ZoneTarget => ({ kind: op.targetKind!, id: op.targetId! });

/** Zone of a plan: the plan it belongs to (a card on another plan cannot have it blocked or permitted). */
async function zonePlanOf(ex: Executor, zoneId: number): Promise<number | null> {
  const [z] = await ex.select({ plan: planZones.goodsReleaseId }).from(planZones).where(eq(planZones.zoneId, zoneId));
  return z?.plan ?? null;
}

/**
 * Classifies cards for a batch without changing anything: the engine's `transition()` on each card's snapshot
 * says whether the action is legal (valid), refused (invalid, with the engine's message) or a no-op (already).
 * `prepare` loads what a chunk of cards needs at once (zone blocks, label owners).
 */
export class Classifier {
  private plan: CardPlan | null = null;
  private zonePlan: number | null = null;
  private labels: Map<number, BatchLabel> | null = null;
  private pool: BatchPool | null = null;
  /** batch SMS: the operators whose cards have an access configuration to send through */
  private smsGateways = new Set<number>();
  private poolNames = new Map<number, string>();
  private blocked = new Set<string>();
  /** plans of the chunk's cards with a pending price change (the engine's snapshot needs it) */
  private pricePending: ReadonlySet<number> = new Set();

  private constructor(
    private op: BatchOp,
    private actor: Actor,
    private now: Date,
  ) {}

  static async create(ex: Executor, op: BatchOp, actor: Actor, now = new Date()): Promise<Classifier> {
    const c = new Classifier(op, actor, now);
    if (op.type === BatchType.PlanChange) c.plan = await loadCardPlan(ex, op.goodsReleaseId!);
    if (op.type === BatchType.Zone && op.targetKind === 'zone') c.zonePlan = await zonePlanOf(ex, op.targetId!);
    if (op.type === BatchType.Labels) c.labels = await labelsForBatch(ex, op.labelIds ?? [], actor);
    if (isPoolBatch(op.type)) {
      c.pool = await poolForBatch(ex, op.poolId ?? 0, actor);
      if (!c.pool) throw new AppError(ErrorCode.PoolNotFound);
    }
    if (isSmsBatch(op.type)) c.smsGateways = await smsGatewayOperators(ex);
    return c;
  }

  /** Loads the per-card facts of a chunk in one query each (pending price changes of their plans, zone blocks, names of their pools). */
  async prepare(ex: Executor, iccids: string[], cardRows: Pick<CardRow, 'poolId' | 'goodsReleaseId'>[] = []): Promise<void> {
    this.blocked.clear();
    this.pricePending = await plansWithPendingPriceChange(ex, cardRows.map((r) => r.goodsReleaseId));
    if (isPoolBatch(this.op.type)) this.poolNames = await poolNames(ex, cardRows.map((r) => r.poolId));
    if (this.op.type !== BatchType.Zone || !iccids.length) return;
    const rows = await ex
      .select({ iccid: cardZoneBlocks.iccid })
      .from(cardZoneBlocks)
      .where(and(inArray(cardZoneBlocks.iccid, iccids), eq(cardZoneBlocks.kind, this.op.targetKind!), eq(cardZoneBlocks.targetId, this.op.targetId!)));
    for (const r of rows) this.blocked.add(r.iccid);
  }

  /** The verdict on one visible card (a card outside the caller's tenant is classified "not found" before this). */
  async classify(ex: Executor, row: CardRow): Promise<Verdict> {
    const op = this.op;
    const valid: Verdict = { verdict: BatchVerdict.Valid };
    if (op.type === BatchType.Labels) return this.classifyLabels(row);
    if (isPoolBatch(op.type)) return poolVerdict(op.type, this.pool!, row, this.poolNames);
    if (isSmsBatch(op.type)) return smsVerdict(row, this.smsGateways);
    if (op.type === BatchType.StandardCard && row.operationMode === PlanOperationMode.Professional) {
      return { verdict: BatchVerdict.Invalid, code: ErrorCode.BatchStandardOnly };
    }
    if (op.type === BatchType.Zone && op.targetKind === 'zone' && row.goodsReleaseId !== this.zonePlan) {
      return { verdict: BatchVerdict.Invalid, code: ErrorCode.BatchZoneNotInPlan };
    }
    const action = this.engineAction();
    const res = transition(await snapshotOf(ex, row, this.pricePending), action, this.now);
    if (!res.ok) {
      const already = res.error === ErrorCode.CardAlreadyInState || res.error === ErrorCode.CardPlanChangeSamePlan;
      return { verdict: already ? BatchVerdict.Already : BatchVerdict.Invalid, code: res.error, params: res.params };
    }
    if (op.type === BatchType.Zone) {
      const isBlocked = this.blocked.has(row.iccid);
      if (op.zoneOp === 'block' && isBlocked) return { verdict: BatchVerdict.Already, code: ErrorCode.BatchZoneAlreadyBlocked };
      if (op.zoneOp === 'permit' && !isBlocked) return { verdict: BatchVerdict.Already, code: ErrorCode.BatchZoneNotBlocked };
    }
    return valid;
  }

  /** The engine action a card of this batch is checked against (data recovery: the network reset it ends with). */
  private engineAction(): CardAction {
    const op = this.op;
    switch (op.type) {
      case BatchType.PlanChange:
        return { type: 'changePlan', plan: this.plan! };
      case BatchType.Zone:
        return { type: op.zoneOp!, target: zoneTarget(op) };
      case BatchType.DataRecovery:
        return { type: 'networkReset' };
      default:
        return { type: op.action! };
    }
  }

  private classifyLabels(row: CardRow): Verdict {
    const next = nextLabels(row.labelIds, this.op);
    // a customer's label goes only on cards of that customer's tenant
    for (const id of this.op.labelOp === 'remove' ? [] : (this.op.labelIds ?? [])) {
      const label = this.labels!.get(id);
      if (label && !labelFitsCard(label, row)) {
        return { verdict: BatchVerdict.Invalid, code: ErrorCode.BatchLabelUnknown, params: { ids: String(id) } };
      }
    }
    if (sameSet(next, row.labelIds)) return { verdict: BatchVerdict.Already, code: ErrorCode.BatchLabelsUnchanged };
    if (next.length > batch.BATCH_LABELS_MAX) return { verdict: BatchVerdict.Invalid, code: ErrorCode.BatchLabelsTooMany, params: { max: batch.BATCH_LABELS_MAX } };
    return { verdict: BatchVerdict.Valid };
  }
}

/** The label ids a card ends with. */
export function nextLabels(current: readonly number[], op: Pick<BatchOp, 'labelOp' | 'labelIds'>): number[] {
  const ids = op.labelIds ?? [];
  if (op.labelOp === 'replace') return [...new Set(ids)].sort((a, b) => a - b);
  if (op.labelOp === 'remove') return current.filter((id) => !ids.includes(id));
  return [...new Set([...current, ...ids])].sort((a, b) => a - b);
}

const sameSet = (a: readonly number[], b: readonly number[]) => {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
};

/** The SQL expression giving a card's new label_ids (set-based, one UPDATE per chunk). */
export function labelsSql(op: BatchOp) {
  const ids = sql.param(op.labelIds ?? []);
  if (op.labelOp === 'replace') return sql`(select coalesce(array_agg(distinct x order by x), '{}') from unnest(${ids}::int[]) x)`;
  if (op.labelOp === 'remove') return sql`(select coalesce(array_agg(x), '{}') from unnest(label_ids) x where x <> all(${ids}::int[]))`;
  return sql`(select coalesce(array_agg(distinct x order by x), '{}') from unnest(label_ids || ${ids}::int[]) x)`;
}
