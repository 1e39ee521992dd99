import { and, asc, count, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import {
  ErrorCode, FirewallAction, FirewallAddressType, FirewallDirection, FirewallPolicyStatus, FirewallProtocol, formatValidationMessage, ipToNumber,
  netconfig, type AddressScope, type BodyOf,
} from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import { AppError, FieldError, notFound } from '../../../platform/errors.ts';
import { audit } from '../../../platform/audit.ts';
import type { SessionContext } from '../../../platform/context.ts';
import { contains, orderOf, pageFrom, pageOf, totalOver } from '../../../platform/paging.ts';
import { blankToNull } from '../../../platform/validate.ts';
import { operators } from '../../account/tables.ts';
import { fwAddresses, fwPolicies, fwPolicyAddresses } from './tables.ts';

type AddressRow = typeof fwAddresses.$inferSelect;
type PolicyRow = typeof fwPolicies.$inferSelect;
type AddressBody = BodyOf<typeof netconfig.addFirewallAddress>;
type PolicyBody = BodyOf<typeof netconfig.addFirewallPolicy>;
const { addressText, normalizePortList, protocolHasPorts, validateAddressValue, validatePortList } = netconfig;

const fieldError = (field: string, err: Parameters<typeof formatValidationMessage>[0]) =>
  new FieldError(field, { zh: formatValidationMessage(err, 'zh'), en: formatValidationMessage(err, 'en') });

const enumCheck = (field: string, ok: boolean) => {
  if (!ok) throw new FieldError(field, { zh: '取值无效', en: 'has an invalid value' });
};

/** Firewall address books (srcaddr / dstaddr) and the policies built from them. */
export class FirewallService {
  constructor(private db: Db) {}

  // ------------------------------------------------------------------ addresses

  private toAddress(r: AddressRow, policyCount: number) {
    return {
      addressId: r.addressId, addressScope: r.addressScope, addressName: r.addressName, addressType: r.addressType,
      ipAddress: r.ipAddress, startIp: r.startIp, endIp: r.endIp, address: addressText(r), description: r.description,
      policyCount, createdBy: r.createdBy, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(),
    };
  }

  async addressPage(q: BodyOf<typeof netconfig.getFirewallAddressPage>) {
    const p = pageOf(q);
    const where: SQL[] = [eq(fwAddresses.addressScope, q.addressScope)];
    if (q.addressName) where.push(ilike(fwAddresses.addressName, contains(q.addressName)));
    if (q.addressType !== undefined) where.push(eq(fwAddresses.addressType, q.addressType));
    if (q.ip) {
      // an address "contains" the IP searched for: equal single IP, inside the range, or inside the CIDR block
      const n = ipToNumber(q.ip.trim());
      if (n === null) throw fieldError('ip', { key: 'ipInvalid', params: { value: q.ip } });
      where.push(sql`${fwAddresses.addressId} in (${this.addressesContaining(n)})`);
    }
    const cond = and(...where);
    const policyCount = sql<number>`(select count(*) from fw_policy_addresses pa where pa.address_id = "fw_addresses"."address_id")`.mapWith(Number);
    const { rows, total } = await pageFrom(
      await this.db
        .select({ a: fwAddresses, policyCount, total: totalOver() })
        .from(fwAddresses)
        .where(cond)
        .orderBy(...orderOf(q, { addressName: fwAddresses.addressName, updatedAt: fwAddresses.updatedAt }, [desc(fwAddresses.addressId)]))
        .limit(p.limit)
        .offset(p.offset),
      p,
      async () => Number((await this.db.select({ n: count() }).from(fwAddresses).where(cond))[0].n),
    );
    return { list: rows.map((r) => this.toAddress(r.a, r.policyCount)), total, current: p.current, pageSize: p.pageSize };
  }

  /** ids of addresses that cover the IP (as a 32-bit number); computed in SQL so paging stays in the database */
  private addressesContaining(n: number): SQL {
    const ipNum = (col: SQL) =>
      sql`(split_part(${col}, '.', 1)::bigint * 16777216 + split_part(${col}, '.', 2)::bigint * 65536 + split_part(${col}, '.', 3)::bigint * 256 + split_part(${col}, '.', 4)::bigint)`;
    const host = sql`split_part(ip_address, '/', 1)`;
    const prefix = sql`split_part(ip_address, '/', 2)::int`;
    // CASE, not OR: each branch casts text that only its own address type is guaranteed to hold
    return sql`select address_id from fw_addresses where case address_type
      when ${FirewallAddressType.Single} then ${ipNum(sql`ip_address`)} = ${n}
      when ${FirewallAddressType.Range} then ${n} between ${ipNum(sql`start_ip`)} and ${ipNum(sql`end_ip`)}
      when ${FirewallAddressType.Cidr} then ${n} >= ${ipNum(host)} and ${n} < ${ipNum(host)} + power(2, 32 - ${prefix})::bigint
      else false end`;
  }

  /** Checks the entry and keeps only the columns its type uses. */
  private addressValues(b: Omit<AddressBody, 'addressScope'>) {
    enumCheck('addressType', FirewallAddressType.has(b.addressType));
    const v = {
      addressType: b.addressType,
      ipAddress: b.addressType === FirewallAddressType.Range ? null : (b.ipAddress?.trim() ?? null),
      startIp: b.addressType === FirewallAddressType.Range ? (b.startIp?.trim() ?? null) : null,
      endIp: b.addressType === FirewallAddressType.Range ? (b.endIp?.trim() ?? null) : null,
    };
    const bad = validateAddressValue(v);
    if (bad) throw fieldError(bad.field, bad.error);
    const name = b.addressName.trim();
    if (!name) throw fieldError('addressName', { key: 'required' });
    return { ...v, addressName: name, description: blankToNull(b.description) };
  }

  private async addressNameFree(ex: Executor, scope: AddressScope, name: string, except?: number) {
    const rows = await ex
      .select({ id: fwAddresses.addressId })
      .from(fwAddresses)
      .where(and(eq(fwAddresses.addressScope, scope), sql`lower(${fwAddresses.addressName}) = ${name.toLowerCase()}`));
    if (rows.some((r) => r.id !== except)) throw new AppError(ErrorCode.FirewallAddressNameTaken, undefined, 200, { field: 'addressName' });
  }

  async addAddress(b: AddressBody, ctx: SessionContext) {
    const v = this.addressValues(b);
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(7310801)`);
      await this.addressNameFree(tx, b.addressScope, v.addressName);
      const [row] = await tx.insert(fwAddresses).values({ ...v, addressScope: b.addressScope, createdBy: ctx.actor.loginName }).returning();
      await audit(tx, ctx, { entity: 'firewallAddress', entityId: row.addressId, after: row, custId: null, rootCustId: null });
      return { addressId: row.addressId };
    });
  }

  async updateAddress(b: BodyOf<typeof netconfig.updateFirewallAddress>, ctx: SessionContext) {
    const v = this.addressValues(b);
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(7310801)`);
      const [before] = await tx.select().from(fwAddresses).where(eq(fwAddresses.addressId, b.addressId));
      if (!before) throw notFound();
      await this.addressNameFree(tx, before.addressScope, v.addressName, b.addressId);
      const [after] = await tx.update(fwAddresses).set({ ...v, updatedAt: new Date() }).where(eq(fwAddresses.addressId, b.addressId)).returning();
      await audit(tx, ctx, { entity: 'firewallAddress', entityId: b.addressId, before, after, custId: null, rootCustId: null });
    });
  }

  async deleteAddress(addressId: number, ctx: SessionContext) {
    await this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(fwAddresses).where(eq(fwAddresses.addressId, addressId)).for('update');
      if (!before) throw notFound();
      const users = await tx
        .select({ name: fwPolicies.policyName })
        .from(fwPolicyAddresses)
        .innerJoin(fwPolicies, eq(fwPolicies.policyId, fwPolicyAddresses.policyId))
        .where(eq(fwPolicyAddresses.addressId, addressId))
        .orderBy(fwPolicies.policyName);
      if (users.length) {
        const shown = users.slice(0, 5).map((u) => u.name).join(', ') + (users.length > 5 ? ` …(${users.length})` : '');
        throw new AppError(ErrorCode.FirewallAddressInUse, { policies: shown }, 200, { policies: users.map((u) => u.name) });
      }
      await tx.delete(fwAddresses).where(eq(fwAddresses.addressId, addressId));
      await audit(tx, ctx, { entity: 'firewallAddress', entityId: addressId, before, custId: null, rootCustId: null });
    });
  }

  // ------------------------------------------------------------------ policies

  private async withAddresses(rows: PolicyRow[]) {
    const ids = rows.map((r) => r.policyId);
    const links = ids.length
      ? await this.db
          .select({ policyId: fwPolicyAddresses.policyId, scope: fwPolicyAddresses.addressScope, a: fwAddresses })
          .from(fwPolicyAddresses)
          .innerJoin(fwAddresses, eq(fwAddresses.addressId, fwPolicyAddresses.addressId))
          .where(inArray(fwPolicyAddresses.policyId, ids))
          .orderBy(fwAddresses.addressName)
      : [];
    return rows.map((r) => {
      const mine = links.filter((l) => l.policyId === r.policyId);
      const ref = (scope: AddressScope) =>
        mine.filter((l) => l.scope === scope).map((l) => ({ addressId: l.a.addressId, addressName: l.a.addressName, address: addressText(l.a) }));
      const sourceAddresses = ref('srcaddr');
      const targetAddresses = ref('dstaddr');
      const text = (xs: { addressName: string; address: string }[]) => xs.map((x) => `${x.addressName}(${x.address})`).join('; ');
      return {
        policyId: r.policyId, policyName: r.policyName, operatorId: r.operatorId, direction: r.direction, action: r.action, protocol: r.protocol,
        ports: r.ports, priority: r.priority, status: r.status, description: r.description, sourceAddresses, targetAddresses,
        sourceText: text(sourceAddresses), targetText: text(targetAddresses),
        createdBy: r.createdBy, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(),
      };
    });
  }

  async policyPage(q: BodyOf<typeof netconfig.getFirewallPolicyPage>) {
    const p = pageOf(q);
    const where: SQL[] = [];
    if (q.policyName) where.push(ilike(fwPolicies.policyName, contains(q.policyName)));
    if (q.operatorId !== undefined) where.push(eq(fwPolicies.operatorId, q.operatorId));
    if (q.action !== undefined) where.push(eq(fwPolicies.action, q.action));
    if (q.protocol !== undefined) where.push(eq(fwPolicies.protocol, q.protocol));
    if (q.status !== undefined) where.push(eq(fwPolicies.status, q.status));
    const cond = where.length ? and(...where) : undefined;
    const { rows, total } = await pageFrom(
      await this.db
        .select({ p: fwPolicies, total: totalOver() })
        .from(fwPolicies)
        .where(cond)
        .orderBy(...orderOf(q, { policyName: fwPolicies.policyName, priority: fwPolicies.priority, updatedAt: fwPolicies.updatedAt }, [asc(fwPolicies.priority), desc(fwPolicies.policyId)]))
        .limit(p.limit)
        .offset(p.offset),
      p,
      async () => Number((await this.db.select({ n: count() }).from(fwPolicies).where(cond))[0].n),
    );
    return { list: await this.withAddresses(rows.map((r) => r.p)), total, current: p.current, pageSize: p.pageSize };
  }

  async policyDetail(policyId: number) {
    const [row] = await this.db.select().from(fwPolicies).where(eq(fwPolicies.policyId, policyId));
    if (!row) throw notFound();
    return (await this.withAddresses([row]))[0];
  }

  private async policyValues(ex: Executor, b: PolicyBody) {
    enumCheck('direction', FirewallDirection.has(b.direction));
    enumCheck('action', FirewallAction.has(b.action));
    enumCheck('protocol', FirewallProtocol.has(b.protocol));
    if (b.status !== undefined) enumCheck('status', FirewallPolicyStatus.has(b.status));
    const name = b.policyName.trim();
    if (!name) throw fieldError('policyName', { key: 'required' });
    const portErr = validatePortList(b.ports);
    if (portErr) throw fieldError('ports', portErr);
    const ports = normalizePortList(b.ports);
    if (ports && !protocolHasPorts(b.protocol)) {
      throw new FieldError('ports', { zh: '只有 TCP 或 UDP 协议可以指定端口', en: 'ports can only be given for TCP or UDP' });
    }
    const [op] = await ex.select({ id: operators.operatorId }).from(operators).where(eq(operators.operatorId, b.operatorId));
    if (!op) throw new FieldError('operatorId', { zh: '运营商不存在', en: 'unknown operator' });
    const src = [...new Set(b.srcAddressIds)];
    const dst = [...new Set(b.dstAddressIds)];
    const all = await ex.select().from(fwAddresses).where(inArray(fwAddresses.addressId, [...src, ...dst])).for('share');
    const byId = new Map(all.map((a) => [a.addressId, a]));
    const checkBook = (ids: number[], scope: AddressScope, field: string) => {
      for (const id of ids) {
        const a = byId.get(id);
        if (!a) throw new FieldError(field, { zh: `地址 ${id} 不存在`, en: `address ${id} does not exist` });
        if (a.addressScope !== scope) throw new AppError(ErrorCode.FirewallAddressWrongBook, { name: a.addressName }, 200, { field });
      }
    };
    checkBook(src, 'srcaddr', 'srcAddressIds');
    checkBook(dst, 'dstaddr', 'dstAddressIds');
    return {
      values: {
        policyName: name, operatorId: b.operatorId, direction: b.direction, action: b.action, protocol: b.protocol, ports,
        priority: b.priority, status: b.status ?? FirewallPolicyStatus.Enabled, description: blankToNull(b.description),
      },
      links: [...src.map((addressId) => ({ addressId, addressScope: 'srcaddr' as const })), ...dst.map((addressId) => ({ addressId, addressScope: 'dstaddr' as const }))],
    };
  }

  private async policyNameFree(ex: Executor, name: string, except?: number) {
    const rows = await ex.select({ id: fwPolicies.policyId }).from(fwPolicies).where(sql`lower(${fwPolicies.policyName}) = ${name.toLowerCase()}`);
    if (rows.some((r) => r.id !== except)) throw new AppError(ErrorCode.FirewallPolicyNameTaken, undefined, 200, { field: 'policyName' });
  }

  private async snapshot(ex: Executor, policyId: number) {
    const [p] = await ex.select().from(fwPolicies).where(eq(fwPolicies.policyId, policyId));
    if (!p) return null;
    const links = await ex.select().from(fwPolicyAddresses).where(eq(fwPolicyAddresses.policyId, policyId)).orderBy(fwPolicyAddresses.addressId);
    return {
      ...p,
      srcAddressIds: links.filter((l) => l.addressScope === 'srcaddr').map((l) => l.addressId),
      dstAddressIds: links.filter((l) => l.addressScope === 'dstaddr').map((l) => l.addressId),
    };
  }

  async addPolicy(b: PolicyBody, ctx: SessionContext) {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(7310802)`);
      const { values, links } = await this.policyValues(tx, b);
      await this.policyNameFree(tx, values.policyName);
      const [row] = await tx.insert(fwPolicies).values({ ...values, createdBy: ctx.actor.loginName }).returning();
      await tx.insert(fwPolicyAddresses).values(links.map((l) => ({ ...l, policyId: row.policyId })));
      await audit(tx, ctx, { entity: 'firewallPolicy', entityId: row.policyId, after: await this.snapshot(tx, row.policyId), custId: null, rootCustId: null });
      return { policyId: row.policyId };
    });
  }

  async updatePolicy(b: BodyOf<typeof netconfig.updateFirewallPolicy>, ctx: SessionContext) {
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(7310802)`);
      const before = await this.snapshot(tx, b.policyId);
      if (!before) throw notFound();
      const { values, links } = await this.policyValues(tx, b);
      await this.policyNameFree(tx, values.policyName, b.policyId);
      await tx.update(fwPolicies).set({ ...values, updatedAt: new Date() }).where(eq(fwPolicies.policyId, b.policyId));
      await tx.delete(fwPolicyAddresses).where(eq(fwPolicyAddresses.policyId, b.policyId));
      await tx.insert(fwPolicyAddresses).values(links.map((l) => ({ ...l, policyId: b.policyId })));
      await audit(tx, ctx, { entity: 'firewallPolicy', entityId: b.policyId, before, after: await this.snapshot(tx, b.policyId), custId: null, rootCustId: null });
    });
  }

  async deletePolicy(policyId: number, ctx: SessionContext) {
    await this.db.transaction(async (tx) => {
      const before = await this.snapshot(tx, policyId);
      if (!before) throw notFound();
      await tx.delete(fwPolicies).where(eq(fwPolicies.policyId, policyId));
      await audit(tx, ctx, { entity: 'firewallPolicy', entityId: policyId, before, custId: null, rootCustId: null });
    });
  }
}
