import { AccountStatus, FreezeAction, RoleType, STAFF_ROLE_TYPES, type Lang } from '@lynx/contract';

export const ACCOUNT_STATUS_COLORS: Record<number, string> = { [AccountStatus.Normal]: 'green', [AccountStatus.Frozen]: 'red' };
export const FREEZE_ACTION_COLORS: Record<number, string> = { [FreezeAction.Freeze]: 'red', [FreezeAction.Thaw]: 'green' };

/**
 * The roles that fit an account's customer. The server lists, for a customer, only the role types of its
 * level; without a customer it lists every type the caller may hand out, but an account without a customer
 * is an operator staff account, so only staff role types fit.
 */
export function assignableRoles<R extends { roleType: number }>(roles: readonly R[], custId: number | null | undefined): R[] {
  if (custId === null || custId === undefined) return roles.filter((r) => STAFF_ROLE_TYPES.includes(r.roleType));
  return [...roles];
}

/** A frozen account can only be thawed, any other only frozen. */
export function nextFreezeAction(status: number): number {
  return status === AccountStatus.Frozen ? FreezeAction.Thaw : FreezeAction.Freeze;
}

/** Route parameter → customer id; anything but a positive integer is no id (null) rather than a bad filter. */
export function parseCustId(param: string | undefined): number | null | 'invalid' {
  if (param === undefined || param === '') return null;
  return /^[1-9]\d{0,15}$/.test(param) ? Number(param) : 'invalid';
}

/**
 * A role's name in the UI language. The server answers built-in roles (id = type) with their Chinese name
 * only, so those take the contract's bilingual RoleType label; custom roles keep the name people gave them.
 */
export function roleLabel(role: { roleId: number; roleType: number; roleName: string }, lang: Lang): string {
  return role.roleId === role.roleType && RoleType.has(role.roleId) ? RoleType.label(role.roleId, lang) : role.roleName;
}
