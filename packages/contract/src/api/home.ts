import { Type } from '@sinclair/typebox';
import { endpoint, Obj, Nullable } from './endpoint.ts';
import { Perm } from '../permissions.ts';
import { defineEnum } from '../enums/define.ts';

/*
 * Home overview, fleet health (issue 12): what a fleet manager checks first, for the signed-in tenant (staff: the
 * whole platform; a channel customer: its customer tree; a second-level customer: itself). Every number is a count of
 * cards the card list shows with the matching deep-link filter (CardListFilters quotaLevel, alertsFrom,
 * batchFailedFrom, failedBatchId), so opening a number lists exactly the cards it counted.
 */

const tag = 'home';

/** The share of a cycle's quota from which a card is "near quota" (spec-free product rule, docs/decisions.md). */
export const QUOTA_NEAR_PERCENT = 80;

/** Where a card stands against its quota this cycle: near = 80–100 % used, over = more than 100 %. */
export const QuotaLevel = defineEnum({
  Near: { value: 1, zh: '接近额度（≥80%）', en: 'Near quota (≥ 80 %)' },
  Over: { value: 2, zh: '超出额度', en: 'Over quota' },
});
/** The wire names of QuotaLevel in the card list's filter and URL. */
export const QUOTA_LEVEL_KEYS = { near: QuotaLevel.Near, over: QuotaLevel.Over } as const;
export type QuotaLevelKey = keyof typeof QUOTA_LEVEL_KEYS;

/** What the overview counts as an alert today (automation rules will add theirs when they land). */
export const HomeAlertKind = defineEnum({
  PoolThreshold: { value: 1, zh: '流量池用量达到提醒阈值', en: 'Pool usage reached its alert threshold' },
  PoolQuotaBlocked: { value: 2, zh: '流量池额度用尽，已阻断', en: 'Pool blocked: quota used up' },
  PoolManualBlocked: { value: 3, zh: '流量池被手动阻断', en: 'Pool blocked manually' },
  CardQuotaUsedUp: { value: 4, zh: '卡本周期额度用尽', en: 'Card used up its quota this cycle' },
  OperatorRefused: { value: 5, zh: '运营商拒绝了卡变更', en: 'Operator refused a card change' },
});

export const FleetScope = defineEnum({
  Platform: { value: 1, zh: '全平台', en: 'Whole platform' },
  Tree: { value: 2, zh: '本客户及其二级客户', en: 'Your customer and its second-level customers' },
  Customer: { value: 3, zh: '本客户', en: 'Your customer' },
});

/** "Recent" on the overview: alerts and batch failures of the last 7 China days, today included. */
export const HOME_RECENT_DAYS = 7;
/** How many alerts and failed batches the overview lists (the counts cover all of them). */
export const HOME_RECENT_LIMIT = 6;

const Count = Type.Integer({ minimum: 0 });
const DateOnly = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' });
const Uuid = Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' });

/**
 * The card list filters behind the overview's numbers (spread into CardListFilters): each one lists the cards a
 * number counted, in the caller's tenant.
 */
export const HomeCardFilters = {
  /** near: 80–100 % of this cycle's quota used; over: more than 100 % */
  quotaLevel: Type.Optional(Type.Union([Type.Literal('near'), Type.Literal('over')])),
  /** cards a recent alert is about (pool alerts: the pool's cards), from this China day on */
  alertsFrom: Type.Optional(DateOnly),
  /** cards that failed in a batch operation created from this China day on */
  batchFailedFrom: Type.Optional(DateOnly),
  /** cards that failed in this batch operation */
  failedBatchId: Type.Optional(Uuid),
};

export const HomeAlert = Type.Object({
  kind: Type.Integer(),
  at: Type.String(),
  /** pool alerts: the pool (its cards are what the alert is about) */
  poolId: Nullable(Type.Integer()),
  poolName: Nullable(Type.String()),
  /** card alerts: the card */
  iccid: Nullable(Type.String()),
  usedBytes: Nullable(Type.Number({ minimum: 0 })),
  quotaBytes: Nullable(Type.Number({ minimum: 0 })),
  /** operator refusals: the change refused (CardChangeType) and the operator's reason as it gave it */
  changeType: Nullable(Type.Integer()),
  reason: Nullable(Type.String()),
});

export const HomeBatchFailure = Type.Object({
  batchId: Type.String(),
  type: Type.Integer(),
  state: Type.Integer(),
  createdBy: Type.String(),
  createdAt: Type.String(),
  finishedAt: Nullable(Type.String()),
  validCount: Count,
  failedCount: Count,
});

export const FleetHealth = Type.Object({
  scope: Type.Integer(),
  /** cards in state Activated */
  activeCards: Count,
  /** cards with an open data session (the usage feed keeps this) */
  onlineNow: Count,
  nearQuota: Count,
  overQuota: Count,
  /** when near / over quota were counted; null until the first count (docs/home.md) */
  quotaCountedAt: Nullable(Type.String()),
  /** first China day (YYYY-MM-DD) of the recent window */
  since: Type.String(),
  alerts: Type.Object({
    /** cards the recent alerts are about (the card list's alertsFrom filter lists them) */
    cards: Count,
    events: Count,
    list: Type.Array(HomeAlert),
  }),
  batchFailures: Type.Object({
    /** cards that failed in a recent batch (the card list's batchFailedFrom filter lists them) */
    cards: Count,
    batches: Count,
    list: Type.Array(HomeBatchFailure),
  }),
});

export const getFleetHealth = endpoint({
  name: 'edge/homepage/fleetHealth', method: 'POST', auth: 'session', perm: [Perm.Home], kind: 'query', tag,
  summary: {
    zh: '首页：机队健康（已激活、在线、接近/超出额度、近期告警、近期批量失败），按登录者的租户统计',
    en: "Home: fleet health (active, online now, near / over quota, recent alerts, recent batch failures) in the caller's tenant",
  },
  body: Obj({}),
  response: FleetHealth,
});
