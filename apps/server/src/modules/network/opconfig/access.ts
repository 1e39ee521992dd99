import type { FastifyInstance } from 'fastify';
import { and, count, desc, eq, ilike, sql, type SQL } from 'drizzle-orm';
import { ErrorCode, Operator, opconfig, type BodyOf } from '@lynx/contract';
import { bind } from '../../../platform/http.ts';
import type { AppDeps } from '../../../app.ts';
import { AppError, FieldError, denied, notFound } from '../../../platform/errors.ts';
import { audit } from '../../../platform/audit.ts';
import { isStaff, type Actor } from '../../../platform/context.ts';
import { contains, iso, orderOf, pageFrom, pageOf, totalOver } from '../../../platform/paging.ts';
import { blankToNull } from '../../../platform/validate.ts';
import type { Executor } from '../../../db/client.ts';
import { operators } from '../../account/tables.ts';
import { isInstalledAdapter } from '../../../operators/registry.ts';
import { issueSimulatorCredentials } from '../../../operators/simulator.ts';
import { maskSecret, type SecretBox } from './secrets.ts';
import { commPlans, operatorAccounts } from './tables.ts';
import { credentialsPurpose, gatewayOfAccount, openCredentials, openFailuresOf, type StoredCredentials } from './service.ts';
import { uniqueRace } from '../unique-race.ts';

type Row = typeof operatorAccounts.$inferSelect;

export const staffOnly = (actor: Actor) => {
  if (!isStaff(actor)) throw denied();
};

/** The access configuration as it may leave the server: credentials masked, never in full. */
export function accountView(box: SecretBox, r: Row, commPlanCount: number) {
  let c: StoredCredentials;
  try {
    c = openCredentials(box, r);
  } catch {
    // a changed key: the record still lists, with the credentials shown as missing so they get typed again
    c = {};
  }
  return {
    operAccountId: r.operAccountId, operatorId: r.operatorId, accountName: r.accountName, endpointUrl: r.endpointUrl,
    apiVersion: r.apiVersion, adapter: r.adapter,
    credentials: { appKey: maskSecret(c.appKey), appSecret: maskSecret(c.appSecret), password: maskSecret(c.password) },
    simFailureRate: r.simFailureRate, simFailIccidPattern: r.simFailIccidPattern, remark: r.remark,
    lastTestAt: iso(r.lastTestAt), lastTestOk: r.lastTestOk, lastTestMessage: r.lastTestMessage, lastTestLatencyMs: r.lastTestLatencyMs,
    commPlanCount, createdBy: r.createdBy, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(),
  };
}

/** a lost race on the name index answers like the explicit check */
const NAME_UQ = { operator_accounts_name_uq: () => new AppError(ErrorCode.OperAccountNameTaken, undefined, 200, { field: 'accountName' }) };

const planCount = sql<number>`(select count(*) from comm_plans c where c.oper_account_id = "operator_accounts"."oper_account_id")`.mapWith(Number);

