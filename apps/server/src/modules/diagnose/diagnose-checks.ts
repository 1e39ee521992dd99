// The checks of a card diagnosis, as pure functions of facts the service loaded: each answers a verdict, an
// explanation and a suggested action in both languages, and the facts it looked at. Thresholds are named here;
// docs/diagnosis.md describes them for users.
import { CardState, NetworkType, PlanUseUpAction, diagnose, formatDateTime, formatSizeFromMB, type Bilingual } from '@lynx/contract';
import type { Static } from '@sinclair/typebox';

export type DiagnoseCheck = Static<typeof diagnose.DiagnoseCheck>;
type Fact = DiagnoseCheck['facts'][number];
type ActionKind = DiagnoseCheck['actionKind'];
const V = diagnose.DiagnoseVerdict;

/** A test period ending sooner than this is a warning. */
export const TEST_END_WARNING_DAYS = 7;
/** Share of the cycle's quota used from which the quota check warns. */
export const QUOTA_WARNING_SHARE = 0.8;
/** An active card without any data session for longer than this is a warning (spec §9: sessions of 3 days are kept). */
export const SESSION_SILENCE_HOURS = 72;
const DAY = 86_400_000;

const t2 = (zh: string, en: string): Bilingual => ({ zh, en });
/** `YYYY-MM-DD HH:mm` in the business time zone (the calendar of the operators and customers). */
export function businessMinute(d: Date): string {
  return formatDateTime(d).slice(0, 16);
}

const fact = (key: string, label: Bilingual, kind: Fact['kind'], value: string | number | Date | boolean | null | undefined): Fact => ({
  key, label, kind,
  value: value == null ? null : value instanceof Date ? value.toISOString() : typeof value === 'boolean' ? (value ? 'true' : 'false') : String(value),
});

function check(
  key: DiagnoseCheck['key'], verdict: number, title: Bilingual, explanation: Bilingual, action: Bilingual | null, actionKind: ActionKind, facts: Fact[],
): DiagnoseCheck {
  return { key, verdict, title, explanation, action, actionKind: action ? actionKind : 'none', facts };
}

// ---- card state ---------------------------------------------------------------------------------------------------

export interface CardFacts {
  state: number;
  activatedAt: Date | null;
  firstUsedAt: Date | null;
  testEndAt: Date | null;
  silentEndAt: Date | null;
  online: boolean;
  lastSessionAt: Date | null;
  cycleStartAt: Date | null;
  cycleEndAt: Date | null;
  contractEndAt: Date | null;
}

const STATE_TITLE = t2('卡状态', 'Card state');

