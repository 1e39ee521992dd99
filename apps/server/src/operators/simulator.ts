import crypto from 'node:crypto';
import type {
  CardStateChange, ChangeAccepted, ConnectionInfo, GatewayAccount, GatewayResult, OperatorGateway, PlanChange, Usage, UsageQuery, ZoneChange, CardRef,
  SmsAccepted, SmsRequest, UsagePull, UsageReport, BillQuery, OperatorBillPage, SmsReportQuery, SmsReport, MoSmsPull, MoSms,
} from './gateway.ts';
import { businessDay, businessDayStartMs, simulateUsage } from './simulator-usage.ts';
import { generatedTraffic } from './simulator-traffic.ts';
import { simulateBill } from './simulator-bill.ts';
import { simulateMo, simulateSmsReports, simulatorSmsId } from './simulator-sms.ts';

/**
 * The built-in network simulator: a carrier platform that lives inside the server, so the product works
 * end to end without a carrier contract. It behaves like one, deterministically:
 * - it issues app keys and secrets (issueSimulatorCredentials) and authenticates every call against them:
 *   a secret that does not belong to its app key is refused, as a real platform would;
 * - it implements API versions v1 and v2 (v3 is refused as unsupported);
 * - it refuses card changes for ICCIDs matching the account's failing pattern, and for a stable share of
 *   cards given by the account's failure rate (the same card and change always get the same answer, so
 *   a retry succeeds once the rule no longer applies), which is what fills the card change failure list;
 * - usage is derived from the ICCID and the day, so every query of the same period gives the same numbers;
 * - it bills a closed period from that usage at its wholesale tariff (simulator-bill.ts), once the period has ended.
 * The simulator is a stand-in for a carrier, not a security boundary: its issuer key is public.
 */
export const SIMULATOR_PLATFORM = 'Lynx network simulator';
export const SIMULATOR_API_VERSIONS = ['v1', 'v2'];
const ISSUER_KEY = 'lynx-network-simulator/issuer/v1';
const CARD_STATES = [60, 61, 62, 63, 64, 65, 66, 67, 68];

/** The secret the simulated carrier issued for an app key. */
export const simulatorSecretFor = (appKey: string): string => crypto.createHmac('sha256', ISSUER_KEY).update(appKey).digest('base64url').slice(0, 32);

/** A new app key and its secret, as the simulated carrier's portal would hand them out. */
export function issueSimulatorCredentials(): { appKey: string; appSecret: string } {
  const appKey = `SIM${crypto.randomBytes(8).toString('hex').toUpperCase()}`;
  return { appKey, appSecret: simulatorSecretFor(appKey) };
}

/**
 * `*` any run, `?` one character; everything else literal; case-insensitive, whole ICCID. A linear-time
 * glob match (one backtrack point): a regex of many `.*` backtracks exponentially on a near miss
 * ('************F' took seconds), and the pattern is typed by staff and checked on every card change.
 */
export function iccidMatches(pattern: string | null, iccid: string): boolean {
  if (!pattern) return false;
  const p = pattern.toUpperCase();
  const s = iccid.toUpperCase();
  let i = 0;
  let j = 0;
  let star = -1;
  let mark = 0;
  while (i < s.length) {
    if (j < p.length && (p[j] === '?' || p[j] === s[i])) {
      i++;
      j++;
    } else if (j < p.length && p[j] === '*') {
      star = j++;
      mark = i;
    } else if (star >= 0) {
      j = star + 1;
      i = ++mark;
    } else {
      return false;
    }
  }
  while (j < p.length && p[j] === '*') j++;
  return j === p.length;
}

const hash = (...parts: (string | number)[]) => crypto.createHash('sha256').update(parts.join('|')).digest();
/** 0..99, stable for the same inputs */
const bucket = (...parts: (string | number)[]) => hash(...parts).readUInt32BE(0) % 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The start of the China business day of an instant: a pull's counters run from the start of each day it touches. */
const dayStartOf = (d: Date) => new Date(businessDayStartMs(businessDay(d.getTime())));

type Refusal = { ok: false; code: string; message: string; latencyMs: number; retryable: boolean };

