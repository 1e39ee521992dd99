import { defineEnum } from './define.ts';

/** Role types (spec §6). A role's type decides its tenancy class; built-in roles have id = type. */
export const RoleType = defineEnum({
  Admin: { value: 1000, zh: '超级管理员', en: 'Administrator' },
  Manager: { value: 2000, zh: '运营管理员', en: 'Operator manager' },
  Enterprise: { value: 3000, zh: '企业客户', en: 'Enterprise customer' },
  Channel: { value: 4000, zh: '渠道客户', en: 'Channel customer' },
  SubCustomer: { value: 5000, zh: '二级客户', en: 'Second-level customer' },
});
export type RoleTypeValue = (typeof RoleType.values)[number];

export const STAFF_ROLE_TYPES: readonly number[] = [RoleType.Admin, RoleType.Manager];
export const CHANNEL_ROLE_TYPES: readonly number[] = [RoleType.Enterprise, RoleType.Channel];

export const AccountStatus = defineEnum({
  Normal: { value: 1, zh: '正常', en: 'Normal' },
  Frozen: { value: 2, zh: '冻结', en: 'Frozen' },
});

export const FreezeAction = defineEnum({
  Freeze: { value: 1, zh: '冻结', en: 'Freeze' },
  Thaw: { value: 2, zh: '解冻', en: 'Thaw' },
});

/** Customer status (spec §4). */
export const CustomerStatus = defineEnum({
  Online: { value: 1, zh: '上线', en: 'Online' },
  MassProduction: { value: 2, zh: '量产', en: 'Mass production' },
  Mature: { value: 3, zh: '成熟', en: 'Mature' },
  Exited: { value: 4, zh: '已退出', en: 'Exited' },
});

export const CustomerLevel = defineEnum({
  First: { value: 1, zh: '一级客户', en: 'First-level customer' },
  Second: { value: 2, zh: '二级客户', en: 'Second-level customer' },
});

export const InvoiceType = defineEnum({
  Normal: { value: 1, zh: '增值税普通发票', en: 'VAT ordinary invoice' },
  Special: { value: 2, zh: '增值税专用发票', en: 'VAT special invoice' },
});

export const PaymentModel = defineEnum({
  Prepaid: { value: 1, zh: '预付费', en: 'Prepaid' },
  Postpaid: { value: 2, zh: '后付费', en: 'Postpaid' },
});

/** Audit status (spec §4): 0 submitted, 1 passed, 2 rejected. */
export const AuditStatus = defineEnum({
  Submitted: { value: 0, zh: '待审核', en: 'Submitted' },
  Passed: { value: 1, zh: '已通过', en: 'Passed' },
  Rejected: { value: 2, zh: '已驳回', en: 'Rejected' },
});

/** User behaviour log actions (spec §6). */
export const BehaviorAction = defineEnum({
  Login: { value: 1, zh: '登录', en: 'Login' },
  Logout: { value: 2, zh: '退出', en: 'Logout' },
  AddAccount: { value: 3, zh: '新增账号', en: 'Add account' },
  Freeze: { value: 4, zh: '冻结', en: 'Freeze' },
  Thaw: { value: 5, zh: '解冻', en: 'Thaw' },
  ResetAccount: { value: 6, zh: '重置账号', en: 'Reset account' },
  AddRole: { value: 7, zh: '新增角色', en: 'Add role' },
  ChangeRole: { value: 8, zh: '修改角色', en: 'Change role' },
  DeleteRole: { value: 9, zh: '删除角色', en: 'Delete role' },
  ChangePassword: { value: 10, zh: '修改密码', en: 'Change password' },
});
