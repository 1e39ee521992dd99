import { Operator, home, formatDateTime, type Bilingual, type EnumHelpers, type Lang } from '@lynx/contract';
import type { Actor } from './context.ts';

/**
 * The filters of an export in words, in both languages (issue 12): the download task list shows
 * "状态：已激活；运营商：中国移动" / "State: Activated; Operator: China Mobile", never JSON. A filter key is described
 * by the export's own declaration, else by a module's name lookup registered for that key (customer, plan, pool…),
 * else by the common fields below; a test checks that every filter of every export is covered.
 */

/** ids → names the actor may see (ids it may not see are left out and show as "#id"). */
export type NameLookup = (ids: (string | number)[], actor: Actor) => Promise<Map<string, string | Bilingual>>;

export interface FilterField {
  title: Bilingual;
  /** text (default), a day or instant, a yes/no flag, a list counted as "n" items, a short id */
  kind?: 'text' | 'date' | 'bool' | 'count' | 'shortId';
  enum?: EnumHelpers<number>;
  /** labels of string values */
  options?: Record<string, Bilingual>;
  names?: NameLookup;
  /** the filter key holding this value's match mode, shown in brackets ("ICCID: 898600 (prefix)") */
  mode?: string;
  /** the upper end of a range this field starts: shown once, "from – to" */
  to?: string;
  /** a qualifier of another field (its mode or range end): not shown on its own */
  hidden?: true;
}

export type FilterFields = Record<string, FilterField>;

const MATCH: Record<string, Bilingual> = {
  exact: { zh: '精确', en: 'exact' }, prefix: { zh: '前缀', en: 'prefix' }, contains: { zh: '包含', en: 'contains' },
  auto: { zh: '自动', en: 'auto' }, any: { zh: '任一', en: 'any' }, all: { zh: '全部', en: 'all' },
};
const b = (zh: string, en: string): Bilingual => ({ zh, en });
const hidden: FilterField = { title: b('', ''), hidden: true };
const { QuotaLevel } = home;
const enumText = (e: EnumHelpers<number>, v: number): Bilingual => b(e.label(v, 'zh'), e.label(v, 'en'));

/** Filter keys that mean the same in every list. */
export const COMMON_FILTER_FIELDS: FilterFields = {
  iccid: { title: b('ICCID', 'ICCID'), mode: 'iccidMatch' },
  iccidMatch: hidden,
  iccidStart: { title: b('ICCID 号段', 'ICCID range'), to: 'iccidEnd' },
  iccidEnd: hidden,
  iccids: { title: b('卡', 'Cards'), kind: 'count' },
  msisdn: { title: b('MSISDN', 'MSISDN'), mode: 'msisdnMatch' },
  msisdnMatch: hidden,
  imsi: { title: b('IMSI', 'IMSI'), mode: 'imsiMatch' },
  imsiMatch: hidden,
  startDate: { title: b('时间', 'Time'), kind: 'date', to: 'endDate' },
  endDate: hidden,
  activatedFrom: { title: b('激活日期', 'Activated'), kind: 'date', to: 'activatedTo' },
  activatedTo: hidden,
  firstUsedFrom: { title: b('首次使用日期', 'First used'), kind: 'date', to: 'firstUsedTo' },
  firstUsedTo: hidden,
  testEndFrom: { title: b('测试期结束日期', 'Test period ends'), kind: 'date', to: 'testEndTo' },
  testEndTo: hidden,
  loginName: { title: b('登录名', 'Login name') },
  custName: { title: b('客户名称', 'Customer name') },
  userName: { title: b('用户名', 'User name') },
  operatorId: { title: b('运营商', 'Operator'), enum: Operator },
  online: { title: b('在线', 'Online'), kind: 'bool' },
  batch: { title: b('批次', 'Batch') },
  batchId: { title: b('批次', 'Batch'), kind: 'shortId' },
  salesOrder: { title: b('销售订单', 'Sales order') },
  custom1: { title: b('自定义字段 1', 'Custom field 1'), mode: 'custom1Match' },
  custom1Match: hidden,
  custom2: { title: b('自定义字段 2', 'Custom field 2'), mode: 'custom2Match' },
  custom2Match: hidden,
  labelMatch: hidden,
  name: { title: b('名称', 'Name') },
  code: { title: b('编码', 'Code') },
  quotaLevel: {
    title: b('本周期额度', 'Quota this cycle'),
    options: { near: enumText(QuotaLevel, QuotaLevel.Near), over: enumText(QuotaLevel, QuotaLevel.Over) },
  },
  alertsFrom: { title: b('近期告警（起始日）', 'Recent alerts since'), kind: 'date' },
  batchFailedFrom: { title: b('批量操作失败（起始日）', 'Failed in batch operations since'), kind: 'date' },
  failedBatchId: { title: b('批量操作失败', 'Failed in batch'), kind: 'shortId' },
};

