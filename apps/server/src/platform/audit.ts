import type { Executor } from '../db/client.ts';
import { auditLog, behaviorLog } from './tables.ts';
import type { RequestContext } from './context.ts';

// exact secret fields (passwords, app/api/private keys), and anything named *Hash, *Secret, *Token,
// *Credential(s), *Passphrase, *Sealed, *PrivateKey, *ApiKey; flags such as
// mustResetPassword stay readable
const SECRET_KEYS = /^(password|oldPassword|newPassword|confirmPassword|initialPassword|secret|token|credentials?|appKey|apiKey|privateKey)$|(Hash|Secret|Token|Credentials?|Passphrase|Sealed|PrivateKey|ApiKey)$/;

/** Copies a record for the audit trail with secrets masked. */
export function redact(value: unknown): unknown {
  if (value == null || typeof value !== 'object') return value ?? null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(redact);
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, SECRET_KEYS.test(k) ? '***' : redact(v)]),
  );
}

export interface AuditEntry {
  entity: string;
  entityId: string | number | null;
  before?: unknown;
  after?: unknown;
  /** tenant of the record changed (defaults to the actor's) */
  custId?: number | null;
  rootCustId?: number | null;
}

/** Who, when, which endpoint, which record, before and after: written in the same transaction as the change. */
export async function audit(ex: Executor, ctx: RequestContext, entry: AuditEntry): Promise<void> {
  ctx.audited = true;
  await ex.insert(auditLog).values({
    accountId: ctx.actor?.accountId ?? null,
    loginName: ctx.actor?.loginName ?? null,
    custId: entry.custId !== undefined ? entry.custId : (ctx.actor?.custId ?? null),
    rootCustId: entry.rootCustId !== undefined ? entry.rootCustId : (ctx.actor?.rootCustId ?? null),
    endpoint: ctx.endpoint,
    entity: entry.entity,
    entityId: entry.entityId == null ? null : String(entry.entityId),
    before: redact(entry.before ?? null),
    after: redact(entry.after ?? null),
    ip: ctx.ip,
  });
}

export interface BehaviorEntry {
  action: number;
  loginName: string;
  accountId?: number | null;
  target?: string | null;
  detail?: string | null;
  custId?: number | null;
  rootCustId?: number | null;
}

/** The user behaviour log of spec §6 (login, logout, accounts, freeze, thaw, reset, roles). */
export async function behavior(ex: Executor, ctx: RequestContext, e: BehaviorEntry): Promise<void> {
  await ex.insert(behaviorLog).values({
    accountId: e.accountId ?? ctx.actor?.accountId ?? null,
    loginName: e.loginName,
    action: e.action,
    target: e.target ?? null,
    detail: e.detail ?? null,
    ip: ctx.ip,
    custId: e.custId !== undefined ? e.custId : (ctx.actor?.custId ?? null),
    rootCustId: e.rootCustId !== undefined ? e.rootCustId : (ctx.actor?.rootCustId ?? null),
  });
}
