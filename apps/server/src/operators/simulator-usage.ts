import { businessDay, businessDayStartMs } from '@lynx/contract';
import crypto from 'node:crypto';
import type { DailyUsageRecord, UsageCard, UsagePull, UsageReport } from './gateway.ts';
import type { GeneratedSession, TrafficByCard } from './simulator-traffic.ts';

/**
 * The network simulator's usage: what a fleet of IoT devices does on the network, reproducible to the byte.
 * Everything is derived from the ICCID (the device's character: a sensor, a vehicle tracker or a camera) and the
 * ICCID with the China calendar day (that day's sessions, messages and calls), through a seeded generator: no
 * clock, no Math.random. A window's report therefore only depends on the window and the card's service periods,
 * and asking again for the same window gives the same numbers; a later window gives the same or larger counters.
 *
 * - Active cards attach a few times a day, mostly in the daytime, and use data in proportion to how long each
 *   session lasts; weekends are quieter for vehicles and cameras; a few days are idle.
 * - Test cards send a few small test sessions (a few KB a day).
 * - Nothing happens outside the service periods the feed passes (deactivated, frozen, barred, … cards).
 * - A session that the service period cuts short ends there, with its counters up to that moment.
 * - Sessions never cross a business-day midnight (the day's last one ends at 24:00), like an operator's partial records.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const KB = 1024;
const MB = 1024 * 1024;

// usage days are business days (CMP_TIME_ZONE)
export { businessDay, businessDayStartMs };

/** 128 bits of a string (cyrb128): a fast, well-mixed seed; not cryptographic, it does not need to be. */
function seed128(str: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** A small fast generator (sfc32) seeded from the parts. */
export function seeded(...parts: (string | number)[]): () => number {
  let [a, b, c, d] = seed128(parts.join('|'));
  for (let i = 0; i < 12; i++) {
    // warm up: the first outputs of sfc32 follow the seed closely
    const t = (a + b + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
  }
  return () => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    const t = (a + b + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
}

const between = (r: () => number, lo: number, hi: number) => lo + r() * (hi - lo);
const intBetween = (r: () => number, lo: number, hi: number) => Math.floor(between(r, lo, hi + 1));

type DeviceClass = 'sensor' | 'tracker' | 'camera';

interface Device {
  kind: DeviceClass;
  /** typical bytes a day */
  dailyBytes: number;
  /** share of the traffic sent by the device */
  upShare: number;
  sessions: [number, number];
  /** session length range, minutes */
  minutes: [number, number];
  smsPerDay: number;
  voice: boolean;
  tac: number;
  ci: number;
  /** index into the plan's network types of the usual one */
  ratPick: number;
}

/** The device behind a card: fixed for the ICCID. */
export function deviceOf(iccid: string): Device {
  const r = seeded(iccid, 'device');
  const x = r();
  const kind: DeviceClass = x < 0.45 ? 'sensor' : x < 0.85 ? 'tracker' : 'camera';
  const base = {
    sensor: { dailyBytes: between(r, 0.5, 6) * MB, upShare: 0.7, sessions: [1, 3] as [number, number], minutes: [30, 240] as [number, number] },
    tracker: { dailyBytes: between(r, 8, 60) * MB, upShare: 0.45, sessions: [2, 6] as [number, number], minutes: [10, 120] as [number, number] },
    camera: { dailyBytes: between(r, 60, 350) * MB, upShare: 0.8, sessions: [2, 5] as [number, number], minutes: [5, 60] as [number, number] },
  }[kind];
  return {
    kind, ...base,
    smsPerDay: r() < 0.3 ? between(r, 0.5, 5) : 0,
    voice: r() < 0.1,
    tac: intBetween(r, 4096, 65000),
    ci: intBetween(r, 10_000, 268_000_000),
    ratPick: Math.floor(r() * 8),
  };
}

// how likely a session starts in each hour of the day (devices follow people: quiet at night)
const HOUR_WEIGHTS = [0.15, 0.1, 0.1, 0.1, 0.15, 0.3, 0.7, 1.2, 1.4, 1.3, 1.2, 1.1, 1.0, 1.1, 1.2, 1.2, 1.2, 1.3, 1.2, 0.9, 0.7, 0.5, 0.35, 0.2];
const HOUR_TOTAL = HOUR_WEIGHTS.reduce((a, b) => a + b, 0);
function startOffset(r: () => number): number {
  let x = r() * HOUR_TOTAL;
  for (let h = 0; h < 24; h++) {
    if (x < HOUR_WEIGHTS[h]) return h * HOUR + Math.floor((x / HOUR_WEIGHTS[h]) * HOUR);
    x -= HOUR_WEIGHTS[h];
  }
  return 23 * HOUR;
}

const MNC: Record<number, string> = { 1: '00', 2: '01', 3: '11' };
const DEFAULT_RAT = 2; // 4G

interface PlannedSession {
  /** index of the session in its day, for its id */
  k: number;
  start: number;
  end: number;
  up: number;
  down: number;
  rat: number;
  cell: string;
}

interface DayPlan {
  sessions: PlannedSession[];
  /** instants of mobile-originated messages */
  sms: number[];
  calls: { at: number; seconds: number }[];
}

/** What one card does on one China day, as an active or a test card. */
export function planDay(
  card: Pick<UsageCard, 'iccid' | 'operatorId' | 'networkTypes'>, day: string, test: boolean, device = deviceOf(card.iccid), dayStart = businessDayStartMs(day),
): DayPlan {
  const r = seeded(card.iccid, day, test ? 'test' : 'active');
  const dayEnd = dayStart + DAY;
  const rats = card.networkTypes.length ? card.networkTypes : [DEFAULT_RAT];
  const usual = rats[device.ratPick % rats.length];
  const mnc = MNC[card.operatorId] ?? '00';
  const plan: DayPlan = { sessions: [], sms: [], calls: [] };

  if (test) {
    // a handful of small test attaches during working hours
    const n = r() < 0.5 ? 1 : 2;
    const starts = Array.from({ length: n }, () => dayStart + 9 * HOUR + Math.floor(r() * 9 * HOUR)).sort((a, b) => a - b);
    starts.forEach((start, k) => {
      const bytes = Math.floor(between(r, 0.5, 3) * KB);
      const up = Math.floor(bytes * 0.6);
      plan.sessions.push({
        k, start, end: Math.min(start + Math.floor(between(r, 1, 10) * 60_000), dayEnd), up, down: bytes - up, rat: usual,
        cell: `460-${mnc}-${device.tac}-${device.ci}`,
      });
    });
    if (r() < 0.3) plan.sms.push(dayStart + 10 * HOUR + Math.floor(r() * 6 * HOUR));
    return plan;
  }

  if (r() < 0.06) return plan; // an idle day
  const weekday = new Date(`${businessDay(dayStart)}T00:00:00Z`).getUTCDay();
  const weekend = weekday === 0 || weekday === 6;
  const volume = device.dailyBytes * between(r, 0.4, 1.6) * (weekend && device.kind !== 'sensor' ? 0.7 : 1);
  const n = intBetween(r, device.sessions[0], device.sessions[1]);
  const starts = Array.from({ length: n }, () => dayStart + startOffset(r)).sort((a, b) => a - b);
  const spans = starts.map((start, k) => {
    const wanted = start + Math.floor(between(r, device.minutes[0], device.minutes[1]) * 60_000);
    const limit = k + 1 < starts.length ? starts[k + 1] : dayEnd;
    return { start, end: Math.max(start + 1000, Math.min(wanted, limit, dayEnd)) };
  });
  const total = spans.reduce((s, x) => s + (x.end - x.start), 0);
  spans.forEach((s, k) => {
    const bytes = Math.floor((volume * (s.end - s.start)) / total);
    const up = Math.floor(bytes * Math.min(0.95, Math.max(0.05, device.upShare + between(r, -0.1, 0.1))));
    const rat = r() < 0.85 ? usual : rats[Math.floor(r() * rats.length)];
    // vehicles move between cells; fixed devices stay
    const moved = device.kind === 'tracker' ? intBetween(r, 0, 40) : 0;
    plan.sessions.push({ k, start: s.start, end: s.end, up, down: bytes - up, rat, cell: `460-${mnc}-${device.tac + moved}-${device.ci + moved * 7}` });
  });
  if (device.smsPerDay > 0) {
    const m = Math.floor(device.smsPerDay * between(r, 0, 2));
    for (let i = 0; i < m; i++) plan.sms.push(dayStart + 7 * HOUR + Math.floor(r() * 15 * HOUR));
  }
  if (device.voice && r() < 0.5) {
    const m = intBetween(r, 1, 3);
    for (let i = 0; i < m; i++) plan.calls.push({ at: dayStart + 8 * HOUR + Math.floor(r() * 12 * HOUR), seconds: intBetween(r, 20, 300) });
  }
  return plan;
}

/** Generated sessions (simulator-traffic.ts) are numbered after the day's own: their index is this plus their id. */
const GENERATED_K = 1_000_000;

/** The generated sessions of a card that start on the China day beginning at `dayStart`, as planned sessions. */
function generatedOn(card: Pick<UsageCard, 'operatorId' | 'networkTypes'>, device: Device, generated: GeneratedSession[], dayStart: number): PlannedSession[] {
  const rats = card.networkTypes.length ? card.networkTypes : [DEFAULT_RAT];
  const mnc = MNC[card.operatorId] ?? '00';
  return generated.filter((g) => g.at >= dayStart && g.at < dayStart + DAY).map((g) => ({
    k: GENERATED_K + g.trafficId, start: g.at, end: Math.min(g.at + Math.max(1, g.seconds) * 1000, dayStart + DAY), up: g.bytesUp, down: g.bytesDown,
    rat: rats[device.ratPick % rats.length], cell: `460-${mnc}-${device.tac}-${device.ci}`,
  }));
}

/** The operator's id of a session: stable for the card, day and session. */
const sessionId = (iccid: string, day: string, test: boolean, k: number) =>
  crypto.createHash('sha256').update(`${iccid}|${day}|${test ? 't' : 'a'}|${k}`).digest('hex').slice(0, 20).toUpperCase();

const inPeriod = (t: number, p: { from: Date; to: Date | null }) => t >= p.from.getTime() && (p.to === null || t < p.to.getTime());

/**
 * The report of a usage pull: the sessions overlapping the window, and for each day the window touches the counters
 * up to the window's end of the cards whose counters moved in the window (a quiet card is not repeated). `generated`:
 * the cards' generated sessions (simulator-traffic.ts) from the start of the window's first day on, counted like the
 * device's own within the cards' service periods.
 */
export function simulateUsage(req: UsagePull, generated?: TrafficByCard): UsageReport {
  const from = req.from.getTime();
  const to = req.to.getTime();
  const report: UsageReport = { sessions: [], daily: [] };
  if (!(to > from)) return report;
  const days: { day: string; start: number }[] = [];
  for (let d = businessDay(from); businessDayStartMs(d) < to; d = businessDay(businessDayStartMs(d) + DAY + HOUR)) days.push({ day: d, start: businessDayStartMs(d) });

  for (const card of req.cards) {
    const device = deviceOf(card.iccid);
    for (const { day, start: dayStart } of days) {
      const upTo = Math.min(to, dayStart + DAY);
      const counters: DailyUsageRecord = { iccid: card.iccid, day, bytesUp: 0, bytesDown: 0, sms: 0, voiceSeconds: 0, sessions: 0 };
      let moved = false;
      for (const period of card.service) {
        const pFrom = period.from.getTime();
        const pTo = period.to?.getTime() ?? Infinity;
        if (pFrom >= upTo || pTo <= dayStart) continue;
        const plan = planDay(card, day, period.test, device, dayStart);
        const own = generated?.get(card.iccid);
        if (own) plan.sessions.push(...generatedOn(card, device, own, dayStart));
        for (const s of plan.sessions) {
          // a session belongs to the period it starts in, and the period's end cuts it short
          if (!inPeriod(s.start, period) || s.start >= upTo) continue;
          const end = Math.min(s.end, pTo);
          const cutoff = Math.min(end, to);
          const share = (cutoff - s.start) / (s.end - s.start);
          const up = Math.floor(s.up * share);
          const down = Math.floor(s.down * share);
          counters.bytesUp += up;
          counters.bytesDown += down;
          counters.sessions++;
          if (end > from) {
            moved = true;
            report.sessions.push({
              iccid: card.iccid, sessionId: sessionId(card.iccid, day, period.test, s.k), startedAt: new Date(s.start), endedAt: end <= to ? new Date(end) : null, apn: card.apn,
              bytesUp: up, bytesDown: down, rat: s.rat, cell: s.cell,
            });
          }
        }
        for (const at of plan.sms) {
          if (!inPeriod(at, period) || at >= upTo) continue;
          counters.sms++;
          if (at >= from) moved = true;
        }
        for (const c of plan.calls) {
          if (!inPeriod(c.at, period) || c.at >= upTo) continue;
          counters.voiceSeconds += Math.max(0, Math.min(c.seconds, Math.floor((Math.min(upTo, pTo) - c.at) / 1000)));
          if (c.at + c.seconds * 1000 > from) moved = true;
        }
      }
      if (moved) report.daily.push(counters);
    }
  }
  return report;
}
