import { defineEnum } from './define.ts';

/** Super SIM (超级 SIM, /card/dsimlist, 2090000; docs/super-sim.md): how a strategy decides to switch operator. */
export const DsimRuleType = defineEnum({
  /** params.minutes: no data session on the current operator for N minutes → the next member operator */
  NoSession: { value: 1, zh: '当前运营商 N 分钟无会话', en: 'No session on the current operator for N minutes' },
  /** params.operatorOrder: operator ids cheapest first → the cheapest member operator */
  Cost: { value: 2, zh: '按资费成本', en: 'Cost' },
  /** params.minSignal (dBm): the vendor platform's signal of the current profile below it → the member with the best signal */
  Signal: { value: 3, zh: '按信号强度', en: 'Signal' },
});

/** Why a super SIM switched operator. */
export const DsimSwitchReason = defineEnum({
  Manual: { value: 1, zh: '手动切换', en: 'Manual' },
  Strategy: { value: 2, zh: '策略切换', en: 'Strategy' },
});

/** A switch request's outcome at the super SIM vendor platform (over the air). */
export const DsimSwitchState = defineEnum({
  Requested: { value: 1, zh: '切换中', en: 'Requested' },
  Succeeded: { value: 2, zh: '切换成功', en: 'Succeeded' },
  Failed: { value: 3, zh: '切换失败', en: 'Failed' },
});
