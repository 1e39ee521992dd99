import { Type } from '@sinclair/typebox';
import { endpoint, Obj, Page, PageParams, Nullable, ExportTaskCreated } from './endpoint.ts';
import { defineEnum } from '../enums/define.ts';
import { Perm } from '../permissions.ts';

/*
 * Data pools (流量池, spec §2 Card: /card/pool/list, /detail/:poolId, /blockhistory/:poolId, /change/list,
 * /change/fail-log/:batchId; §3 SIM card "pool id"; permission codes 2060000 page, 2060001 add pool).
 *
 * A pool belongs to one customer and one operator. Its member cards share their data: the pool's quota in a
 * cycle is the sum of its members' basic plan quotas, its usage the sum of their usage in the operator's billing
 * period (China Unicom's starts on the 26th). A card is in at most one pool; it may join a pool of its own
 * customer's tenant on its own operator (the same tenant rule as labels: a first-level customer's pool takes
 * the cards of its whole tree, a second-level customer's pool only its own). While a card is in a pool its own
 * plan's use-up action does not apply: the pool's does. When the pool's usage passes its quota and the pool's
 * action is "block", the pool is blocked and none of its cards gets data until the next cycle (or until it is
 * unblocked, or cards join and lift the quota above the usage). Every block and unblock is kept in the
 * pool's block history. Cards join and leave pools through batches (batch.ts types 7 and 8): validated first,
 * then run as a durable job; the pool change screens list those batches and their failures.
 */

const tag = 'pool';

export const PoolPerm = {
  /** Card › Pools page: see pools, their cards, usage, block history and changes */
  Pools: Perm.Pool,
  /** its button "Add pool": create, edit, delete, block / unblock pools and move cards in and out */
  PoolManage: 2060001,
  CardList: Perm.CardList,
} as const;
const P = PoolPerm;

export const PoolState = defineEnum({
  Normal: { value: 1, zh: '正常', en: 'Normal' },
  Blocked: { value: 2, zh: '已阻断', en: 'Blocked' },
});

/** What happens when a cycle's usage passes the pool's quota. */
export const PoolExhaustAction = defineEnum({
  Block: { value: 1, zh: '阻断池内所有卡（至下个周期）', en: 'Block every card of the pool (until the next cycle)' },
  Continue: { value: 2, zh: '继续使用（超出部分按超额计费）', en: 'Keep using (the excess is billed as overage)' },
});

/** The events of a pool's block history. */
export const PoolEventType = defineEnum({
  QuotaBlocked: { value: 1, zh: '额度用尽阻断', en: 'Blocked: quota used up' },
  ManualBlocked: { value: 2, zh: '手动阻断', en: 'Blocked manually' },
  CycleUnblocked: { value: 3, zh: '新周期解除阻断', en: 'Unblocked: new cycle' },
  ManualUnblocked: { value: 4, zh: '手动解除阻断', en: 'Unblocked manually' },
  QuotaUnblocked: { value: 5, zh: '额度增加解除阻断', en: 'Unblocked: quota raised' },
  ThresholdReached: { value: 6, zh: '用量达到提醒阈值', en: 'Usage reached the alert threshold' },
});

export const POOL_NAME_MAX = 64;
export const POOL_DESCRIPTION_MAX = 200;
export const POOL_REASON_MAX = 200;
/** Cards one pool may hold. */
export const POOL_CARDS_MAX = 100_000;
/** Pools offered in pickers (the card list's pool filter). */
export const POOL_OPTIONS_MAX = 2000;
export const POOL_ALERT_DEFAULT = 80;

