import crypto from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { AccountStatus, CustomerStatus } from '@lynx/contract';
import type { Db, Executor } from '../db/client.ts';
import { sessions } from '../modules/auth/tables.ts';
import { accounts, roles } from '../modules/account/tables.ts';
import type { Actor } from './context.ts';

export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('base64url');
export const newToken = () => crypto.randomBytes(32).toString('base64url');

const CACHE_MS = 3000;

/**
 * The account's customer and its first-level customer are not exited: a first-level customer that exits
 * ends the access of its whole tree. Staff accounts have no customer and always pass.
 */
const customerActive = sql`not exists (select 1 from customers c
  where c.cust_id in (${accounts.custId}, ${accounts.rootCustId}) and c.status = ${CustomerStatus.Exited})`;
const CACHE_MAX = 20_000;

/**
 * Sessions live in the database so server processes stay stateless. A lookup is cached for a few seconds;
 * logout, freeze and password changes in this process drop the cache entry at once, other processes see
 * the change within CACHE_MS.
 */
export class SessionStore {
  private cache = new Map<string, { actor: Actor; until: number }>();
  constructor(
    private db: Db,
    private ttlHours: number,
  ) {}

  async create(ex: Executor, accountId: number, ip: string): Promise<{ token: string; expiresAt: Date }> {
    const token = newToken();
    const expiresAt = new Date(Date.now() + this.ttlHours * 3600_000);
    await ex.insert(sessions).values({ tokenHash: hashToken(token), accountId, ip, expiresAt });
    return { token, expiresAt };
  }

  async lookup(tokenHash: string): Promise<Actor | null> {
    const now = Date.now();
    const hit = this.cache.get(tokenHash);
    if (hit && hit.until > now) return hit.actor;
    const rows = await this.db
      .select({
        accountId: accounts.accountId,
        loginName: accounts.loginName,
        userName: accounts.userName,
        roleId: roles.roleId,
        roleName: roles.roleName,
        roleType: roles.roleType,
        custId: accounts.custId,
        rootCustId: accounts.rootCustId,
        permissions: roles.permissions,
        mustResetPassword: accounts.mustResetPassword,
      })
      .from(sessions)
      .innerJoin(accounts, eq(accounts.accountId, sessions.accountId))
      .innerJoin(roles, eq(roles.roleId, accounts.roleId))
      .where(
        and(
          eq(sessions.tokenHash, tokenHash),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, sql`now()`),
          eq(accounts.status, AccountStatus.Normal),
          customerActive,
        ),
      )
      .limit(1);
    const row = rows[0];
    if (!row) {
      this.cache.delete(tokenHash);
      return null;
    }
    const actor: Actor = { ...row, permissions: new Set(row.permissions) };
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(tokenHash, { actor, until: now + CACHE_MS });
    return actor;
  }

  /** The actor of an account without a session (background jobs acting for their owner). */
  async actorOf(accountId: number): Promise<Actor | null> {
    const [row] = await this.db
      .select({
        accountId: accounts.accountId, loginName: accounts.loginName, userName: accounts.userName, roleId: roles.roleId,
        roleName: roles.roleName, roleType: roles.roleType, custId: accounts.custId, rootCustId: accounts.rootCustId,
        permissions: roles.permissions, mustResetPassword: accounts.mustResetPassword,
      })
      .from(accounts)
      .innerJoin(roles, eq(roles.roleId, accounts.roleId))
      .where(and(eq(accounts.accountId, accountId), eq(accounts.status, AccountStatus.Normal), customerActive));
    return row ? { ...row, permissions: new Set(row.permissions) } : null;
  }

  async revoke(ex: Executor, tokenHash: string): Promise<void> {
    await ex.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.tokenHash, tokenHash));
    this.cache.delete(tokenHash);
  }

  /** Ends every session of an account (freeze, password reset), optionally keeping one. */
  async revokeAccount(ex: Executor, accountId: number, keepTokenHash?: string): Promise<void> {
    const where = keepTokenHash
      ? and(eq(sessions.accountId, accountId), isNull(sessions.revokedAt), sql`${sessions.tokenHash} <> ${keepTokenHash}`)
      : and(eq(sessions.accountId, accountId), isNull(sessions.revokedAt));
    await ex.update(sessions).set({ revokedAt: new Date() }).where(where);
    for (const [hash, entry] of this.cache) {
      if (entry.actor.accountId === accountId && hash !== keepTokenHash) this.cache.delete(hash);
    }
  }

  /** Ends every session of the accounts of a customer and, for a first-level customer, of its whole tree. */
  async revokeCustomer(ex: Executor, custId: number): Promise<void> {
    await ex
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(isNull(sessions.revokedAt), sql`${sessions.accountId} in (select a.account_id from accounts a where a.cust_id = ${custId} or a.root_cust_id = ${custId})`));
    for (const [hash, entry] of this.cache) {
      if (entry.actor.custId === custId || entry.actor.rootCustId === custId) this.cache.delete(hash);
    }
  }

  /** Role permissions changed: drop cached actors so the next call reads them again. */
  forgetAll(): void {
    this.cache.clear();
  }
}