export function createSimulatorGateway(account: GatewayAccount): OperatorGateway {
  /** a simulated network round trip of a few milliseconds, stable per endpoint; the reported latency is measured */
  const roundTrip = async <T,>(work: () => Omit<Refusal, 'latencyMs'> | { ok: true; data: T }): Promise<GatewayResult<T>> => {
    const started = performance.now();
    await sleep(2 + (hash(account.endpointUrl).readUInt8(0) % 8));
    const r = work();
    const latencyMs = Math.max(1, Math.round(performance.now() - started));
    return { ...r, latencyMs } as GatewayResult<T>;
  };

  const authenticate = (): Omit<Refusal, 'latencyMs'> | null => {
    let url: URL;
    try {
      url = new URL(account.endpointUrl);
    } catch {
      return { ok: false, code: 'BAD_ENDPOINT', message: `endpoint ${account.endpointUrl} is not a valid URL`, retryable: false };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return { ok: false, code: 'BAD_ENDPOINT', message: `endpoint protocol ${url.protocol} is not supported`, retryable: false };
    }
    if (!SIMULATOR_API_VERSIONS.includes(account.apiVersion)) {
      return { ok: false, code: 'UNSUPPORTED_VERSION', message: `API version ${account.apiVersion} is not supported (the simulator implements ${SIMULATOR_API_VERSIONS.join(', ')})`, retryable: false };
    }
    const { appKey, appSecret } = account.credentials;
    if (!appKey || !appSecret) return { ok: false, code: 'AUTH_FAILED', message: 'authentication failed: app key and app secret are required', retryable: false };
    const expected = Buffer.from(simulatorSecretFor(appKey));
    const given = Buffer.from(appSecret);
    if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) {
      return { ok: false, code: 'AUTH_FAILED', message: 'authentication failed: the app secret does not belong to this app key', retryable: false };
    }
    return null;
  };

  const cardRule = (iccid: string, operation: string, target: string | number): Omit<Refusal, 'latencyMs'> | null => {
    if (!/^[0-9A-Fa-f]{18,22}$/.test(iccid)) return { ok: false, code: 'INVALID_ICCID', message: `ICCID ${iccid} is not valid`, retryable: false };
    if (iccidMatches(account.simFailIccidPattern, iccid)) {
      return { ok: false, code: 'CARD_REJECTED', message: `the operator refused the change for this card (ICCID matches ${account.simFailIccidPattern})`, retryable: true };
    }
    if (account.simFailureRate > 0 && bucket(account.operAccountId, iccid, operation, target) < account.simFailureRate) {
      return { ok: false, code: 'OPERATOR_BUSY', message: `the operator platform did not accept the request (simulated failure rate ${account.simFailureRate}%)`, retryable: true };
    }
    return null;
  };

  const accepted = (iccid: string, operation: string): ChangeAccepted => ({
    requestId: `SIM-${hash(account.operAccountId, iccid, operation, Date.now(), Math.random()).toString('hex').slice(0, 16).toUpperCase()}`,
    acceptedAt: new Date().toISOString(),
  });

  return {
    adapter: 'simulator',
    testConnection: () =>
      roundTrip<ConnectionInfo>(() => authenticate() ?? { ok: true, data: { platform: SIMULATOR_PLATFORM, apiVersion: account.apiVersion, serverTime: new Date().toISOString() } }),

    changeCardState: (req: CardStateChange) =>
      roundTrip<ChangeAccepted>(() => {
        const refused = authenticate() ?? cardRule(req.iccid, 'state', req.targetState);
        if (refused) return refused;
        if (!CARD_STATES.includes(req.targetState)) return { ok: false, code: 'INVALID_STATE', message: `card state ${req.targetState} is unknown`, retryable: false };
        return { ok: true, data: accepted(req.iccid, 'state') };
      }),

    changePlan: (req: PlanChange) =>
      roundTrip<ChangeAccepted>(() => {
        const refused = authenticate() ?? cardRule(req.iccid, 'plan', req.planCode);
        if (refused) return refused;
        if (!req.planCode.trim()) return { ok: false, code: 'INVALID_PLAN', message: 'the plan code is empty', retryable: false };
        return { ok: true, data: accepted(req.iccid, 'plan') };
      }),

    changeZone: (req: ZoneChange) =>
      roundTrip<ChangeAccepted>(() => {
        const refused = authenticate() ?? cardRule(req.iccid, `zone-${req.op}`, `${req.kind}:${req.targetId}`);
        if (refused) return refused;
        if (!Number.isInteger(req.targetId) || req.targetId <= 0) return { ok: false, code: 'INVALID_TARGET', message: `${req.kind} ${req.targetId} is unknown`, retryable: false };
        return { ok: true, data: accepted(req.iccid, `zone-${req.op}`) };
      }),

    resetNetwork: (req: CardRef) =>
      roundTrip<ChangeAccepted>(() => {
        const refused = authenticate() ?? cardRule(req.iccid, 'reset', 0);
        if (refused) return refused;
        return { ok: true, data: accepted(req.iccid, 'reset') };
      }),

    // the ICCID rules above refuse the submission; an accepted message's delivery report follows a few seconds later
    // (querySmsReports, simulator-sms.ts). The platform's reference makes a resubmission answer the same message id.
    sendSms: (req: SmsRequest) =>
      roundTrip<SmsAccepted>(() => {
        const refused = authenticate() ?? cardRule(req.iccid, 'sms', req.content.length);
        if (refused) return refused;
        if (!req.msisdn || !req.content) return { ok: false, code: 'INVALID_SMS', message: 'the MSISDN and the content are required', retryable: false };
        const a = accepted(req.iccid, 'sms');
        const messageId = req.clientRef ? simulatorSmsId(account.operAccountId, req.clientRef) : a.requestId;
        return { ok: true, data: { messageId, acceptedAt: a.acceptedAt, delivered: null } };
      }),

    querySmsReports: (req: SmsReportQuery) =>
      roundTrip<SmsReport[]>(() => authenticate() ?? { ok: true, data: simulateSmsReports(account, req) }),

    pullMoSms: (req: MoSmsPull) =>
      roundTrip<MoSms[]>(() => {
        const refused = authenticate();
        if (refused) return refused;
        if (!(req.to > req.from)) return { ok: false, code: 'BAD_PERIOD', message: 'the end of the window is not after its start', retryable: false };
        return { ok: true, data: simulateMo(account.operatorId, req) };
      }),

    // one card's totals over a period, as if it had been active throughout (the feed below knows the real periods)
    queryUsage: async (req: UsageQuery) => {
      const generated = await generatedTraffic([req.iccid], dayStartOf(req.from), new Date(req.to.getTime() + 1));
      return roundTrip<Usage>(() => {
        const refused = authenticate();
        if (refused) return refused;
        if (!(req.to >= req.from)) return { ok: false, code: 'BAD_PERIOD', message: 'the end of the period is before its start', retryable: false };
        if (req.to.getTime() - req.from.getTime() > 366 * 86_400_000) return { ok: false, code: 'BAD_PERIOD', message: 'the period is longer than a year', retryable: false };
        const { daily } = simulateUsage({
          from: req.from, to: req.to,
          cards: [{ iccid: req.iccid, msisdn: req.msisdn, operatorId: account.operatorId, apn: '', networkTypes: [], service: [{ from: req.from, to: null, test: false }] }],
        }, generated);
        const sum = (f: (d: (typeof daily)[number]) => number) => daily.reduce((n, d) => n + f(d), 0);
        return {
          ok: true,
          data: {
            iccid: req.iccid, from: req.from.toISOString(), to: req.to.toISOString(), dataBytes: sum((d) => d.bytesUp + d.bytesDown),
            smsCount: sum((d) => d.sms), voiceSeconds: sum((d) => d.voiceSeconds),
          },
        };
      });
    },

    // the usage feed: sessions and daily counters of the cards in their service periods (simulator-usage.ts)
    // (and the sessions staff generated for the cards: simulator-traffic.ts)
    pullUsage: async (req: UsagePull) => {
      const generated = await generatedTraffic(req.cards.map((c) => c.iccid), dayStartOf(req.from), req.to);
      return roundTrip<UsageReport>(() => {
        const refused = authenticate();
        if (refused) return refused;
        if (!(req.to > req.from)) return { ok: false, code: 'BAD_PERIOD', message: 'the end of the window is not after its start', retryable: false };
        return { ok: true, data: simulateUsage(req, generated) };
      });
    },

    // the carrier's bill of a closed period for a page of the account's cards (simulator-bill.ts)
    queryBill: async (req: BillQuery) => {
      const generated = await generatedTraffic(req.cards.map((c) => c.iccid), req.from, req.to);
      return roundTrip<OperatorBillPage>(() => {
        const refused = authenticate();
        if (refused) return refused;
        if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(req.periodKey)) return { ok: false, code: 'BAD_PERIOD', message: `period ${req.periodKey} is not YYYY-MM`, retryable: false };
        if (!(req.to > req.from) || req.to.getTime() - req.from.getTime() > 32 * 86_400_000) {
          return { ok: false, code: 'BAD_PERIOD', message: 'the period must end after it starts and last at most 32 days', retryable: false };
        }
        if (req.to.getTime() > Date.now()) {
          return { ok: false, code: 'BILL_NOT_ISSUED', message: `the bill of period ${req.periodKey} is issued after the period ends`, retryable: true };
        }
        return { ok: true, data: simulateBill({ ...req, operAccountId: account.operAccountId, operatorId: account.operatorId }, generated) };
      });
    },
  };
}