export function stateCheck(card: CardFacts, now: Date): DiagnoseCheck {
  const label = (lang: 'zh' | 'en') => CardState.label(card.state, lang);
  const facts = [
    fact('state', t2('状态', 'State'), 'state', card.state),
    fact('activatedAt', t2('激活时间', 'Activated'), 'datetime', card.activatedAt),
    fact('firstUsedAt', t2('首次使用时间', 'First used'), 'datetime', card.firstUsedAt),
  ];
  const activate = t2('如需立即使用，请将卡变更为“已激活”。', 'To use the card now, change its state to "Activated".');
  switch (card.state) {
    case CardState.Activated:
      return check('cardState', V.Ok, STATE_TITLE,
        t2(`卡已激活${card.activatedAt ? `（${businessMinute(card.activatedAt)} 起）` : ''}，网络服务已开通。`,
          `The card is activated${card.activatedAt ? ` (since ${businessMinute(card.activatedAt)})` : ''}; network service is open.`),
        null, 'none', facts);
    case CardState.Test: {
      facts.push(fact('testEndAt', t2('测试期结束', 'Test period ends'), 'datetime', card.testEndAt));
      const ending = card.testEndAt != null && card.testEndAt.getTime() - now.getTime() < TEST_END_WARNING_DAYS * DAY;
      const until = card.testEndAt ? businessMinute(card.testEndAt) : null;
      if (ending) {
        return check('cardState', V.Warning, STATE_TITLE,
          t2(`卡在测试期，测试期将于 ${until} 结束，之后进入库存期，不能再使用测试流量。`,
            `The card is in its test period, which ends on ${until}; then it enters the inventory period and test data stops.`),
          t2('需要继续使用，请在测试期结束前激活卡。', 'To keep using it, activate the card before the test period ends.'), 'changeStatus', facts);
      }
      return check('cardState', V.Ok, STATE_TITLE,
        t2(`卡在测试期，可以使用测试流量${until ? `，测试期至 ${until}` : ''}。`, `The card is in its test period and may use test data${until ? ` until ${until}` : ''}.`),
        null, 'none', facts);
    }
    case CardState.ActivationReady:
      return check('cardState', V.Warning, STATE_TITLE,
        t2('卡待激活：激活后才开通网络服务并开始计费周期。', 'The card is ready for activation: network service and the billing cycle start when it is activated.'),
        activate, 'changeStatus', facts);
    case CardState.Inventory: {
      facts.push(fact('silentEndAt', t2('库存期结束', 'Inventory period ends'), 'datetime', card.silentEndAt));
      const until = card.silentEndAt ? businessMinute(card.silentEndAt) : null;
      return check('cardState', V.Warning, STATE_TITLE,
        t2(`卡在库存期（沉默期）${until ? `，至 ${until} 自动激活` : '，需手动激活'}，期间不能使用网络。`,
          `The card is in its inventory (silent) period${until ? ` and is activated automatically on ${until}` : ' and waits for a manual activation'}; it has no network service meanwhile.`),
        activate, 'changeStatus', facts);
    }
    case CardState.Deactivated:
      return check('cardState', V.Problem, STATE_TITLE,
        t2('卡已停机：全部区域被限制，不能使用网络。', 'The card is deactivated: all its zones are blocked and it has no network service.'),
        t2('确认停机原因（欠费、客户要求等）已解决后，将卡变更为“已激活”。', 'Once the reason for the deactivation (arrears, customer request, …) is resolved, change the state to "Activated".'),
        'changeStatus', facts);
    case CardState.Frozen:
      return check('cardState', V.Problem, STATE_TITLE,
        t2('卡被强制停机，不能使用网络。', 'The card is in forced shutdown and has no network service.'),
        t2('由运营管理员核实原因后解除强制停机。', 'An operator manager checks the reason and lifts the forced shutdown.'), 'changeStatus', facts);
    default:
      return check('cardState', V.Problem, STATE_TITLE,
        t2(`卡状态为“${label('zh')}”，不能再使用网络。`, `The card is "${label('en')}" and can no longer use the network.`),
        t2('如需继续使用网络，请更换一张新卡。', 'To keep a device online, replace the card with a new one.'), 'contactOperator', facts);
  }
}

// ---- plan and quota -------------------------------------------------------------------------------------------------

export interface PlanFacts {
  name: string;
  quotaMb: number;
  useUpAction: number;
  overagePrice: string | null;
  apns: string[];
}
export interface UsageFacts {
  /** data used in the current cycle, MB */
  usedMb: number;
  /** quota of the event packs valid now, MB */
  packsMb: number;
}
export interface PendingPlan {
  name: string;
  effectiveAt: Date | null;
}

const PLAN_TITLE = t2('套餐与用量', 'Plan and usage');

