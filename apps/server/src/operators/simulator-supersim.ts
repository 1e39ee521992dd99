import crypto from 'node:crypto';
import type { GatewayResult, SuperSimGateway, SuperSimSignal, SuperSimSwitchOutcome, SuperSimSwitchRequest } from './gateway.ts';
import { iccidMatches } from './simulator.ts';

/**
 * The built-in super SIM vendor platform (issue 16; docs/super-sim.md). A switch request is answered at once with an
 * outcome, as the vendor's OTA platform does once the device has confirmed (or refused) the new profile:
 * - a profile whose card is not in service (not test or activated) cannot attach: failed, PROFILE_NOT_SERVING;
 * - injectable faults (`setSuperSimFaults`, for tests and demonstrations), each an SN glob (`*`, `?`):
 *   `refuse` → the request itself is refused (VENDOR_REFUSED); `fail` → accepted, then the OTA update fails
 *   (OTA_FAILED); `pending` → accepted and never answered (the platform's timeout fails it);
 * - otherwise confirmed.
 * Requests live in this process's memory: after a restart the simulator no longer knows a pending request and answers
 * UNKNOWN_REQUEST (the platform then fails it). The same clientRef answers the first request again (idempotent).
 * Signals are derived from the SN, the operator and the hour, so a report is stable within an hour.
 */
export interface SuperSimFaults {
  refuse?: string | null;
  fail?: string | null;
  pending?: string | null;
}

let faults: SuperSimFaults = {};
/** Sets (or with {} clears) the simulator's injected faults. */
export function setSuperSimFaults(f: SuperSimFaults): void {
  faults = { ...f };
}

const requests = new Map<string, SuperSimSwitchOutcome>();
const byRef = new Map<string, string>();
/** Forgets injected faults and remembered requests (a test process that opens another database next). */
export function resetSuperSimSimulator(): void {
  faults = {};
  requests.clear();
  byRef.clear();
}
const hash = (...parts: (string | number)[]) => crypto.createHash('sha256').update(parts.join('|')).digest();

/** The simulated signal of a profile (dBm, -50 … -120), stable within an hour. */
export function simulatedSignal(sn: string, operatorId: number, at = Date.now()): number {
  return -50 - (hash(sn, operatorId, Math.floor(at / 3_600_000)).readUInt32BE(0) % 71);
}

export function createSuperSimSimulator(): SuperSimGateway {
  const answer = async <T,>(work: () => GatewayResult<T>): Promise<GatewayResult<T>> => {
    await new Promise((r) => setTimeout(r, 2));
    return work();
  };
  const refused = (code: string, message: string, retryable = false) => ({ ok: false as const, code, message, latencyMs: 2, retryable });
  return {
    adapter: 'simulator',
    requestSwitch: (req: SuperSimSwitchRequest) => answer<SuperSimSwitchOutcome>(() => {
      const known = byRef.get(req.clientRef);
      if (known) return { ok: true, data: requests.get(known)!, latencyMs: 2 };
      if (!/^[0-9A-Za-z]{6,32}$/.test(req.sn)) return refused('INVALID_SN', `SN ${req.sn} is not valid`);
      if (iccidMatches(faults.refuse ?? null, req.sn)) return refused('VENDOR_REFUSED', 'the super SIM platform refused the switch request (injected fault)', true);
      const requestId = `SSW-${hash(req.sn, req.clientRef, Date.now(), Math.random()).toString('hex').slice(0, 16).toUpperCase()}`;
      const at = new Date().toISOString();
      let outcome: SuperSimSwitchOutcome;
      if (!req.to.serving) {
        outcome = { requestId, state: 'failed', code: 'PROFILE_NOT_SERVING', message: `the ${req.to.iccid} profile's card is not in service, the device cannot attach with it`, at };
      } else if (iccidMatches(faults.fail ?? null, req.sn)) {
        outcome = { requestId, state: 'failed', code: 'OTA_FAILED', message: 'the device did not confirm the new profile over the air (injected fault)', at };
      } else if (iccidMatches(faults.pending ?? null, req.sn)) {
        outcome = { requestId, state: 'pending', code: null, message: null, at };
      } else {
        outcome = { requestId, state: 'confirmed', code: null, message: null, at };
      }
      requests.set(requestId, outcome);
      byRef.set(req.clientRef, requestId);
      return { ok: true, data: outcome, latencyMs: 2 };
    }),
    querySwitch: (requestId: string) => answer<SuperSimSwitchOutcome>(() => {
      const o = requests.get(requestId);
      return o ? { ok: true, data: o, latencyMs: 2 } : refused('UNKNOWN_REQUEST', `the super SIM platform has no request ${requestId}`);
    }),
    querySignals: (req) => answer<SuperSimSignal[]>(() => {
      if (req.sns.length > 1000) return refused('TOO_MANY', 'at most 1,000 super SIMs per report');
      const now = Date.now();
      return { ok: true, data: req.sns.map((s) => ({ sn: s.sn, signals: s.operatorIds.map((operatorId) => ({ operatorId, dbm: simulatedSignal(s.sn, operatorId, now) })) })), latencyMs: 2 };
    }),
  };
}
