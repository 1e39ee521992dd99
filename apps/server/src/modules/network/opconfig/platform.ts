import type { FastifyInstance } from 'fastify';
import { and, count, desc, eq, ilike, sql, type SQL } from 'drizzle-orm';
import { ErrorCode, PlatformConfigState, PlatformType, opconfig, type BodyOf } from '@lynx/contract';
import { bind } from '../../../platform/http.ts';
import type { AppDeps } from '../../../app.ts';
import { AppError, FieldError, notFound } from '../../../platform/errors.ts';
import { audit } from '../../../platform/audit.ts';
import type { Actor } from '../../../platform/context.ts';
import { contains, orderOf, pageFrom, pageOf, totalOver } from '../../../platform/paging.ts';
import { blankToNull } from '../../../platform/validate.ts';
import type { Executor } from '../../../db/client.ts';
import { maskSecret, type SecretBox } from './secrets.ts';
import { platformConfigs } from './tables.ts';
import { platformSecretsPurpose } from './service.ts';
import { staffOnly } from './access.ts';
import { uniqueRace } from '../unique-race.ts';

/** a lost race on the name index answers like the explicit check */
const NAME_UQ = { platform_configs_name_uq: () => new AppError(ErrorCode.PlatformConfigNameTaken, undefined, 200, { field: 'name' }) };

type Row = typeof platformConfigs.$inferSelect;
type Values = Record<string, string | number | boolean | null>;

const schemaOf = (platformType: number) => {
  const s = opconfig.platformSchemaOf(platformType);
  if (!s) throw new FieldError('platformType', { zh: '未知的平台类型', en: 'unknown platform type' });
  return s;
};

