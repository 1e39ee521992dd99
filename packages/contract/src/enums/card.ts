// Enums of the card area (issue 5): SIM card lifecycle, spec §3 and §4.
// Operation mode and renewal mode of a card reuse the plan's enums: PlanOperationMode and PlanRenewalMode
// (packages/contract/src/enums/plan.ts).
import { defineEnum } from './define.ts';

/** Card lifecycle states (spec §4). Only the card lifecycle engine (server modules/card/lifecycle.ts) changes them. */
export const CardState = defineEnum({
  Start: { value: 60, zh: '初始', en: 'Start' },
  Test: { value: 61, zh: '测试期', en: 'Test' },
  ActivationReady: { value: 62, zh: '待激活', en: 'Activation ready' },
  Inventory: { value: 63, zh: '库存期', en: 'Inventory' },
  Activated: { value: 64, zh: '已激活', en: 'Activated' },
  Deactivated: { value: 65, zh: '已停机', en: 'Deactivated' },
  Invalidated: { value: 66, zh: '已失效', en: 'Invalidated' },
  Retired: { value: 67, zh: '已销户', en: 'Retired' },
  Frozen: { value: 68, zh: '强制停机', en: 'Forced shutdown' },
});
export type CardStateValue = (typeof CardState.values)[number];

/** The five states of the professional version (spec §4 FAQ). */
export const PROFESSIONAL_CARD_STATES: readonly number[] = [
  CardState.Test, CardState.ActivationReady, CardState.Inventory, CardState.Activated, CardState.Deactivated,
];
/** States whose cards cannot have a QR code downloaded (spec §5): skipped with a message. */
export const QR_SKIPPED_CARD_STATES: readonly number[] = [CardState.Invalidated, CardState.Retired, CardState.Frozen];

/** Who or what caused a card change (recorded in the card's history). */
export const CardChangeSource = defineEnum({
  User: { value: 1, zh: '用户', en: 'User' },
  Rule: { value: 2, zh: '自动化规则', en: 'Automation rule' },
  Schedule: { value: 3, zh: '定时任务', en: 'Scheduled job' },
  Operator: { value: 4, zh: '运营商', en: 'Operator' },
});

/** What a card history entry did. */
export const CardActionKind = defineEnum({
  Activate: { value: 1, zh: '激活', en: 'Activate' },
  Deactivate: { value: 2, zh: '停机', en: 'Deactivate' },
  StartTest: { value: 3, zh: '开始测试', en: 'Start test' },
  EndTest: { value: 4, zh: '结束测试', en: 'End test' },
  ToInventory: { value: 5, zh: '转库存', en: 'To inventory' },
  ToActivationReady: { value: 6, zh: '转待激活', en: 'To activation ready' },
  Invalidate: { value: 7, zh: '失效', en: 'Invalidate' },
  Retire: { value: 8, zh: '销户', en: 'Retire' },
  Freeze: { value: 9, zh: '强制停机', en: 'Forced shutdown' },
  Unfreeze: { value: 10, zh: '解除强制停机', en: 'Lift forced shutdown' },
  TestExpired: { value: 11, zh: '测试期到期', en: 'Test period expired' },
  SilentExpired: { value: 12, zh: '库存期到期', en: 'Inventory period expired' },
  ContractRenewed: { value: 13, zh: '合约自动续订', en: 'Contract auto-renewed' },
  ContractEnded: { value: 14, zh: '合约到期', en: 'Contract ended' },
  PlanChangeScheduled: { value: 15, zh: '预约变更套餐', en: 'Plan change scheduled' },
  PlanChanged: { value: 16, zh: '变更套餐', en: 'Plan changed' },
  Renewed: { value: 17, zh: '续订周期', en: 'Renewed' },
  EventPackOrdered: { value: 18, zh: '订购加油包', en: 'Event pack ordered' },
  ZoneBlocked: { value: 19, zh: '区域限制', en: 'Zone blocked' },
  ZonePermitted: { value: 20, zh: '区域放开', en: 'Zone permitted' },
  ZoneReleased: { value: 21, zh: '释放区域', en: 'Zone released' },
  // allocation (card detail area): the card moved to another customer; the state is unchanged
  Allocated: { value: 30, zh: '划拨/分配', en: 'Allocated to a customer' },
});