export function planCheck(card: CardFacts, plan: PlanFacts | null, usage: UsageFacts, pending: PendingPlan | null, now: Date): DiagnoseCheck {
  if (!plan) {
    return check('planQuota', V.Problem, PLAN_TITLE,
      t2('卡没有套餐，不能计费，也不能使用数据服务。', 'The card has no plan: it cannot be billed and has no data service.'),
      t2('在卡详情中为卡订购或变更套餐。', 'Order or change a plan for the card on its detail page.'), 'changePlan', []);
  }
  const quota = plan.quotaMb + usage.packsMb;
  const share = quota > 0 ? usage.usedMb / quota : 0;
  const facts = [
    fact('plan', t2('套餐', 'Plan'), 'text', plan.name),
    fact('cycleStartAt', t2('本周期开始', 'Cycle starts'), 'datetime', card.cycleStartAt),
    fact('cycleEndAt', t2('本周期结束', 'Cycle ends'), 'datetime', card.cycleEndAt),
    fact('usedMb', t2('本周期已用', 'Used this cycle'), 'mb', Math.round(usage.usedMb * 100) / 100),
    fact('quotaMb', t2('套餐流量', 'Plan quota'), 'mb', plan.quotaMb),
    ...(usage.packsMb > 0 ? [fact('packsMb', t2('加油包流量', 'Event packs'), 'mb', usage.packsMb)] : []),
    ...(quota > 0 ? [fact('usedShare', t2('已用比例', 'Used share'), 'percent', Math.round(share * 1000) / 10)] : []),
    fact('contractEndAt', t2('合约到期', 'Contract ends'), 'datetime', card.contractEndAt),
    ...(pending ? [fact('pendingPlan', t2('待生效套餐', 'Pending plan'), 'text', pending.effectiveAt ? `${pending.name} @ ${businessMinute(pending.effectiveAt)}` : pending.name)] : []),
  ];
  const inCycle = card.cycleStartAt != null && card.cycleEndAt != null && card.cycleStartAt <= now && now < card.cycleEndAt;
  if (!inCycle) {
    if (card.state === CardState.Activated) {
      return check('planQuota', V.Problem, PLAN_TITLE,
        t2(`卡已激活，但套餐“${plan.name}”没有有效周期（合约已到期或未开始）。`, `The card is activated but its plan "${plan.name}" has no valid cycle (the contract has ended or not started).`),
        t2('在卡详情中续订周期。', 'Renew the cycle on the card detail page.'), 'renew', facts);
    }
    return check('planQuota', V.Ok, PLAN_TITLE,
      t2(`套餐“${plan.name}”，计费周期在卡激活后开始。`, `Plan "${plan.name}"; the billing cycle starts when the card is activated.`), null, 'none', facts);
  }
  const used = formatSizeFromMB(usage.usedMb);
  const of = formatSizeFromMB(quota);
  const end = businessMinute(card.cycleEndAt!);
  if (quota > 0 && share >= 1) {
    if (plan.useUpAction === PlanUseUpAction.Overdraw) {
      return check('planQuota', V.Warning, PLAN_TITLE,
        t2(`本周期已用 ${used}，超出套餐流量 ${of}；超出部分按套餐超额单价${plan.overagePrice != null ? ` ${plan.overagePrice} 元` : ''}计费。`,
          `${used} used this cycle, beyond the quota of ${of}; the excess is billed at the plan's overage price${plan.overagePrice != null ? ` (CNY ${plan.overagePrice})` : ''}.`),
        t2('订购加油包，或变更为流量更大的套餐。', 'Order an event pack, or change to a plan with a larger quota.'), 'orderEventPack', facts);
    }
    const what = PlanUseUpAction.label(plan.useUpAction, 'zh');
    return check('planQuota', V.Problem, PLAN_TITLE,
      t2(`本周期流量已用尽（${used} / ${of}），按套餐规则“${what}”，数据服务受限至 ${end}。`,
        `This cycle's data is used up (${used} of ${of}); by the plan's rule "${PlanUseUpAction.label(plan.useUpAction, 'en')}" data is restricted until ${end}.`),
      t2(`订购加油包，或等待本周期结束（${end}）。`, `Order an event pack, or wait for the cycle to end (${end}).`), 'orderEventPack', facts);
  }
  if (quota > 0 && share >= QUOTA_WARNING_SHARE) {
    return check('planQuota', V.Warning, PLAN_TITLE,
      t2(`本周期已用 ${used}，占流量 ${of} 的 ${(share * 100).toFixed(1)}%，周期至 ${end}。`,
        `${used} used this cycle, ${(share * 100).toFixed(1)}% of ${of}; the cycle ends on ${end}.`),
      t2('关注用量，必要时订购加油包。', 'Watch the usage and order an event pack if needed.'), 'orderEventPack', facts);
  }
  return check('planQuota', V.Ok, PLAN_TITLE,
    quota > 0
      ? t2(`套餐“${plan.name}”：本周期已用 ${used} / ${of}，周期至 ${end}。`, `Plan "${plan.name}": ${used} of ${of} used this cycle, which ends on ${end}.`)
      : t2(`套餐“${plan.name}”不限流量，本周期已用 ${used}，周期至 ${end}。`, `Plan "${plan.name}" has no quota limit; ${used} used this cycle, which ends on ${end}.`),
    null, 'none', facts);
}

// ---- zone, region and network limits ------------------------------------------------------------------------------

