import crypto from 'node:crypto';
import type { ResaleListing, ResaleListingStatus, ResalePlatform } from './platform.ts';

/**
 * The built-in resale platform simulator. Deterministic: a listing's status is derived from its id (and moves on once
 * a day, so a sync can see a change); ids starting with `X` are unknown to it. Injectable faults (`setResaleFaults`, for
 * tests and demonstrations): `down` → every call fails (PLATFORM_DOWN); `fail` → an id glob (`*`, `?`) whose listings
 * answer an error; `delayMs` → every call waits this long first (the caller's time-out applies).
 */
export interface ResaleFaults {
  down?: boolean;
  fail?: string | null;
  delayMs?: number;
}

let faults: ResaleFaults = {};
/** Sets (or with {} clears) the simulator's injected faults. */
export function setResaleFaults(f: ResaleFaults): void {
  faults = { ...f };
}

const STATUSES: ResaleListingStatus[] = ['PENDING_REVIEW', 'ON_SALE', 'ON_SALE', 'SOLD', 'OFF_SHELF'];
const globRe = (glob: string) => new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);

/** The status the simulator gives a listing on a day (days since the epoch, UTC). */
export function simulatedListingStatus(externalId: string, day = Math.floor(Date.now() / 86_400_000)): ResaleListingStatus {
  const h = crypto.createHash('sha256').update(`${externalId}|${day}`).digest().readUInt32BE(0);
  return STATUSES[h % STATUSES.length];
}

export function createResaleSimulator(): ResalePlatform {
  return {
    adapter: 'simulator',
    async queryListings(externalIds) {
      if (faults.delayMs) await new Promise((r) => setTimeout(r, faults.delayMs));
      if (faults.down) return { ok: false, code: 'PLATFORM_DOWN', message: 'the resale platform is unavailable (simulated)' };
      const fail = faults.fail ? globRe(faults.fail) : null;
      const data: ResaleListing[] = externalIds.map((externalId) => {
        if (fail?.test(externalId)) return { externalId, status: null, error: 'LISTING_ERROR: the platform could not read the listing (simulated)' };
        if (externalId.startsWith('X')) return { externalId, status: null, error: 'NOT_FOUND: no such listing' };
        return { externalId, status: simulatedListingStatus(externalId) };
      });
      return { ok: true, data };
    },
  };
}

let current: ResalePlatform | null = null;
/** The resale platform in use (the simulator unless a real adapter is installed). */
export const resalePlatform = (): ResalePlatform => (current ??= createResaleSimulator());
export function setResalePlatform(p: ResalePlatform | null): void {
  current = p;
}
/** Back to the simulator without faults (a test process that opens another database next). */
export function resetResaleSimulator(): void {
  current = null;
  faults = {};
}