export function accessRoutes(app: FastifyInstance, deps: AppDeps, box: SecretBox) {
  const { db } = deps;
  /** the audit trail gets the masked view only */
  const auditView = (r: Row) => accountView(box, r, 0);

  const page = async (q: BodyOf<typeof opconfig.getOperatorAccountPage>, actor: Actor) => {
    staffOnly(actor);
    const p = pageOf(q);
    const where: SQL[] = [];
    if (q.accountName) where.push(ilike(operatorAccounts.accountName, contains(q.accountName)));
    if (q.operatorId !== undefined) where.push(eq(operatorAccounts.operatorId, q.operatorId));
    if (q.adapter) where.push(eq(operatorAccounts.adapter, q.adapter));
    const cond = where.length ? and(...where) : undefined;
    const { rows, total } = await pageFrom(
      await db
        .select({ a: operatorAccounts, plans: planCount, total: totalOver() })
        .from(operatorAccounts)
        .where(cond)
        .orderBy(...orderOf(q, { accountName: operatorAccounts.accountName, updatedAt: operatorAccounts.updatedAt }, [desc(operatorAccounts.operAccountId)]))
        .limit(p.limit)
        .offset(p.offset),
      p,
      async () => Number((await db.select({ n: count() }).from(operatorAccounts).where(cond))[0].n),
    );
    return { list: rows.map((r) => accountView(box, r.a, r.plans)), total, current: p.current, pageSize: p.pageSize };
  };
  bind(app, deps, opconfig.getOperatorAccountPage, (q, ctx) => page(q, ctx.actor));

  bind(app, deps, opconfig.getOperatorAccount, async (b, ctx) => {
    staffOnly(ctx.actor);
    const [r] = await db.select({ a: operatorAccounts, plans: planCount }).from(operatorAccounts).where(eq(operatorAccounts.operAccountId, b.operAccountId));
    if (!r) throw notFound();
    return accountView(box, r.a, r.plans);
  });

  bind(app, deps, opconfig.getOperatorAccountOptions, async (b, ctx) => {
    staffOnly(ctx.actor);
    return db
      .select({ operAccountId: operatorAccounts.operAccountId, operatorId: operatorAccounts.operatorId, accountName: operatorAccounts.accountName, adapter: operatorAccounts.adapter })
      .from(operatorAccounts)
      .where(b.operatorId !== undefined ? eq(operatorAccounts.operatorId, b.operatorId) : undefined)
      .orderBy(operatorAccounts.operatorId, operatorAccounts.accountName);
  });

  type Fields = Partial<BodyOf<typeof opconfig.saveOperatorAccount>>;
  const checkFields = async (ex: Executor, b: Fields, adapter: string) => {
    if (b.operatorId !== undefined) {
      const [o] = await ex.select({ id: operators.operatorId }).from(operators).where(eq(operators.operatorId, b.operatorId));
      if (!o) throw new FieldError('operatorId', { zh: '运营商不存在', en: 'unknown operator' });
    }
    if (b.accountName !== undefined && !b.accountName.trim()) throw new FieldError('accountName', { zh: '必填', en: 'is required' });
    if (b.endpointUrl !== undefined && !opconfig.isHttpUrl(b.endpointUrl.trim())) {
      throw new FieldError('endpointUrl', { zh: '应为以 http:// 或 https:// 开头的地址', en: 'must be an address starting with http:// or https://' });
    }
    // the address is listed, exported and audited in clear: credentials belong in the secret fields
    if (b.endpointUrl !== undefined && opconfig.urlHasCredentials(b.endpointUrl.trim())) {
      throw new FieldError('endpointUrl', opconfig.URL_CREDENTIALS_REASON);
    }
    if (b.adapter !== undefined && !isInstalledAdapter(b.adapter)) throw new AppError(ErrorCode.GatewayAdapterUnavailable, { adapter: b.adapter }, 200, { field: 'adapter' });
    const pattern = blankToNull(b.simFailIccidPattern);
    if (pattern && !new RegExp(opconfig.ICCID_PATTERN_RE).test(pattern)) {
      throw new FieldError('simFailIccidPattern', { zh: '只能包含数字、字母 A-F、* 和 ?', en: 'may contain only digits, letters A-F, * and ?' });
    }
    if (adapter !== 'simulator' && (b.issueSimulatorCredentials || (b.simFailureRate ?? 0) > 0 || pattern)) {
      throw new FieldError('adapter', { zh: '模拟器选项只适用于内置网络模拟器', en: 'simulator options apply to the built-in network simulator only' });
    }
  };
  const nameFree = async (ex: Executor, operatorId: number, name: string, except?: number) => {
    const rows = await ex
      .select({ id: operatorAccounts.operAccountId })
      .from(operatorAccounts)
      .where(and(eq(operatorAccounts.operatorId, operatorId), sql`lower(${operatorAccounts.accountName}) = ${name.trim().toLowerCase()}`));
    if (rows.some((r) => r.id !== except)) throw new AppError(ErrorCode.OperAccountNameTaken, undefined, 200, { field: 'accountName' });
  };
  /** typed secrets replace stored ones; empty or missing keeps what is stored */
  const mergeCredentials = (stored: StoredCredentials, b: Fields): StoredCredentials => {
    const next: StoredCredentials = { ...stored };
    if (b.issueSimulatorCredentials) Object.assign(next, issueSimulatorCredentials());
    for (const k of opconfig.CREDENTIAL_FIELDS) {
      const v = b[k];
      if (typeof v === 'string' && v.trim() !== '') next[k] = v.trim();
    }
    if (b.clearPassword && !(typeof b.password === 'string' && b.password.trim())) delete next.password;
    return next;
  };
  const requireCredentials = (c: StoredCredentials) => {
    if (!c.appKey) throw new FieldError('appKey', { zh: '必填', en: 'is required' });
    if (!c.appSecret) throw new FieldError('appSecret', { zh: '必填', en: 'is required' });
  };
  const seal = (c: StoredCredentials, id: number) => box.sealJson(c as Record<string, string>, credentialsPurpose(id));

  bind(app, deps, opconfig.saveOperatorAccount, async (b, ctx) => {
    staffOnly(ctx.actor);
    return uniqueRace(NAME_UQ, () => db.transaction(async (tx) => {
      await checkFields(tx, b, b.adapter);
      await nameFree(tx, b.operatorId, b.accountName);
      const creds = mergeCredentials({}, b);
      requireCredentials(creds);
      const [row] = await tx
        .insert(operatorAccounts)
        .values({
          operatorId: b.operatorId, accountName: b.accountName.trim(), endpointUrl: b.endpointUrl.trim(), apiVersion: b.apiVersion, adapter: b.adapter,
          credentialsSealed: 'pending', simFailureRate: b.simFailureRate ?? 0, simFailIccidPattern: blankToNull(b.simFailIccidPattern),
          remark: blankToNull(b.remark), createdBy: ctx.actor.loginName,
        })
        .returning();
      // the row id is part of the associated data, so the credentials are sealed once the id exists
      const [sealed] = await tx
        .update(operatorAccounts)
        .set({ credentialsSealed: seal(creds, row.operAccountId) })
        .where(eq(operatorAccounts.operAccountId, row.operAccountId))
        .returning();
      await audit(tx, ctx, { entity: 'operatorAccount', entityId: row.operAccountId, after: auditView(sealed), custId: null, rootCustId: null });
      return { operAccountId: row.operAccountId };
    }));
  });

  bind(app, deps, opconfig.updateOperatorAccount, async (b, ctx) => {
    staffOnly(ctx.actor);
    await uniqueRace(NAME_UQ, () => db.transaction(async (tx) => {
      const [before] = await tx.select().from(operatorAccounts).where(eq(operatorAccounts.operAccountId, b.operAccountId)).for('update');
      if (!before) throw notFound();
      const adapter = b.adapter ?? before.adapter;
      await checkFields(tx, b, adapter);
      const operatorId = b.operatorId ?? before.operatorId;
      if (b.accountName !== undefined || b.operatorId !== undefined) await nameFree(tx, operatorId, b.accountName ?? before.accountName, b.operAccountId);
      let stored: StoredCredentials;
      try {
        stored = openCredentials(box, before);
      } catch {
        stored = {}; // the key changed: the new values must be typed in full
      }
      const creds = mergeCredentials(stored, b);
      requireCredentials(creds);
      const [after] = await tx
        .update(operatorAccounts)
        .set({
          ...(b.operatorId !== undefined && { operatorId: b.operatorId }),
          ...(b.accountName !== undefined && { accountName: b.accountName.trim() }),
          ...(b.endpointUrl !== undefined && { endpointUrl: b.endpointUrl.trim() }),
          ...(b.apiVersion !== undefined && { apiVersion: b.apiVersion }),
          ...(b.adapter !== undefined && { adapter: b.adapter }),
          ...(b.simFailureRate !== undefined && { simFailureRate: b.simFailureRate }),
          ...(b.simFailIccidPattern !== undefined && { simFailIccidPattern: blankToNull(b.simFailIccidPattern) }),
          ...(b.remark !== undefined && { remark: blankToNull(b.remark) }),
          credentialsSealed: seal(creds, b.operAccountId),
          updatedAt: new Date(),
        })
        .where(eq(operatorAccounts.operAccountId, b.operAccountId))
        .returning();
      const changed = opconfig.CREDENTIAL_FIELDS.filter((k) => creds[k] !== stored[k]);
      await audit(tx, ctx, {
        entity: 'operatorAccount', entityId: b.operAccountId, before: auditView(before),
        after: { ...auditView(after), credentialsChanged: changed }, custId: null, rootCustId: null,
      });
    }));
    return null;
  });

  bind(app, deps, opconfig.deleteOperatorAccount, async (b, ctx) => {
    staffOnly(ctx.actor);
    await db.transaction(async (tx) => {
      const [before] = await tx.select().from(operatorAccounts).where(eq(operatorAccounts.operAccountId, b.operAccountId)).for('update');
      if (!before) throw notFound();
      const [{ plans }] = await tx.select({ plans: count() }).from(commPlans).where(eq(commPlans.operAccountId, b.operAccountId));
      const failures = await openFailuresOf(tx, b.operAccountId);
      if (Number(plans) > 0 || failures > 0) throw new AppError(ErrorCode.OperAccountInUse, { plans: Number(plans), failures });
      await tx.delete(operatorAccounts).where(eq(operatorAccounts.operAccountId, b.operAccountId));
      await audit(tx, ctx, { entity: 'operatorAccount', entityId: b.operAccountId, before: auditView(before), custId: null, rootCustId: null });
    });
    return null;
  });

  bind(app, deps, opconfig.testOperatorAccount, async (b, ctx) => {
    staffOnly(ctx.actor);
    const [row] = await db.select().from(operatorAccounts).where(eq(operatorAccounts.operAccountId, b.operAccountId));
    if (!row) throw notFound();
    const gateway = gatewayOfAccount(box, row);
    if (!gateway) throw new AppError(ErrorCode.GatewayAdapterUnavailable, { adapter: row.adapter });
    const r = await gateway.testConnection();
    const testedAt = new Date();
    const result = r.ok
      ? { ok: true, latencyMs: r.latencyMs, message: `${r.data.platform} ${r.data.apiVersion}`, apiVersion: r.data.apiVersion, platform: r.data.platform }
      : { ok: false, latencyMs: r.latencyMs, message: `${r.code}: ${r.message}`, apiVersion: null, platform: null };
    await db.transaction(async (tx) => {
      const [after] = await tx
        .update(operatorAccounts)
        .set({ lastTestAt: testedAt, lastTestOk: result.ok, lastTestMessage: result.message, lastTestLatencyMs: result.latencyMs })
        .where(eq(operatorAccounts.operAccountId, b.operAccountId))
        .returning();
      if (!after) throw notFound();
      await audit(tx, ctx, {
        entity: 'operatorAccount.test', entityId: b.operAccountId,
        after: { ok: result.ok, latencyMs: result.latencyMs, message: result.message }, custId: null, rootCustId: null,
      });
    });
    return { ...result, testedAt: testedAt.toISOString() };
  });

  deps.exports.register(opconfig.getOperatorAccountPage, {
    title: { zh: '接入配置', en: 'Access configuration' },
    filters: {
      accountName: { title: { zh: '账号名称', en: 'Account name' } },
      adapter: { title: { zh: '适配器', en: 'Adapter' } },
    },
    page,
    columns: [
      { key: 'accountName', title: { zh: '账号名称', en: 'Account name' } },
      { key: 'operatorId', title: { zh: '运营商', en: 'Operator' }, enum: Operator },
      { key: 'endpointUrl', title: { zh: '接口地址', en: 'Endpoint URL' } },
      { key: 'apiVersion', title: { zh: '接口版本', en: 'API version' } },
      { key: 'adapter', title: { zh: '网关适配器', en: 'Gateway adapter' } },
      { key: 'commPlanCount', title: { zh: '通信计划数', en: 'Communication plans' }, type: 'number' },
      { key: 'lastTestMessage', title: { zh: '最近测试结果', en: 'Last test result' } },
      { key: 'updatedAt', title: { zh: '更新时间', en: 'Updated' }, type: 'datetime' },
    ],
  });
}