export interface ZoneBlockFacts {
  kind: 'zone' | 'region' | 'network';
  targetId: number;
  /** the zone's names in the plan (the English one, else as typed), when known */
  name: Bilingual | null;
  byDeactivation: boolean;
  blockedAt: Date;
  blockedBy: string | null;
}

const ZONE_TITLE = t2('区域限制', 'Zone limits');
const KIND = { zone: t2('区域', 'zone'), region: t2('地区', 'region'), network: t2('网络', 'network') } as const;
const KIND_LABEL = { zone: t2('区域', 'Zone'), region: t2('地区', 'Region'), network: t2('网络', 'Network') } as const;

function blockName(b: ZoneBlockFacts, lang: 'zh' | 'en'): string {
  if (b.name) return b.name[lang];
  if (b.kind === 'network' && NetworkType.has(b.targetId)) return NetworkType.label(b.targetId, lang);
  return `#${b.targetId}`;
}

export function zoneCheck(card: CardFacts, blocks: ZoneBlockFacts[], planZoneCount: number): DiagnoseCheck {
  const facts = blocks.map((b) =>
    fact(`${b.kind}:${b.targetId}`, t2(`${KIND_LABEL[b.kind].zh}：${blockName(b, 'zh')}`, `${KIND_LABEL[b.kind].en}: ${blockName(b, 'en')}`), 'datetime', b.blockedAt));
  if (blocks.length === 0) {
    return check('zoneLimits', V.Ok, ZONE_TITLE, t2('没有被限制的区域、地区或网络。', 'No zone, region or network is blocked.'), null, 'none', facts);
  }
  const byDeactivation = blocks.filter((b) => b.byDeactivation);
  if (card.state === CardState.Deactivated && byDeactivation.length > 0) {
    return check('zoneLimits', V.Problem, ZONE_TITLE,
      t2(`停机时限制了全部 ${byDeactivation.length} 个区域，激活后会自动放开。`,
        `The deactivation blocked all ${byDeactivation.length} zones; they are permitted again when the card is activated.`),
      t2('激活卡后区域自动放开。', 'Activate the card; its zones are permitted again.'), 'changeStatus', facts);
  }
  const list = (lang: 'zh' | 'en') => blocks.map((b) => `${blockName(b, lang)}（${KIND[b.kind][lang]}）`).join(lang === 'zh' ? '、' : ', ').replace(/（/g, lang === 'zh' ? '（' : ' (').replace(/）/g, lang === 'zh' ? '）' : ')');
  const zonesBlocked = blocks.filter((b) => b.kind === 'zone').length;
  const everywhere = planZoneCount > 0 && zonesBlocked >= planZoneCount;
  return check('zoneLimits', everywhere ? V.Problem : V.Warning, ZONE_TITLE,
    everywhere
      ? t2(`套餐的全部区域都被限制：${list('zh')}，卡在任何区域都不能使用数据。`, `Every zone of the plan is blocked: ${list('en')}; the card has no data anywhere.`)
      : t2(`以下被限制，卡在其中不能使用数据：${list('zh')}。`, `These are blocked and the card has no data in them: ${list('en')}.`),
    t2('如需恢复，在卡详情中放开相应的区域、地区或网络。', 'To restore service, permit them on the card detail page.'), 'permitZones', facts);
}

// ---- the last session and APN -------------------------------------------------------------------------------------

export interface SessionFacts {
  startedAt: Date;
  endedAt: Date | null;
  apn: string | null;
  bytes: number | null;
}

const SESSION_TITLE = t2('最近会话与 APN', 'Last session and APN');

