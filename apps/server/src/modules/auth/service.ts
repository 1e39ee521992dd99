import crypto from 'node:crypto';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import svgCaptcha from 'svg-captcha';
import {
  AccountStatus, AuditStatus, BehaviorAction, CustomerStatus, ErrorCode,
  validatePassword, validatePasswordPair, validatePhoneList, validateEmailList,
  type auth as authApi, type BodyOf,
} from '@lynx/contract';
import type { Db, Executor } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import { AppError } from '../../platform/errors.ts';
import { audit, behavior } from '../../platform/audit.ts';
import type { RequestContext, SessionContext } from '../../platform/context.ts';
import type { SessionStore } from '../../platform/sessions.ts';
import { hashPassword, verifyPassword } from '../../platform/passwords.ts';
import { check, blankToNull } from '../../platform/validate.ts';
import { captchas, loginAttempts } from './tables.ts';
import { accounts, customers, registerApplies, roles } from '../account/tables.ts';

export const CAPTCHA_AFTER_FAILURES = 3;
export const LOCK_AFTER_FAILURES = 10;
export const LOCK_WINDOW_MS = 15 * 60_000;
const CAPTCHA_TTL_MS = 5 * 60_000;
const WINDOW = sql.raw(`interval '${LOCK_WINDOW_MS / 1000} seconds'`);

const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

/** A claimed password check: the streak's count and time after it, and the streak's time before it. */
interface Claim {
  n: number;
  last: Date;
  /** exact database texts of the streak's time after and before the claim (a Date would lose the microseconds) */
  lastExact: string;
  previousLastExact: string;
}

const lockedUntil = (last: Date) => {
  const until = last.getTime() + LOCK_WINDOW_MS;
  return new AppError(ErrorCode.AccountLocked, { minutes: Math.max(1, Math.ceil((until - Date.now()) / 60_000)) }, 200, {
    lockedUntil: new Date(until).toISOString(),
  });
};

export class AuthService {
  constructor(
    private db: Db,
    private config: Config,
    private sessions: SessionStore,
  ) {}