export function platformRoutes(app: FastifyInstance, deps: AppDeps, box: SecretBox) {
  const { db } = deps;

  const secretsOf = (r: Row): Record<string, string> => {
    try {
      return box.openJson(r.secretsSealed, platformSecretsPurpose(r.id));
    } catch {
      return {};
    }
  };
  /** the entry as it may leave the server: secret fields masked */
  const view = (r: Row) => {
    const schema = opconfig.platformSchemaOf(r.platformType);
    const stored = secretsOf(r);
    const secrets = Object.fromEntries((schema ? opconfig.secretKeysOf(schema) : []).map((k) => [k, maskSecret(stored[k])]));
    return {
      id: r.id, platformType: r.platformType, name: r.name, fields: r.fieldValues, secrets, state: r.state, remark: r.remark,
      createdBy: r.createdBy, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(),
    };
  };

  bind(app, deps, opconfig.getPlatformTypes, async (_b, ctx) => {
    staffOnly(ctx.actor);
    const rows = await db
      .select({ t: platformConfigs.platformType, total: count(), on: sql<number>`count(*) filter (where ${platformConfigs.state} = ${PlatformConfigState.On})`.mapWith(Number) })
      .from(platformConfigs)
      .groupBy(platformConfigs.platformType);
    const by = new Map(rows.map((r) => [r.t, r]));
    return PlatformType.values.map((t) => ({ platformType: t, total: Number(by.get(t)?.total ?? 0), on: by.get(t)?.on ?? 0 }));
  });

  bind(app, deps, opconfig.getPlatformSchema, async (b, ctx) => {
    staffOnly(ctx.actor);
    const s = schemaOf(b.platformType);
    return { platformType: s.platformType, description: s.description, fields: s.fields };
  });

  const page = async (q: BodyOf<typeof opconfig.getPlatformPage>, actor: Actor) => {
    staffOnly(actor);
    const p = pageOf(q);
    const where: SQL[] = [];
    if (q.platformType !== undefined) where.push(eq(platformConfigs.platformType, q.platformType));
    if (q.name) where.push(ilike(platformConfigs.name, contains(q.name)));
    if (q.state !== undefined) where.push(eq(platformConfigs.state, q.state));
    const cond = where.length ? and(...where) : undefined;
    const { rows, total } = await pageFrom(
      await db
        .select({ c: platformConfigs, total: totalOver() })
        .from(platformConfigs)
        .where(cond)
        .orderBy(...orderOf(q, { name: platformConfigs.name, updatedAt: platformConfigs.updatedAt }, [desc(platformConfigs.id)]))
        .limit(p.limit)
        .offset(p.offset),
      p,
      async () => Number((await db.select({ n: count() }).from(platformConfigs).where(cond))[0].n),
    );
    return { list: rows.map((r) => view(r.c)), total, current: p.current, pageSize: p.pageSize };
  };
  bind(app, deps, opconfig.getPlatformPage, (q, ctx) => page(q, ctx.actor));

  bind(app, deps, opconfig.getPlatformConfig, async (b, ctx) => {
    staffOnly(ctx.actor);
    const [r] = await db.select().from(platformConfigs).where(eq(platformConfigs.id, b.id));
    if (!r) throw notFound();
    return view(r);
  });

  const nameFree = async (ex: Executor, platformType: number, name: string, except?: number) => {
    const rows = await ex
      .select({ id: platformConfigs.id })
      .from(platformConfigs)
      .where(and(eq(platformConfigs.platformType, platformType), sql`lower(${platformConfigs.name}) = ${name.trim().toLowerCase()}`));
    if (rows.some((r) => r.id !== except)) throw new AppError(ErrorCode.PlatformConfigNameTaken, undefined, 200, { field: 'name' });
  };

  /**
   * Validates the values against the type's schema and splits them: plain fields (trimmed, empty → null)
   * and secrets (typed ones replace the stored ones, empty keeps them).
   */
  const split = (platformType: number, values: Values, stored: Record<string, string>) => {
    const schema = schemaOf(platformType);
    const secretKeys = opconfig.secretKeysOf(schema);
    const err = opconfig.validatePlatformFields(schema, values, secretKeys.filter((k) => stored[k]));
    if (err) throw new FieldError(`fields.${err.field}`, err.reason);
    const plain: Values = {};
    const secrets: Record<string, string> = { ...stored };
    for (const f of schema.fields) {
      const v = values[f.key];
      if (f.type === 'secret') {
        if (typeof v === 'string' && v.trim()) secrets[f.key] = v;
      } else if (f.type === 'boolean') {
        plain[f.key] = v === true;
      } else {
        plain[f.key] = typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : (v ?? null);
      }
    }
    return { plain, secrets };
  };
  const sealSecrets = (secrets: Record<string, string>, id: number) => (Object.keys(secrets).length ? box.sealJson(secrets, platformSecretsPurpose(id)) : null);

  bind(app, deps, opconfig.savePlatformConfig, async (b, ctx) => {
    staffOnly(ctx.actor);
    const { plain, secrets } = split(b.platformType, b.fields, {});
    return uniqueRace(NAME_UQ, () => db.transaction(async (tx) => {
      await nameFree(tx, b.platformType, b.name);
      const [row] = await tx
        .insert(platformConfigs)
        .values({
          platformType: b.platformType, name: b.name.trim(), fieldValues: plain, state: b.state ?? PlatformConfigState.On,
          remark: blankToNull(b.remark), createdBy: ctx.actor.loginName,
        })
        .returning();
      const [after] = await tx.update(platformConfigs).set({ secretsSealed: sealSecrets(secrets, row.id) }).where(eq(platformConfigs.id, row.id)).returning();
      await audit(tx, ctx, { entity: 'platformConfig', entityId: row.id, after: view(after), custId: null, rootCustId: null });
      return { id: row.id };
    }));
  });

  bind(app, deps, opconfig.updatePlatformConfig, async (b, ctx) => {
    staffOnly(ctx.actor);
    await uniqueRace(NAME_UQ, () => db.transaction(async (tx) => {
      const [before] = await tx.select().from(platformConfigs).where(eq(platformConfigs.id, b.id)).for('update');
      if (!before) throw notFound();
      const stored = secretsOf(before);
      const { plain, secrets } = split(before.platformType, b.fields, stored);
      await nameFree(tx, before.platformType, b.name, b.id);
      const [after] = await tx
        .update(platformConfigs)
        .set({ name: b.name.trim(), fieldValues: plain, secretsSealed: sealSecrets(secrets, b.id), remark: blankToNull(b.remark ?? null), updatedAt: new Date() })
        .where(eq(platformConfigs.id, b.id))
        .returning();
      const changed = Object.keys(secrets).filter((k) => secrets[k] !== stored[k]);
      await audit(tx, ctx, { entity: 'platformConfig', entityId: b.id, before: view(before), after: { ...view(after), secretsChanged: changed }, custId: null, rootCustId: null });
    }));
    return null;
  });

  bind(app, deps, opconfig.deletePlatformConfig, async (b, ctx) => {
    staffOnly(ctx.actor);
    await db.transaction(async (tx) => {
      const [before] = await tx.delete(platformConfigs).where(eq(platformConfigs.id, b.id)).returning();
      if (!before) throw notFound();
      await audit(tx, ctx, { entity: 'platformConfig', entityId: b.id, before: view(before), custId: null, rootCustId: null });
    });
    return null;
  });

  bind(app, deps, opconfig.updatePlatformState, async (b, ctx) => {
    staffOnly(ctx.actor);
    if (!PlatformConfigState.has(b.state)) throw new FieldError('state', { zh: '取值无效', en: 'has an invalid value' });
    await db.transaction(async (tx) => {
      const [before] = await tx.select().from(platformConfigs).where(eq(platformConfigs.id, b.id)).for('update');
      if (!before) throw notFound();
      await tx.update(platformConfigs).set({ state: b.state, updatedAt: new Date() }).where(eq(platformConfigs.id, b.id));
      await audit(tx, ctx, { entity: 'platformConfig.state', entityId: b.id, before: { state: before.state }, after: { state: b.state }, custId: null, rootCustId: null });
    });
    return null;
  });
}