export function sessionCheck(card: CardFacts, last: SessionFacts | null, recentCount: number | null, planApns: string[], now: Date): DiagnoseCheck {
  const lastAt = last ? (last.endedAt ?? last.startedAt) : card.lastSessionAt;
  const online = card.online || (last != null && last.endedAt == null);
  const facts = [
    fact('online', t2('在线', 'Online'), 'flag', online),
    fact('lastSessionAt', t2('最近会话时间', 'Last session'), 'datetime', lastAt),
    ...(last ? [
      fact('sessionStartedAt', t2('会话开始', 'Session started'), 'datetime', last.startedAt),
      fact('sessionApn', t2('会话 APN', 'Session APN'), 'text', last.apn),
      ...(last.bytes != null ? [fact('sessionMb', t2('会话流量', 'Session data'), 'mb', Math.round((last.bytes / 1_048_576) * 100) / 100)] : []),
    ] : []),
    ...(recentCount != null ? [fact('sessions3d', t2('近 3 天会话数', 'Sessions in 3 days'), 'number', recentCount)] : []),
    fact('planApns', t2('套餐 APN', 'Plan APNs'), 'text', planApns.length ? planApns.join(', ') : null),
  ];
  if (card.state !== CardState.Activated && card.state !== CardState.Test) {
    return check('session', V.Ok, SESSION_TITLE,
      t2('卡当前状态不使用网络，没有会话属正常。', 'In its current state the card does not use the network, so no session is expected.'), null, 'none', facts);
  }
  const apn = last?.apn ?? null;
  if (apn && planApns.length > 0 && !planApns.some((a) => a.toLowerCase() === apn.toLowerCase())) {
    return check('session', V.Problem, SESSION_TITLE,
      t2(`终端最近使用的 APN“${apn}”不属于套餐（${planApns.join('、')}），会话可能被拒绝或计费异常。`,
        `The device last used APN "${apn}", which is not one of the plan's (${planApns.join(', ')}); sessions may be refused or billed wrongly.`),
      t2(`将终端的 APN 设置为 ${planApns.join(' 或 ')}。`, `Set the device's APN to ${planApns.join(' or ')}.`), 'checkDevice', facts);
  }
  if (online) {
    const since = last && last.endedAt == null ? last.startedAt : null;
    return check('session', V.Ok, SESSION_TITLE,
      t2(`卡在线${since ? `，当前会话 ${businessMinute(since)} 开始` : ''}${apn ? `，APN ${apn}` : ''}。`,
        `The card is online${since ? `; the current session started at ${businessMinute(since)}` : ''}${apn ? ` on APN ${apn}` : ''}.`),
      null, 'none', facts);
  }
  if (!lastAt || now.getTime() - lastAt.getTime() > SESSION_SILENCE_HOURS * 3_600_000) {
    return check('session', V.Warning, SESSION_TITLE,
      lastAt
        ? t2(`卡超过 3 天没有数据会话（最近一次 ${businessMinute(lastAt)}）：终端可能关机、无信号或 APN 设置错误。`,
          `No data session for more than 3 days (last at ${businessMinute(lastAt)}): the device may be off, out of coverage or on a wrong APN.`)
        : t2('卡从未建立过数据会话：终端可能未开机、无信号或 APN 设置错误。', 'The card has never had a data session: the device may be off, out of coverage or on a wrong APN.'),
      t2(`检查终端供电和信号，确认 APN 为 ${planApns.join(' 或 ') || '套餐的 APN'}；仍无会话时做一次网络重置。`,
        `Check the device's power and signal and that its APN is ${planApns.join(' or ') || "the plan's APN"}; if there is still no session, reset the network.`),
      'networkReset', facts);
  }
  return check('session', V.Ok, SESSION_TITLE,
    t2(`卡当前离线，最近会话 ${businessMinute(lastAt)}${apn ? `（APN ${apn}）` : ''}，在 3 天内，属正常的间歇上网。`,
      `The card is offline; its last session was at ${businessMinute(lastAt)}${apn ? ` (APN ${apn})` : ''}, within 3 days, which is normal intermittent use.`),
    null, 'none', facts);
}

// ---- operator access and gateway ----------------------------------------------------------------------------------

export interface OperatorFacts {
  operatorId: number;
  operatorName: Bilingual;
  /** the access configuration the card's changes go through, or null when the operator has none */
  access: { lastTestAt: Date | null; lastTestOk: boolean | null; lastTestMessage: string | null; lastTestLatencyMs: number | null } | null;
  /** advanced diagnosis only: a live call to the gateway */
  live: { ok: true; latencyMs: number; platform: string; apiVersion: string } | { ok: false; latencyMs: number; message: string } | null;
  /** open (pending or retry failed) card change failures of this card */
  openFailures: number;
}

const OPERATOR_TITLE = t2('运营商连接', 'Operator connectivity');

