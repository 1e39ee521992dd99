import type { Page } from 'playwright-core';
import { CJK, flatTexts } from '../src/locales/texts.ts';
import zhBase from '../src/locales/zh/index.ts';
import enBase from '../src/locales/en/index.ts';
import zhDoc from '../src/locales/zh/doc.ts';
import enDoc from '../src/locales/en/doc.ts';

/*
 * One language, one set of units (issue 12), checked on every screen a spec settles on:
 * - an English screen shows no Chinese character;
 * - a Chinese screen shows no raw i18n key and no English UI text that has a Chinese translation;
 * - both show sizes scaled (10.00 GB, not 10,240.00 MB).
 * What people typed (customer, account, plan, pool and label names, card aliases, remarks, reasons) shows as typed, in
 * whatever language it was typed: the check learns those values from the API responses the page received, in the
 * fields listed in USER_TEXT_FIELDS, and takes them out of a text before judging it. Catalogue data and sentences the
 * server writes (operators, card types, communication services, zones, regions, card history, download task titles)
 * are not in that list: they carry both languages and must show the reader's. Text in another language on purpose
 * (the language toggle's 中文) carries its own `lang` attribute and is skipped, as is `translate="no"` content.
 * Form fields' values are not page text.
 */

/** Response fields that hold what an operator or customer typed (docs/decisions.md: one language, one set of units). */
export const USER_TEXT_FIELDS = new Set([
  'custName', 'customerName', 'parentCustName', 'rootCustName', 'userName', 'loginName', 'contactName', 'adminName',
  'name', 'planName', 'goodsName', 'poolName', 'labelName', 'labelNames', 'alias', 'remark', 'reason', 'description',
  'content', 'fileName', 'retailName', 'basicName', 'eventName',
  // a rate plan's name as the Unicom account operation rows carry it (issue 15)
  'ratePlanName',
  // names operators give their network objects: access configurations, QoS / speed limit / redirect profiles, firewall
  // addresses and policies, APNs
  'accountName', 'operAccountName', 'qosName', 'speedLimitName', 'redirectName', 'targetContent', 'addressName', 'policyName', 'targetName',
  'apnName', 'apnNames',
  // a custom role's name (built-in roles carry both names: roleNameEn)
  'roleName',
  // a super SIM switch strategy's name (issue 16)
  'strategyName',
  // an upstream channel's name as staff typed it in a channel card import (issue 16)
  'channelName',
]);
// the customer's own card fields (custom1…)
const isUserTextField = (key: string) => USER_TEXT_FIELDS.has(key) || /^custom\d+$/.test(key);

const userTextOf = new WeakMap<Page, Set<string>>();

/** Collects the user-typed values (with a Chinese character) of every API response the page gets from now on. */
export function watchUserText(page: Page): void {
  const found = new Set<string>();
  userTextOf.set(page, found);
  // a catalogue name an operator typed shows as typed unless it has an English name beside it (`zoneName` and
  // `zoneNameEn`): then the English reader must get that one
  const isTyped = (o: Record<string, unknown>, key: string) => (`${key}En` in o ? !o[`${key}En`] : isUserTextField(key));
  const walk = (v: unknown, typed: boolean): void => {
    if (typeof v === 'string') {
      if (typed && CJK.test(v)) found.add(v);
    } else if (Array.isArray(v)) {
      for (const x of v) walk(x, typed);
    } else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      for (const [k, x] of Object.entries(o)) walk(x, isTyped(o, k));
    }
  };
  page.on('response', (res) => {
    if (!res.url().includes('/api/cmp/') || !(res.headers()['content-type'] ?? '').includes('json')) return;
    res.json().then((body) => walk(body, false), () => undefined);
  });
}

const zh = flatTexts({ ...zhBase, doc: zhDoc });
const en = flatTexts({ ...enBase, doc: enDoc });
const zhOf = new Map(zh);
const keys = zh.map(([k]) => k).filter((k) => k.includes('.'));
// English UI texts that have Chinese words of their own (not ICCID, APN, 4G…), without placeholders
const englishUi = [...new Set(en.filter(([k, v]) => v !== zhOf.get(k) && !v.includes('{{') && /[A-Za-z]{2}/.test(v)).map(([, v]) => v.trim()))];
// what antd says in English when its locale is wrong
const antdEnglish = ['No data', 'No Data', 'OK', 'Cancel', 'Search', 'Reset', 'Select date', 'Select time', 'Start date', 'End date', 'Today', 'Now', 'Expand', 'Collapse', 'Previous Page', 'Next Page', 'Upload', 'items/page'];