  /** Failures of the login name's current streak (checks under way included), and when the last one came. */
  private async recentFailures(loginName: string): Promise<{ n: number; last: Date | null }> {
    const [row] = await this.db
      .select({ n: loginAttempts.failures, last: loginAttempts.lastFailureAt })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.loginName, loginName), sql`${loginAttempts.lastFailureAt} > now() - ${WINDOW}`));
    return row ? { n: row.n, last: row.last } : { n: 0, last: null };
  }

  /**
   * Claims one password check for the login name, under the lock of the name's row: parallel attempts are
   * ordered and each sees the ones before it (the old code read the count before the check and wrote it after).
   * A locked name, or one needing a captcha the attempt lacks or gets wrong, is refused without a claim, so
   * only password checks count and nobody locks a name without solving captchas. The captcha is used up even
   * then (it is good for one try), so the refusal is returned, not thrown, to commit. A streak ends 15 quiet
   * minutes after its last failure.
   */
  private async claimAttempt(loginName: string, captcha: { key: string; code: string } | null): Promise<Claim | AppError> {
    return this.db.transaction(async (tx) => {
      // one statement creates or locks the name's row and reads it (nothing can remove it in between)
      const [row] = await tx
        .insert(loginAttempts)
        .values({ loginName, failures: 0 })
        .onConflictDoUpdate({ target: loginAttempts.loginName, set: { loginName: sql`excluded.login_name` } })
        .returning({
          failures: loginAttempts.failures, last: loginAttempts.lastFailureAt, lastExact: sql<string>`${loginAttempts.lastFailureAt}::text`,
          inStreak: sql<boolean>`${loginAttempts.lastFailureAt} > now() - ${WINDOW}`,
        });
      const before = row.inStreak ? row.failures : 0;
      if (before >= LOCK_AFTER_FAILURES) return lockedUntil(row.last);
      if (this.captchaAfter(before)) {
        if (!captcha) return new AppError(ErrorCode.CaptchaRequired, undefined, 200, { captchaRequired: true });
        if (!(await this.consumeCaptcha(tx, captcha.key, captcha.code))) return new AppError(ErrorCode.CaptchaWrong, undefined, 200, { captchaRequired: true });
      }
      const [claimed] = await tx
        .update(loginAttempts)
        .set({ failures: before + 1, lastFailureAt: sql`now()` })
        .where(eq(loginAttempts.loginName, loginName))
        .returning({ n: loginAttempts.failures, last: loginAttempts.lastFailureAt, lastExact: sql<string>`${loginAttempts.lastFailureAt}::text` });
      return { ...claimed, previousLastExact: row.lastExact };
    });
  }

  private captchaAfter(failures: number): boolean {
    return this.config.captchaMode === 'always' || (this.config.captchaMode === 'after-failures' && failures >= CAPTCHA_AFTER_FAILURES);
  }

  /**
   * Gives back a claim whose password was right: one failure less, and the streak's time as it was before the
   * claim, unless a failure has come since (a right password must not keep an attacker's streak alive).
   */
  private async releaseAttempt(loginName: string, claim: Claim): Promise<void> {
    await this.db
      .update(loginAttempts)
      .set({
        failures: sql`greatest(${loginAttempts.failures} - 1, 0)`,
        lastFailureAt: sql`case when ${loginAttempts.lastFailureAt} = ${claim.lastExact}::timestamptz then ${claim.previousLastExact}::timestamptz else ${loginAttempts.lastFailureAt} end`,
      })
      .where(eq(loginAttempts.loginName, loginName));
  }

  async captchaRequired(loginName: string): Promise<boolean> {
    if (this.config.captchaMode === 'always') return true;
    if (this.config.captchaMode === 'off') return false;
    return (await this.recentFailures(loginName.toLowerCase())).n >= CAPTCHA_AFTER_FAILURES;
  }

  async newCaptcha(): Promise<{ captchaKey: string; image: string; required: boolean }> {
    const c = svgCaptcha.create({ size: 4, noise: 2, ignoreChars: '0oO1ilI', color: true, background: '#f3f6fb' });
    const captchaKey = crypto.randomUUID();
    await this.db.delete(captchas).where(lt(captchas.expiresAt, new Date()));
    await this.db.insert(captchas).values({ captchaKey, codeHash: sha(c.text.toLowerCase()), expiresAt: new Date(Date.now() + CAPTCHA_TTL_MS) });
    return { captchaKey, image: c.data, required: this.config.captchaMode === 'always' };
  }

  /** A captcha is good for one try. */
  private async consumeCaptcha(ex: Executor, key: string, code: string): Promise<boolean> {
    if (!/^[0-9a-f-]{36}$/i.test(key)) return false;
    const rows = await ex.delete(captchas).where(eq(captchas.captchaKey, key)).returning();
    const row = rows[0];
    return !!row && row.expiresAt.getTime() > Date.now() && row.codeHash === sha(code.trim().toLowerCase());
  }

  async login(body: BodyOf<typeof authApi.login>, ctx: RequestContext) {
    const name = body.loginName.toLowerCase();
    const claim = await this.claimAttempt(name, body.captchaKey && body.captchaCode ? { key: body.captchaKey, code: body.captchaCode } : null);
    if (claim instanceof AppError) throw claim;
    let failed = false;
    try {
      const [acc] = await this.db
        .select({ a: accounts, r: roles })
        .from(accounts)
        .innerJoin(roles, eq(roles.roleId, accounts.roleId))
        .where(sql`lower(${accounts.loginName}) = ${name}`)
        .limit(1);
      const good = await verifyPassword(acc?.a.passwordHash ?? null, body.password);
      if (!acc || !good) {
        // the claim stays: it is the failure
        failed = true;
        if (claim.n >= LOCK_AFTER_FAILURES) throw lockedUntil(claim.last);
        throw new AppError(ErrorCode.LoginFailed, undefined, 200, { captchaRequired: this.captchaAfter(claim.n) });
      }
      if (acc.a.status !== AccountStatus.Normal) throw new AppError(ErrorCode.AccountFrozen);
      if (await this.customerExited(acc.a.custId, acc.a.rootCustId)) throw new AppError(ErrorCode.CustomerExited);
      return await this.signIn(acc, ctx);
    } finally {
      // the right password gives back only its own claim: failures counted before or beside it stay, so a
      // correct guess in a burst of wrong ones does not clear the count
      if (!failed) await this.releaseAttempt(name, claim);
    }
  }

  /** True when the account's customer or its first-level customer has exited (the whole tree's access ends). */
  private async customerExited(custId: number | null, rootCustId: number | null): Promise<boolean> {
    const ids = [custId, rootCustId].filter((x): x is number => x != null);
    if (ids.length === 0) return false;
    const rows = await this.db
      .select({ id: customers.custId })
      .from(customers)
      .where(and(inArray(customers.custId, ids), eq(customers.status, CustomerStatus.Exited)))
      .limit(1);
    return rows.length > 0;
  }

  private async signIn(acc: { a: typeof accounts.$inferSelect; r: typeof roles.$inferSelect }, ctx: RequestContext) {
    return this.db.transaction(async (tx) => {
      const session = await this.sessions.create(tx, acc.a.accountId, ctx.ip);
      await tx.update(accounts).set({ lastLoginAt: new Date() }).where(eq(accounts.accountId, acc.a.accountId));
      const actorCtx = { ...ctx, actor: { accountId: acc.a.accountId, loginName: acc.a.loginName, custId: acc.a.custId, rootCustId: acc.a.rootCustId } } as RequestContext;
      await behavior(tx, actorCtx, { action: BehaviorAction.Login, loginName: acc.a.loginName, accountId: acc.a.accountId });
      await audit(tx, actorCtx, { entity: 'session', entityId: acc.a.accountId, after: { loginName: acc.a.loginName, expiresAt: session.expiresAt } });
      ctx.audited = true;
      return {
        accessToken: session.token,
        roleId: acc.r.roleType,
        roleName: acc.r.roleName,
        loginName: acc.a.loginName,
        userName: acc.a.userName,
        // channelCustId is the first-level customer the account belongs to; custId its own customer
        channelCustId: acc.a.rootCustId,
        custId: acc.a.custId,
        permissions: [...acc.r.permissions].sort((a, b) => a - b),
        mustResetPassword: acc.a.mustResetPassword,
        expiresAt: session.expiresAt.toISOString(),
      };
    });
  }

  async logout(ctx: SessionContext) {
    await this.db.transaction(async (tx) => {
      await this.sessions.revoke(tx, ctx.tokenHash!);
      await behavior(tx, ctx, { action: BehaviorAction.Logout, loginName: ctx.actor.loginName });
      await audit(tx, ctx, { entity: 'session', entityId: ctx.actor.accountId, before: { active: true }, after: { active: false } });
    });
    return null;
  }

  async register(body: BodyOf<typeof authApi.register>, ctx: RequestContext) {
    check('password', validatePassword(body.password));
    check('confirmPassword', validatePasswordPair(body.password, body.confirmPassword));
    check('adminPhone', validatePhoneList(body.adminPhone));
    check('adminEmail', validateEmailList(body.adminEmail));
    const name = body.loginName.toLowerCase();
    const passwordHash = await hashPassword(body.password);
    return this.db.transaction(async (tx) => {
      const taken = await tx.select({ id: accounts.accountId }).from(accounts).where(sql`lower(${accounts.loginName}) = ${name}`).limit(1);
      const pending = await tx
        .select({ id: registerApplies.applyId })
        .from(registerApplies)
        .where(and(sql`lower(${registerApplies.loginName}) = ${name}`, eq(registerApplies.auditStatus, AuditStatus.Submitted)))
        .limit(1);
      if (taken.length || pending.length) throw new AppError(ErrorCode.LoginNameTaken);
      const custTaken = await tx
        .select({ id: customers.custId })
        .from(customers)
        .where(sql`lower(${customers.custName}) = ${body.custName.trim().toLowerCase()}`)
        .limit(1);
      if (custTaken.length) throw new AppError(ErrorCode.CustomerNameTaken);
      const [row] = await tx
        .insert(registerApplies)
        .values({
          loginName: body.loginName,
          passwordHash,
          custName: body.custName.trim(),
          adminName: body.adminName.trim(),
          adminPhone: body.adminPhone,
          adminEmail: body.adminEmail,
          businessLicense: blankToNull(body.businessLicense),
          website: blankToNull(body.website),
          remark: blankToNull(body.remark),
        })
        .returning();
      await audit(tx, ctx, { entity: 'registerApply', entityId: row.applyId, after: row, custId: null, rootCustId: null });
      return { applyId: row.applyId };
    });
  }

  async changeOwnPassword(body: BodyOf<typeof authApi.resetPassword>, ctx: SessionContext) {
    check('newPassword', validatePassword(body.newPassword));
    check('confirmPassword', validatePasswordPair(body.newPassword, body.confirmPassword));
    const [acc] = await this.db.select().from(accounts).where(eq(accounts.accountId, ctx.actor.accountId));
    if (!(await verifyPassword(acc?.passwordHash ?? null, body.oldPassword))) throw new AppError(ErrorCode.OldPasswordWrong);
    const passwordHash = await hashPassword(body.newPassword);
    await this.db.transaction(async (tx) => {
      await tx.update(accounts).set({ passwordHash, mustResetPassword: false, updatedAt: new Date() }).where(eq(accounts.accountId, acc.accountId));
      await this.sessions.revokeAccount(tx, acc.accountId, ctx.tokenHash ?? undefined);
      await behavior(tx, ctx, { action: BehaviorAction.ChangePassword, loginName: acc.loginName, target: acc.loginName });
      await audit(tx, ctx, { entity: 'account', entityId: acc.accountId, before: { mustResetPassword: acc.mustResetPassword }, after: { mustResetPassword: false, passwordChanged: true } });
    });
    this.sessions.forgetAll();
    return null;
  }
}