export function operatorCheck(op: OperatorFacts, advanced: boolean): DiagnoseCheck {
  const name = op.operatorName;
  const facts = [
    fact('operator', t2('运营商', 'Operator'), 'operator', op.operatorId),
    fact('accessConfigured', t2('已有接入配置', 'Access configured'), 'flag', op.access != null),
    ...(op.access ? [
      fact('lastTestAt', t2('最近连接测试', 'Last connection test'), 'datetime', op.access.lastTestAt),
      ...(op.access.lastTestLatencyMs != null ? [fact('lastTestLatencyMs', t2('测试响应时间 (ms)', 'Test response time (ms)'), 'number', op.access.lastTestLatencyMs)] : []),
    ] : []),
    ...(op.live ? [fact('liveLatencyMs', t2('实时响应时间 (ms)', 'Live response time (ms)'), 'number', op.live.latencyMs)] : []),
    fact('openFailures', t2('未处理的变更失败', 'Open change failures'), 'number', op.openFailures),
  ];
  if (!op.access) {
    return check('operator', V.Warning, OPERATOR_TITLE,
      t2(`${name.zh}还没有接入配置：状态变更和网络重置只记录在平台，不会下发到运营商。`,
        `${name.en} has no access configuration: state changes and network resets are recorded on the platform but not sent to the operator.`),
      t2('请运营管理员在“运营商 › 接入配置”中添加该运营商的接入配置。', 'Ask an operator manager to add an access configuration for this operator (Operators › Access configuration).'),
      'accessConfig', facts);
  }
  if (op.live && !op.live.ok) {
    return check('operator', V.Problem, OPERATOR_TITLE,
      t2(`运营商网关实时检测失败：${op.live.message}`, `The live check of the operator gateway failed: ${op.live.message}`),
      t2('检查接入配置的地址和密钥；仍失败时联系运营商。', 'Check the address and keys of the access configuration; if it still fails, contact the operator.'),
      'accessConfig', facts);
  }
  if (op.openFailures > 0) {
    return check('operator', V.Warning, OPERATOR_TITLE,
      t2(`该卡有 ${op.openFailures} 条未处理的运营商变更失败记录，运营商侧的状态可能与平台不一致。`,
        `The card has ${op.openFailures} open change failure record(s): the operator's view of the card may differ from the platform's.`),
      t2('在“运营商 › 换卡失败记录”中重试或处理。', 'Retry or handle them under Operators › Card change failures.'), 'changeFailures', facts);
  }
  if (op.live?.ok) {
    return check('operator', V.Ok, OPERATOR_TITLE,
      t2(`运营商网关实时应答正常（${op.live.platform} ${op.live.apiVersion}，${op.live.latencyMs} ms）。`,
        `The operator gateway answers normally (${op.live.platform} ${op.live.apiVersion}, ${op.live.latencyMs} ms).`),
      null, 'none', facts);
  }
  if (op.access.lastTestOk === false) {
    return check('operator', V.Problem, OPERATOR_TITLE,
      t2(`接入配置最近一次连接测试失败${op.access.lastTestMessage ? `：${op.access.lastTestMessage}` : ''}。`,
        `The last connection test of the access configuration failed${op.access.lastTestMessage ? `: ${op.access.lastTestMessage}` : ''}.`),
      advanced
        ? t2('检查接入配置的地址和密钥。', 'Check the address and keys of the access configuration.')
        : t2('运行高级诊断，实时检测运营商网关。', 'Run the advanced diagnosis to check the operator gateway live.'),
      advanced ? 'accessConfig' : 'advancedDiagnosis', facts);
  }
  if (op.access.lastTestOk === true && op.access.lastTestAt) {
    return check('operator', V.Ok, OPERATOR_TITLE,
      t2(`已配置接入，最近一次连接测试成功（${businessMinute(op.access.lastTestAt)}）。`, `Access is configured; the last connection test succeeded (${businessMinute(op.access.lastTestAt)}).`),
      null, 'none', facts);
  }
  return check('operator', V.Ok, OPERATOR_TITLE,
    t2('已配置接入，尚未做过连接测试。', 'Access is configured; no connection test has been run yet.'),
    t2('运行高级诊断，实时检测运营商网关。', 'Run the advanced diagnosis to check the operator gateway live.'), 'advancedDiagnosis', facts);
}

/** The overall verdict: the worst check. */
export const overallOf = (checks: DiagnoseCheck[]): number => checks.reduce((w, c) => Math.max(w, c.verdict), V.Ok as number);
