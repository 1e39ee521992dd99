import { lt, or, isNotNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { Jobs } from './jobs.ts';
import { apiLog } from './tables.ts';
import { captchas, loginAttempts, sessions } from '../modules/auth/tables.ts';

export const MAINTENANCE_QUEUE = 'maintenance';

/** Nightly clean-up: expired sessions, captchas and login attempt counters; API log rows past their retention. */
export async function runMaintenance(db: Db, apiLogRetentionDays: number, now = Date.now()): Promise<void> {
  await db.delete(sessions).where(or(lt(sessions.expiresAt, new Date(now - 86_400_000)), isNotNull(sessions.revokedAt)));
  await db.delete(captchas).where(lt(captchas.expiresAt, new Date(now)));
  await db.delete(loginAttempts).where(lt(loginAttempts.lastFailureAt, new Date(now - 86_400_000)));
  await db.delete(apiLog).where(lt(apiLog.createdAt, new Date(now - apiLogRetentionDays * 86_400_000)));
}

export function scheduleMaintenance(db: Db, jobs: Jobs, apiLogRetentionDays: number): void {
  jobs.define(MAINTENANCE_QUEUE, () => runMaintenance(db, apiLogRetentionDays));
  jobs.schedule(MAINTENANCE_QUEUE, '17 3 * * *');
}
