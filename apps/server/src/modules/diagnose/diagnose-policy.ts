// The professional-only check of a diagnosis: the communication policy the platform's own network applies to the
// card (spec §1: the professional version runs its own access, authentication and billing). For a standard-version
// card the operator's network applies it, so the platform cannot tell what the card gets: the check says it is only
// for professional-version cards instead of failing the diagnosis. Pure; docs/diagnosis.md.
import { CommServStatus, CommServType, PlanOperationMode, diagnose, type Bilingual } from '@lynx/contract';
import type { DiagnoseCheck } from './diagnose-checks.ts';

const V = diagnose.DiagnoseVerdict;
const t2 = (zh: string, en: string): Bilingual => ({ zh, en });
const TITLE = t2('通信策略', 'Communication policy');

/** A communication service of a zone of the card's plan, as the platform's network applies it. */
export interface PolicyService {
  /** names in both languages (the English one, else as typed) */
  zoneName: Bilingual;
  name: Bilingual;
  type: number;
  directional: boolean;
  whitelistCount: number;
  status: number;
  qosCount: number;
}

export interface PolicyFacts {
  /** the card's operation mode (null: no plan, counted as standard) */
  operationMode: number | null;
  /** the plan's zones by name; empty when the card has no plan */
  zones: Bilingual[];
  services: PolicyService[];
}

type Fact = DiagnoseCheck['facts'][number];
const fact = (key: string, label: Bilingual, kind: Fact['kind'], value: string | number | null): Fact => ({
  key, label, kind, value: value == null ? null : String(value),
});
const check = (verdict: number, explanation: Bilingual, action: Bilingual | null, actionKind: DiagnoseCheck['actionKind'], facts: Fact[]): DiagnoseCheck => ({
  key: 'policy', verdict, title: TITLE, explanation, action, actionKind: action ? actionKind : 'none', facts,
});

const names = (list: PolicyService[], lang: 'zh' | 'en') => list.map((s) => `${s.name[lang]}（${s.zoneName[lang]}）`).join(lang === 'zh' ? '、' : ', ')
  .replace(/（/g, lang === 'zh' ? '（' : ' (').replace(/）/g, lang === 'zh' ? '）' : ')');

/** Whether the checks that need the professional network can run for this card. */
export const isProfessionalCard = (operationMode: number | null) => operationMode === PlanOperationMode.Professional;

export function policyCheck(p: PolicyFacts): DiagnoseCheck {
  if (!isProfessionalCard(p.operationMode)) {
    // the spec's "standard cards do not support diagnosis" stays only where a check truly cannot run: here
    return check(V.NotApplicable,
      t2('仅适用于专业版卡。标准版卡不支持此项诊断：它的通信策略由运营商网络执行，平台无法检查。其余检查已照常完成。',
        "Only for professional-version cards. Standard cards do not support this diagnosis: their communication policy is applied by the operator's network, which the platform cannot inspect. The other checks ran as usual."),
      null, 'none', [fact('operationMode', t2('运行模式', 'Operation mode'), 'operationMode', p.operationMode ?? PlanOperationMode.Standard)]);
  }
  const enabled = p.services.filter((s) => s.status === CommServStatus.Enabled);
  const data = enabled.filter((s) => s.type === CommServType.Data);
  const facts = [
    fact('zones', t2('区域数', 'Zones'), 'number', p.zones.length),
    fact('services', t2('启用的通信服务', 'Enabled services'), 'number', enabled.length),
    fact('dataServices', t2('数据服务', 'Data services'), 'number', data.length),
  ];
  if (p.zones.length === 0 || data.length === 0) {
    return check(V.Problem,
      p.zones.length === 0
        ? t2('卡的套餐没有区域：专业版网络不会为卡放行任何数据。', "The card's plan has no zone: the professional network lets no data through for the card.")
        : t2('卡的套餐没有启用的数据服务：专业版网络不会为卡放行任何数据。', "The card's plan has no enabled data service: the professional network lets no data through for the card."),
      t2('请运营管理员在套餐的区域中配置并启用数据通信服务。', "Ask an operator manager to configure and enable a data communication service in the plan's zones."),
      'commservConfig', facts);
  }
  const disabled = p.services.filter((s) => s.status !== CommServStatus.Enabled);
  const noQos = enabled.filter((s) => s.qosCount === 0);
  const closed = data.filter((s) => s.directional && s.whitelistCount === 0);
  if (closed.length) {
    return check(V.Warning,
      t2(`定向数据服务没有白名单地址，这些服务的流量全部被拒绝：${names(closed, 'zh')}。`,
        `Directional data services without whitelist addresses refuse all their traffic: ${names(closed, 'en')}.`),
      t2('为这些通信服务添加白名单地址。', 'Add whitelist addresses to these communication services.'), 'commservConfig', facts);
  }
  if (noQos.length || disabled.length) {
    const parts = (lang: 'zh' | 'en') => [
      noQos.length ? (lang === 'zh' ? `没有配置 QoS：${names(noQos, 'zh')}` : `no QoS configured: ${names(noQos, 'en')}`) : null,
      disabled.length ? (lang === 'zh' ? `已停用：${names(disabled, 'zh')}` : `disabled: ${names(disabled, 'en')}`) : null,
    ].filter(Boolean).join(lang === 'zh' ? '；' : '; ');
    return check(V.Warning,
      t2(`部分通信服务不会按套餐生效（${parts('zh')}）。`, `Some communication services do not apply as the plan intends (${parts('en')}).`),
      t2('为通信服务配置 QoS 或启用被停用的服务。', 'Configure a QoS for these services or enable the disabled ones.'), 'commservConfig', facts);
  }
  return check(V.Ok,
    t2(`专业版网络为卡执行 ${p.zones.length} 个区域中的 ${enabled.length} 个通信服务，均已启用并配置 QoS。`,
      `The professional network applies ${enabled.length} communication service(s) in ${p.zones.length} zone(s) to the card, all enabled with a QoS.`),
    null, 'none', facts);
}
