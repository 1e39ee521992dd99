import crypto from 'node:crypto';
import { and, eq, gt, lt, sql, count, max } from 'drizzle-orm';
import svgCaptcha from 'svg-captcha';
import {
  AccountStatus, AuditStatus, BehaviorAction, ErrorCode,
  validatePassword, validatePasswordPair, validatePhoneList, validateEmailList,
  type auth as authApi, type BodyOf,
} from '@lynx/contract';
import type { Db } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import { AppError } from '../../platform/errors.ts';
import { audit, behavior } from '../../platform/audit.ts';
import type { RequestContext, SessionContext } from '../../platform/context.ts';
import type { SessionStore } from '../../platform/sessions.ts';
import { hashPassword, verifyPassword } from '../../platform/passwords.ts';
import { check, blankToNull } from '../../platform/validate.ts';
import { captchas, loginFailures } from './tables.ts';
import { accounts, customers, registerApplies, roles } from '../account/tables.ts';

export const CAPTCHA_AFTER_FAILURES = 3;
export const LOCK_AFTER_FAILURES = 10;
export const LOCK_WINDOW_MS = 15 * 60_000;
const CAPTCHA_TTL_MS = 5 * 60_000;

const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

export class AuthService {
  constructor(
    private db: Db,
    private config: Config,
    private sessions: SessionStore,
  ) {}

  private async recentFailures(loginName: string): Promise<{ n: number; last: Date | null }> {
    const [row] = await this.db
      .select({ n: count(), last: max(loginFailures.failedAt) })
      .from(loginFailures)
      .where(and(eq(loginFailures.loginName, loginName), gt(loginFailures.failedAt, new Date(Date.now() - LOCK_WINDOW_MS))));
    return { n: Number(row?.n ?? 0), last: row?.last ? new Date(row.last) : null };
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
  private async consumeCaptcha(key: string, code: string): Promise<boolean> {
    if (!/^[0-9a-f-]{36}$/i.test(key)) return false;
    const rows = await this.db.delete(captchas).where(eq(captchas.captchaKey, key)).returning();
    const row = rows[0];
    return !!row && row.expiresAt.getTime() > Date.now() && row.codeHash === sha(code.trim().toLowerCase());
  }

  async login(body: BodyOf<typeof authApi.login>, ctx: RequestContext) {
    const name = body.loginName.toLowerCase();
    const failures = await this.recentFailures(name);
    if (failures.n >= LOCK_AFTER_FAILURES && failures.last) {
      const until = failures.last.getTime() + LOCK_WINDOW_MS;
      throw new AppError(ErrorCode.AccountLocked, { minutes: Math.max(1, Math.ceil((until - Date.now()) / 60_000)) }, 200, {
        lockedUntil: new Date(until).toISOString(),
      });
    }
    const needCaptcha =
      this.config.captchaMode === 'always' ||
      (this.config.captchaMode === 'after-failures' && failures.n >= CAPTCHA_AFTER_FAILURES);
    if (needCaptcha) {
      if (!body.captchaKey || !body.captchaCode) throw new AppError(ErrorCode.CaptchaRequired, undefined, 200, { captchaRequired: true });
      if (!(await this.consumeCaptcha(body.captchaKey, body.captchaCode))) {
        throw new AppError(ErrorCode.CaptchaWrong, undefined, 200, { captchaRequired: true });
      }
    }
    const [acc] = await this.db
      .select({ a: accounts, r: roles })
      .from(accounts)
      .innerJoin(roles, eq(roles.roleId, accounts.roleId))
      .where(sql`lower(${accounts.loginName}) = ${name}`)
      .limit(1);
    const good = await verifyPassword(acc?.a.passwordHash ?? null, body.password);
    if (!acc || !good) {
      await this.db.insert(loginFailures).values({ loginName: name });
      const n = failures.n + 1;
      if (n >= LOCK_AFTER_FAILURES) {
        throw new AppError(ErrorCode.AccountLocked, { minutes: LOCK_WINDOW_MS / 60_000 }, 200, {
          lockedUntil: new Date(Date.now() + LOCK_WINDOW_MS).toISOString(),
        });
      }
      throw new AppError(ErrorCode.LoginFailed, undefined, 200, {
        captchaRequired: this.config.captchaMode === 'always' || (this.config.captchaMode === 'after-failures' && n >= CAPTCHA_AFTER_FAILURES),
      });
    }
    if (acc.a.status !== AccountStatus.Normal) throw new AppError(ErrorCode.AccountFrozen);

    return this.db.transaction(async (tx) => {
      await tx.delete(loginFailures).where(eq(loginFailures.loginName, name));
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
