import type { Lang } from '../i18n.ts';

/** Units of a shown duration, largest first: seconds in one unit and its zh/en names. */
const UNITS = [
  { seconds: 86_400, en: 'd', zh: '天' },
  { seconds: 3_600, en: 'h', zh: '小时' },
  { seconds: 60, en: 'min', zh: '分' },
  { seconds: 1, en: 's', zh: '秒' },
] as const;

/**
 * A duration in seconds as people read it: the two largest units it reaches, the smaller one left out when it is
 * zero, both truncated (a session online for 2 h 43 min 59 s has not yet lasted 2 h 44 min):
 * 9780 → '2 h 43 min' / '2小时43分', 7200 → '2 h' / '2小时', 125 → '2 min 5 s' / '2分5秒', 45 → '45 s' / '45秒',
 * 93600 → '1 d 2 h' / '1天2小时'. Minutes on their own read '43 min' / '43分钟' ('43分' alone is not a duration in
 * Chinese). Zero is '0 s' / '0秒'; a missing, negative or non-finite value is '-'.
 */
export function formatDuration(seconds: number | string | null | undefined, lang: Lang): string {
  const n = typeof seconds === 'string' && seconds.trim() !== '' ? Number(seconds) : seconds;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return '-';
  let rest = Math.floor(n);
  if (rest === 0) return lang === 'zh' ? '0秒' : '0 s';
  const parts: { value: number; unit: (typeof UNITS)[number] }[] = [];
  for (const unit of UNITS) {
    const value = Math.floor(rest / unit.seconds);
    rest -= value * unit.seconds;
    // the largest unit reached, then the next one after it (shown only when not zero)
    if (parts.length === 0 && value === 0) continue;
    parts.push({ value, unit });
    if (parts.length === 2) break;
  }
  const shown = parts.filter((p, i) => i === 0 || p.value > 0);
  if (lang === 'zh') {
    if (shown.length === 1 && shown[0].unit.seconds === 60) return `${shown[0].value}分钟`;
    return shown.map((p) => `${p.value}${p.unit.zh}`).join('');
  }
  return shown.map((p) => `${p.value} ${p.unit.en}`).join(' ');
}

/** The time from `from` to `to` (ISO strings or dates) as `formatDuration` shows it; '-' when either is missing. */
export function formatDurationBetween(from: string | Date | null | undefined, to: string | Date | null | undefined, lang: Lang): string {
  if (!from || !to) return '-';
  const ms = new Date(to).getTime() - new Date(from).getTime();
  return Number.isFinite(ms) ? formatDuration(Math.max(0, ms) / 1000, lang) : '-';
}