export const Pool = Type.Object({
  poolId: Type.Integer(),
  name: Type.String(),
  custId: Type.Integer(),
  custName: Nullable(Type.String()),
  operatorId: Type.Integer(),
  exhaustAction: Type.Integer(),
  /** usage share (percent of the quota) at which the pool's alert is recorded once per cycle */
  alertPercent: Type.Integer(),
  description: Nullable(Type.String()),
  state: Type.Integer(),
  memberCount: Type.Integer(),
  /** the current cycle (the operator's billing period) */
  cycleStart: Nullable(Type.String()),
  cycleEnd: Nullable(Type.String()),
  /** sum of the members' plan quotas, bytes (members without a quota add nothing) */
  quotaBytes: Type.Number(),
  /** the members' usage in the current cycle, bytes, as of usageCheckedAt */
  usedBytes: Type.Number(),
  usageCheckedAt: Nullable(Type.String()),
  blockedAt: Nullable(Type.String()),
  createdBy: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const PoolCard = Type.Object({
  iccid: Type.String(),
  msisdn: Nullable(Type.String()),
  state: Type.Integer(),
  custId: Nullable(Type.Integer()),
  custName: Nullable(Type.String()),
  goodsReleaseId: Nullable(Type.Integer()),
  planName: Nullable(Type.String()),
  /** what the card adds to the pool's quota (its plan's quota), bytes; null without a quota */
  quotaBytes: Nullable(Type.Number()),
  /** the card's usage in the pool's current cycle, bytes */
  usedBytes: Type.Number(),
  online: Type.Boolean(),
  joinedAt: Nullable(Type.String()),
});

export const PoolEvent = Type.Object({
  eventId: Type.Integer(),
  type: Type.Integer(),
  usedBytes: Nullable(Type.Number()),
  quotaBytes: Nullable(Type.Number()),
  memberCount: Nullable(Type.Integer()),
  reason: Nullable(Type.String()),
  /** the login name, or the rule that acted ("pool-usage") */
  actor: Type.String(),
  at: Type.String(),
});

const PoolId = Type.Integer({ minimum: 1 });
const DateOnly = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' });

export const PoolFilters = {
  /** part of the name */
  name: Type.Optional(Type.String({ maxLength: POOL_NAME_MAX })),
  /** staff: a customer (with its second-level customers); customers: one of their own tree */
  custId: Type.Optional(Type.Integer()),
  operatorId: Type.Optional(Type.Integer()),
  state: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })),
  /** the sales order of the route /card/pool/list/:salesOrder? (kept for the URL, not a filter yet) */
  salesOrder: Type.Optional(Type.String({ maxLength: 64 })),
};

export const getPoolPage = endpoint({
  name: 'core/sim/pool/getPoolPage', method: 'POST', auth: 'session', perm: [P.Pools], kind: 'query', tag,
  summary: {
    zh: '流量池列表：按名称、客户、运营商、状态查询；含成员卡数、本周期额度与用量（仅本租户）',
    en: 'Pools: search by name, customer, operator, state; with member count and this cycle\'s quota and usage (own tenant only)',
  },
  body: Obj({ ...PageParams, ...PoolFilters }),
  response: Page(Pool),
});

export const exportPools = endpoint({
  name: 'core/sim/pool/exportPools', method: 'POST', auth: 'session', perm: [P.Pools], kind: 'mutation', tag,
  summary: { zh: '导出流量池列表（下载任务）', en: 'Export the pools (download task)' },
  body: Obj({ ...PoolFilters, format: Type.Optional(Type.Integer()) }),
  response: ExportTaskCreated,
});

export const getPoolOptions = endpoint({
  name: 'core/sim/pool/getPoolOptions', method: 'POST', auth: 'session', perm: [P.Pools, P.CardList], kind: 'query', tag,
  summary: { zh: '可选流量池（卡列表筛选用，按名称）', en: 'Pools to pick from (card list filter), by name' },
  body: Obj({ operatorId: Type.Optional(Type.Integer()), custId: Type.Optional(Type.Integer()) }),
  response: Type.Array(Type.Object({ poolId: Type.Integer(), name: Type.String(), operatorId: Type.Integer(), custId: Type.Integer() })),
});

export const getPoolDetail = endpoint({
  name: 'core/sim/pool/getPoolDetail', method: 'POST', auth: 'session', perm: [P.Pools], kind: 'query', tag,
  summary: { zh: '流量池详情', en: 'A pool' },
  body: Obj({ poolId: PoolId }),
  response: Pool,
});

