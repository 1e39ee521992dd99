import { sql, type SQL, type Column } from 'drizzle-orm';
import { RoleType, STAFF_ROLE_TYPES, CHANNEL_ROLE_TYPES, type Lang } from '@lynx/contract';

/** Who is calling, from the session: never from ids the client sends. */
export interface Actor {
  accountId: number;
  loginName: string;
  userName: string;
  roleId: number;
  roleName: string;
  roleType: number;
  custId: number | null;
  rootCustId: number | null;
  permissions: ReadonlySet<number>;
  mustResetPassword: boolean;
}

export interface RequestContext {
  actor: Actor | null;
  lang: Lang;
  ip: string;
  endpoint: string;
  tokenHash: string | null;
  /** set by audit(): a mutation that wrote no audit record is a bug */
  audited: boolean;
}

export interface SessionContext extends RequestContext {
  actor: Actor;
}

export const isStaff = (a: Actor) => STAFF_ROLE_TYPES.includes(a.roleType);
export const isChannel = (a: Actor) => CHANNEL_ROLE_TYPES.includes(a.roleType);
export const isSubCustomer = (a: Actor) => a.roleType === RoleType.SubCustomer;

/**
 * The tenant predicate for a table with cust_id / root_cust_id columns: staff see all; channel customers
 * their own customer tree; a second-level customer only itself.
 */
export function tenantFilter(actor: Actor, cols: { custId: Column | SQL; rootCustId: Column | SQL }): SQL {
  if (isStaff(actor)) return sql`true`;
  if (isChannel(actor)) return actor.rootCustId == null ? sql`false` : sql`${cols.rootCustId} = ${actor.rootCustId}`;
  return actor.custId == null ? sql`false` : sql`${cols.custId} = ${actor.custId}`;
}

/** Same rule for one record already loaded. */
export function canSeeTenant(actor: Actor, rec: { custId: number | null; rootCustId: number | null }): boolean {
  if (isStaff(actor)) return true;
  if (isChannel(actor)) return actor.rootCustId != null && rec.rootCustId === actor.rootCustId;
  return actor.custId != null && rec.custId === actor.custId;
}

/** Tenant columns to stamp on a row the actor creates. */
export const tenantOf = (actor: Actor) => ({ custId: actor.custId, rootCustId: actor.rootCustId });
