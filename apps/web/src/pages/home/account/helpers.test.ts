import { describe, expect, it } from 'vitest';
import { AccountStatus, FreezeAction, RoleType } from '@lynx/contract';
import { assignableRoles, nextFreezeAction, parseCustId, roleLabel } from './helpers.ts';

const roles = [
  { roleId: RoleType.Admin, roleType: RoleType.Admin },
  { roleId: RoleType.Manager, roleType: RoleType.Manager },
  { roleId: RoleType.Enterprise, roleType: RoleType.Enterprise },
  { roleId: RoleType.SubCustomer, roleType: RoleType.SubCustomer },
  { roleId: 100001, roleType: RoleType.Manager },
];

describe('assignableRoles', () => {
  it('keeps only staff role types for an account without a customer', () => {
    expect(assignableRoles(roles, undefined).map((r) => r.roleId)).toEqual([RoleType.Admin, RoleType.Manager, 100001]);
    expect(assignableRoles(roles, null).map((r) => r.roleId)).toEqual([RoleType.Admin, RoleType.Manager, 100001]);
  });
  it('keeps the server list for a customer (already narrowed to its level)', () => {
    expect(assignableRoles(roles, 7)).toEqual(roles);
    expect(assignableRoles(roles, 7)).not.toBe(roles);
  });
});

describe('nextFreezeAction', () => {
  it('thaws a frozen account and freezes any other', () => {
    expect(nextFreezeAction(AccountStatus.Frozen)).toBe(FreezeAction.Thaw);
    expect(nextFreezeAction(AccountStatus.Normal)).toBe(FreezeAction.Freeze);
  });
});

describe('parseCustId', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['12', 12],
    ['0', 'invalid'],
    ['-3', 'invalid'],
    ['1.5', 'invalid'],
    ['abc', 'invalid'],
    ['12abc', 'invalid'],
  ])('%s → %s', (param, expected) => {
    expect(parseCustId(param)).toBe(expected);
  });
});

describe('roleLabel', () => {
  it('labels built-in roles in the UI language and keeps custom names', () => {
    expect(roleLabel({ roleId: 4000, roleType: 4000, roleName: '渠道客户' }, 'en')).toBe('Channel customer');
    expect(roleLabel({ roleId: 4000, roleType: 4000, roleName: '渠道客户' }, 'zh')).toBe('渠道客户');
    expect(roleLabel({ roleId: 100001, roleType: 2000, roleName: 'Auditor' }, 'zh')).toBe('Auditor');
  });
});