export interface LanguageFinding {
  text: string;
  where: string;
  why: 'chinese-on-english' | 'raw-key' | 'english-on-chinese' | 'unscaled-size';
}

/** The visible texts of a page that break the rules above (in the browser). */
export async function languageFindings(page: Page, lang?: 'zh' | 'en'): Promise<LanguageFinding[]> {
  return page.evaluate(
    ({ lang, cjk, keys, english, userText }) => {
      const current: 'zh' | 'en' = lang ?? ((localStorage.getItem('lx_language') ?? navigator.language).toLowerCase().startsWith('zh') ? 'zh' : 'en');
      const CJK_RE = new RegExp(cjk);
      const keySet = new Set(keys);
      const englishSet = new Set(english);
      // 10,240.00 MB / 2048 KB: a value of 1,024 or more in a unit that has a next one should have been scaled
      // (1,000-1,023.99 of a unit is right: sizes are base 1024, so 1,005.54 MB is less than 1 GB). A number glued to a
      // letter before it is a code, not a size: order R2026…C73415B ends in digits and a B
      const UNSCALED = /(^|[^\w.,])(\d{1,3}(,\d{3})+|\d{4,})(\.\d+)?\s?(B|KB|MB|GB|TB)\b/g;
      const unscaled = (text: string) =>
        [...text.matchAll(UNSCALED)].some((m) => Number(`${m[2].replaceAll(',', '')}${m[4] ?? ''}`) >= 1024);
      const where = (el: Element): string => {
        const parts: string[] = [];
        for (let e: Element | null = el; e && parts.length < 4; e = e.parentElement) {
          const id = e.getAttribute('data-testid') ?? e.id;
          const cls = [...e.classList].filter((c) => c.startsWith('lx-') || c === 'ant-table-cell' || c === 'ant-descriptions-item-label').slice(0, 2);
          if (id || cls.length) parts.unshift(`${e.tagName.toLowerCase()}${id ? `#${id}` : ''}${cls.map((c) => `.${c}`).join('')}`);
        }
        return parts.join(' > ') || el.tagName.toLowerCase();
      };
      const exempt = (el: Element) => {
        // .lx-doc: the manuals quote code (API paths) and the other language's labels (the 中文 toggle) on purpose; their
        // texts are checked per language by the locale rule (locales/i18n.test.ts)
        if (el.closest('[translate="no"], script, style, noscript, .lx-user-text, .lx-doc')) return true;
        const tagged = el.closest('[lang]');
        return !!tagged && tagged !== document.documentElement && !tagged.getAttribute('lang')!.toLowerCase().startsWith(current);
      };
      const visible = (el: Element) =>
        (el as HTMLElement).checkVisibility?.({ opacityProperty: true, visibilityProperty: true } as CheckVisibilityOptions) ?? true;
      const out: { text: string; where: string; why: 'chinese-on-english' | 'raw-key' | 'english-on-chinese' | 'unscaled-size' }[] = [];
      const seen = new Set<string>();
      const judge = (raw: string, el: Element) => {
        const text = raw.replace(/\s+/g, ' ').trim();
        if (!text || exempt(el) || !visible(el)) return;
        const add = (why: (typeof out)[number]['why']) => {
          if (seen.has(why + text)) return;
          seen.add(why + text);
          out.push({ text: text.slice(0, 120), where: where(el), why });
        };
        if (current === 'en' && CJK_RE.test(userText.reduce((t, u) => t.replaceAll(u, ''), text))) add('chinese-on-english');
        if (keySet.has(text)) add('raw-key');
        if (current === 'zh' && englishSet.has(text)) add('english-on-chinese');
        // .lx-exact-units: a size in a fixed unit on purpose (a base-unit column, a unit conversion rule)
        if (unscaled(text) && !el.closest('.lx-exact-units')) add('unscaled-size');
      };
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n.parentElement) judge(n.textContent ?? '', n.parentElement);
      for (const input of document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[placeholder], textarea[placeholder]')) {
        if (!input.value) judge(input.placeholder, input);
      }
      return out;
    },
    // longest first, so a name that contains another is taken out whole
    { lang, cjk: CJK.source, keys, english: [...englishUi, ...antdEnglish], userText: [...(userTextOf.get(page) ?? [])].sort((a, b) => b.length - a.length) },
  );
}

/** Fails when the visible screen breaks one language, one set of units (see the top of this file). */
export async function checkLanguage(page: Page, lang?: 'zh' | 'en'): Promise<void> {
  const findings = await languageFindings(page, lang);
  if (findings.length === 0) return;
  const list = findings.map((f) => `  ${f.why}: "${f.text}" at ${f.where}`).join('\n');
  throw new Error(`${page.url()} is not in one language:\n${list}`);
}
