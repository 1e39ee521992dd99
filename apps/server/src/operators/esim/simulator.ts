import crypto from 'node:crypto';
import { EsimRefusal, type EsimGateway, type EsimNotification, type EsimOperation, type EsimOperationKind } from './gateway.ts';

/**
 * Knobs of the simulated SM-DP+ (docs/euicc.md). Environment: CMP_SMDP_DELAY_MS ("min-max", default 200-1500),
 * CMP_SMDP_FAIL_RATE and CMP_SMDP_SILENT_RATE (0..1, default 0): the share of operations answered with an error and
 * the share never answered (they end in the failed state when their deadline passes).
 */
export interface SmdpSimulatorOptions {
  address: string;
  delayMs: [number, number];
  failRate: number;
  silentRate: number;
}

/** A failure injected for one ICCID (or every ICCID: '*'), optionally for one kind of operation. */
export interface InjectedFailure {
  /** error: answered as failed; silent: never answered; refuse: the call itself is refused */
  mode: 'error' | 'silent' | 'refuse';
  kind?: EsimOperationKind;
  reason?: string;
  /** how many operations it applies to (default: until cleared) */
  times?: number;
}

function rateOf(v: string | undefined): number {
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : 0;
}

export function simulatorOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): SmdpSimulatorOptions {
  const m = /^(\d+)-(\d+)$/.exec(env.CMP_SMDP_DELAY_MS ?? '');
  const delay: [number, number] = m ? [Number(m[1]), Math.max(Number(m[1]), Number(m[2]))] : [200, 1500];
  return {
    address: env.CMP_SMDP_ADDRESS || 'smdp.sim.lynx-cmp.local',
    delayMs: delay,
    failRate: rateOf(env.CMP_SMDP_FAIL_RATE),
    silentRate: rateOf(env.CMP_SMDP_SILENT_RATE),
  };
}

/** A number in [0, 1) from an operation id: the same operation gets the same fate after a restart. */
const unit = (opId: string, salt: string) => crypto.createHash('sha256').update(salt + opId).digest().readUInt32BE(0) / 2 ** 32;

/**
 * The in-process SM-DP+: keeps the orders it was given, answers each operation after a delay (or with an error, or
 * never, by the knobs and the injected failures), and hands the answers over in bunches every 50 ms, as a busy
 * SM-DP+ would. Its memory is the process's: operations in flight when the process stops are never answered,
 * exactly like a real SM-DP+ that lost them; the eUICC module's deadline turns them into failures.
 */
export class SmdpSimulator implements EsimGateway {
  readonly smdpAddress: string;
  options: SmdpSimulatorOptions;
  private handler: ((batch: EsimNotification[]) => void) | null = null;
  private seen = new Set<string>();
  private outbox: EsimNotification[] = [];
  private timers = new Set<NodeJS.Timeout>();
  private flushTimer: NodeJS.Timeout | null = null;
  private injected = new Map<string, InjectedFailure>();
  private orders = new Map<string, { eid: string | null; matchingId: string | null; released: boolean }>();
  /** every call received, newest last (tests read it) */
  readonly calls: { call: string; iccid: string; opId?: string }[] = [];

  constructor(options: Partial<SmdpSimulatorOptions> = {}) {
    this.options = { ...simulatorOptionsFromEnv(), ...options };
    this.smdpAddress = this.options.address;
  }

  /** Injects a failure for an ICCID ('*': all); `null` clears it. */
  inject(iccid: string, failure: InjectedFailure | null): void {
    if (failure) this.injected.set(iccid, { ...failure });
    else this.injected.delete(iccid);
  }

  onNotifications(handler: (batch: EsimNotification[]) => void): void {
    this.handler = handler;
  }

  private record(call: string, iccid: string, opId?: string) {
    if (this.calls.length > 1000) this.calls.splice(0, 500);
    this.calls.push({ call, iccid, opId });
  }

  private failureFor(iccid: string, kind: EsimOperationKind): InjectedFailure | null {
    for (const key of [iccid, '*']) {
      const f = this.injected.get(key);
      if (!f || (f.kind && f.kind !== kind)) continue;
      if (f.times !== undefined) {
        f.times -= 1;
        if (f.times <= 0) this.injected.delete(key);
      }
      return f;
    }
    return null;
  }

  async downloadOrder(req: { iccid: string; eid?: string | null }): Promise<{ iccid: string }> {
    this.record('downloadOrder', req.iccid);
    const f = this.failureFor(req.iccid, 'download');
    if (f?.mode === 'refuse') throw new EsimRefusal(f.reason ?? 'DownloadOrder refused: profile not available (8.2.1 / 3.9)');
    this.orders.set(req.iccid, { eid: req.eid ?? null, matchingId: null, released: false });
    return { iccid: req.iccid };
  }

  async confirmOrder(req: { iccid: string; eid?: string | null; matchingId?: string | null; releaseFlag: boolean }) {
    this.record('confirmOrder', req.iccid);
    const matchingId = req.matchingId || crypto.createHash('sha256').update(`${req.iccid}:${req.eid ?? ''}`).digest('hex').slice(0, 20).toUpperCase();
    this.orders.set(req.iccid, { eid: req.eid ?? null, matchingId, released: req.releaseFlag });
    return { eid: req.eid ?? null, matchingId, smdpAddress: this.smdpAddress };
  }

  async releaseProfile(req: { iccid: string }): Promise<void> {
    this.record('releaseProfile', req.iccid);
    const o = this.orders.get(req.iccid);
    if (o) o.released = true;
  }

  async requestOperation(op: EsimOperation): Promise<void> {
    this.record(op.kind, op.iccid, op.opId);
    if (this.seen.has(op.opId)) return; // the same operation sent again (a chunk redone after a crash)
    const f = this.failureFor(op.iccid, op.kind);
    if (f?.mode === 'refuse') throw new EsimRefusal(f.reason ?? 'request refused by the SM-DP+');
    this.seen.add(op.opId);
    if (this.seen.size > 200_000) this.seen.clear();
    const { delayMs: [min, max], failRate, silentRate } = this.options;
    const silent = f ? f.mode === 'silent' : unit(op.opId, 'silent') < silentRate;
    if (silent) return;
    const fail = f ? f.mode === 'error' : unit(op.opId, 'fail') < failRate;
    const delay = min + Math.floor(unit(op.opId, 'delay') * (max - min + 1));
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.outbox.push({
        opId: op.opId, iccid: op.iccid, kind: op.kind, ok: !fail,
        reason: fail ? (f?.reason ?? `${op.kind} failed on the eUICC (simulated)`) : undefined,
      });
      this.scheduleFlush();
    }, delay);
    this.timers.add(timer);
  }

  private scheduleFlush() {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      const batch = this.outbox.splice(0, this.outbox.length);
      if (batch.length && this.handler) this.handler(batch);
    }, 50);
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.outbox = [];
  }
}