export const savePool = endpoint({
  name: 'core/sim/pool/savePool', method: 'POST', auth: 'session', perm: [P.PoolManage], kind: 'mutation', tag,
  summary: {
    zh: '新增或编辑流量池（无 poolId 为新增）；已有成员卡的流量池不能更改客户或运营商',
    en: 'Create or edit a pool (no poolId: create); a pool with member cards keeps its customer and operator',
  },
  body: Obj({
    poolId: Type.Optional(PoolId),
    name: Type.String({ minLength: 1, maxLength: POOL_NAME_MAX }),
    /** staff: required; customers: their own customer or one of their second-level customers (default: their own) */
    custId: Type.Optional(Type.Integer({ minimum: 1 })),
    operatorId: Type.Integer({ minimum: 1 }),
    exhaustAction: Type.Integer({ minimum: 1, maximum: 2 }),
    alertPercent: Type.Integer({ minimum: 1, maximum: 100 }),
    description: Type.Optional(Type.String({ maxLength: POOL_DESCRIPTION_MAX })),
  }),
  response: Pool,
});

export const deletePool = endpoint({
  name: 'core/sim/pool/deletePool', method: 'POST', auth: 'session', perm: [P.PoolManage], kind: 'mutation', tag,
  summary: { zh: '删除流量池（池内没有卡时）', en: 'Delete a pool (only when it holds no cards)' },
  body: Obj({ poolId: PoolId }),
  response: Type.Null(),
});

export const blockPool = endpoint({
  name: 'core/sim/pool/blockPool', method: 'POST', auth: 'session', perm: [P.PoolManage], kind: 'mutation', tag,
  summary: { zh: '手动阻断流量池：池内所有卡停止上网，直到手动解除', en: 'Block a pool by hand: none of its cards gets data until it is unblocked' },
  body: Obj({ poolId: PoolId, reason: Type.Optional(Type.String({ maxLength: POOL_REASON_MAX })) }),
  response: Pool,
});

export const unblockPool = endpoint({
  name: 'core/sim/pool/unblockPool', method: 'POST', auth: 'session', perm: [P.PoolManage], kind: 'mutation', tag,
  summary: {
    zh: '解除流量池阻断；本周期用量已超过额度且动作为阻断时被拒绝',
    en: 'Unblock a pool; refused while this cycle\'s usage is above the quota and the pool\'s action is to block',
  },
  body: Obj({ poolId: PoolId, reason: Type.Optional(Type.String({ maxLength: POOL_REASON_MAX })) }),
  response: Pool,
});

export const refreshPoolUsage = endpoint({
  name: 'core/sim/pool/refreshUsage', method: 'POST', auth: 'session', perm: [P.Pools], kind: 'mutation', tag,
  summary: {
    zh: '立即重新统计流量池本周期的额度与用量（并按规则阻断或解除）',
    en: 'Count the pool\'s quota and usage of this cycle now (and block or unblock it by its rule)',
  },
  body: Obj({ poolId: PoolId }),
  response: Pool,
});

export const getPoolCardPage = endpoint({
  name: 'core/sim/pool/getPoolCardPage', method: 'POST', auth: 'session', perm: [P.Pools], kind: 'query', tag,
  summary: { zh: '流量池的成员卡：每张卡的额度贡献与本周期用量', en: 'A pool\'s cards: what each adds to the quota and used this cycle' },
  body: Obj({
    ...PageParams,
    poolId: PoolId,
    /** ICCID prefix */
    iccid: Type.Optional(Type.String({ maxLength: 20, pattern: '^[0-9]*$' })),
    state: Type.Optional(Type.Integer()),
  }),
  response: Page(PoolCard),
});

export const getPoolEventPage = endpoint({
  name: 'core/sim/pool/getBlockHistory', method: 'POST', auth: 'session', perm: [P.Pools], kind: 'query', tag,
  summary: { zh: '流量池阻断记录（阻断、解除、阈值提醒），新的在前', en: 'A pool\'s block history (blocks, unblocks, threshold alerts), newest first' },
  body: Obj({
    ...PageParams,
    poolId: PoolId,
    types: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 6 }), { maxItems: 6 })),
    from: Type.Optional(DateOnly),
    to: Type.Optional(DateOnly),
  }),
  response: Page(PoolEvent),
});