const SEP = { zh: { pair: '：', item: '；', list: '、', range: ' 至 ' }, en: { pair: ': ', item: '; ', list: ', ', range: ' – ' } } as const;
const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
const pick = (v: string | Bilingual, lang: Lang) => (typeof v === 'string' ? v : v[lang]);

/** The field describing a key, from the most specific declaration to the common ones; null when nobody describes it. */
export function fieldOf(key: string, own: FilterFields | undefined, registered: FilterFields): FilterField | null {
  return own?.[key] ?? registered[key] ?? COMMON_FILTER_FIELDS[key] ?? null;
}

/**
 * The filters in words, in both languages. Looks names up once for both languages; a key nobody describes is shown
 * with its raw name (a test keeps that from happening for the registered exports).
 */
export async function describeFilters(
  filters: Record<string, unknown>, own: FilterFields | undefined, registered: FilterFields, actor: Actor, order: string[] = [],
): Promise<Bilingual> {
  const parts: { field: FilterField | null; key: string; value: unknown; names: Map<string, string | Bilingual> | null; upper: unknown }[] = [];
  // in the list's own order of filters (its request schema), whatever order they came in
  const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
  const entries = Object.entries(filters).sort(([a], [b]) => rank(a) - rank(b));
  for (const [key, value] of entries) {
    if (isEmpty(value)) continue;
    const field = fieldOf(key, own, registered);
    if (field?.hidden) continue;
    const ids = Array.isArray(value) ? value : [value];
    const names = field?.names ? await field.names(ids as (string | number)[], actor) : null;
    parts.push({ field, key, value, names, upper: field?.to ? filters[field.to] : undefined });
  }
  const render = (lang: Lang) => {
    const s = SEP[lang];
    const one = (field: FilterField | null, v: unknown, names: Map<string, string | Bilingual> | null): string => {
      if (field?.enum && typeof v === 'number') return field.enum.label(v, lang);
      if (field?.options && typeof v === 'string' && field.options[v]) return field.options[v][lang];
      if (names) {
        const n = names.get(String(v));
        return n === undefined ? `#${String(v)}` : pick(n, lang);
      }
      if (field?.kind === 'bool' || typeof v === 'boolean') return v ? (lang === 'zh' ? '是' : 'Yes') : lang === 'zh' ? '否' : 'No';
      if (field?.kind === 'date' && typeof v === 'string') return /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : formatDateTime(v, lang);
      if (field?.kind === 'shortId' && typeof v === 'string') return v.length > 12 ? v.slice(0, 8) : v;
      return String(v);
    };
    return parts.map(({ field, key, value, names, upper }) => {
      const title = field ? field.title[lang] : key;
      let text: string;
      if (field?.kind === 'count' && Array.isArray(value)) text = lang === 'zh' ? `共 ${value.length} 项` : `${value.length} selected`;
      else if (Array.isArray(value)) text = value.map((v) => one(field, v, names)).join(s.list);
      else text = one(field, value, names);
      if (field?.to && !isEmpty(upper)) text = `${text}${s.range}${one(field, upper, names)}`;
      const mode = field?.mode ? filtersMode(value, field.mode) : null;
      const qualifier = mode && MATCH[mode] ? (lang === 'zh' ? `（${MATCH[mode].zh}）` : ` (${MATCH[mode].en})`) : '';
      return `${title}${s.pair}${text}${qualifier}`;
    }).join(s.item);
    function filtersMode(_v: unknown, modeKey: string) {
      const m = filters[modeKey];
      return typeof m === 'string' ? m : null;
    }
  };
  return { zh: render('zh'), en: render('en') };
}

/** A name lookup from a query over whole-number ids (ids that are not whole numbers find nothing). */
export function idNames(
  query: (ids: number[], actor: Actor) => Promise<{ id: number | string; zh: string; en?: string | null }[]>,
): NameLookup {
  return async (ids, actor) => {
    const nums = [...new Set(ids.map(Number).filter((n) => Number.isSafeInteger(n)))];
    if (nums.length === 0) return new Map();
    const rows = await query(nums, actor);
    return new Map(rows.map((r) => [String(r.id), r.en ? { zh: r.zh, en: r.en } : r.zh]));
  };
}
