import { Type } from '@sinclair/typebox';
import { endpoint, MoneyInput, MoneyText, Obj, Page, PageParams, SortParams, Nothing, Nullable } from './endpoint.ts';
import { RegisterBody } from './auth.ts';
import { Perm } from '../permissions.ts';
import { FILE_RULES } from '../validate/upload.ts';

const tag = 'account';
const CustomerPerms = [Perm.HomeCustomer, Perm.BusinessCustomer] as const;
const CustomerWritePerms = [Perm.HomeCustomer, Perm.BusinessCustomerCreate] as const;
const AccountPerms = [Perm.HomeAccount, Perm.BusinessAccount] as const;

const Text = (max: number, min = 0) => Type.String({ minLength: min, maxLength: max });

/** Enterprise customer fields of spec §3 that people edit. Balances are changed only by finance. */
const customerEditable = {
  custName: Text(100, 2),
  status: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
  businessUnit: Type.Optional(Text(100)),
  adminName: Text(40, 1),
  adminEmail: Text(500, 1),
  adminPhone: Text(200, 1),
  businessLicense: Type.Optional(Text(40)),
  website: Type.Optional(Text(200)),
  // money: a decimal string ('5000000.5'), never a float
  registeredCapital: Type.Optional(Nullable(MoneyInput)),
  invoiceType: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 2 }))),
  taxNumber: Type.Optional(Text(40)),
  bankName: Type.Optional(Text(100)),
  bankAccount: Type.Optional(Text(40)),
  industryLevel1: Type.Optional(Text(40)),
  industryLevel2: Type.Optional(Text(40)),
  industryAttribute: Type.Optional(Text(100)),
  paymentModel: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 2 }))),
  salesName: Type.Optional(Text(40)),
  salesPhone: Type.Optional(Text(200)),
  salesEmail: Type.Optional(Text(500)),
  remark: Type.Optional(Text(500)),
};

export const Customer = Type.Object({
  custId: Type.Integer(),
  parentCustId: Nullable(Type.Integer()),
  parentCustName: Nullable(Type.String()),
  level: Type.Integer(),
  custName: Type.String(),
  status: Type.Integer(),
  businessUnit: Nullable(Type.String()),
  adminName: Type.String(),
  adminEmail: Type.String(),
  adminPhone: Type.String(),
  businessLicense: Nullable(Type.String()),
  website: Nullable(Type.String()),
  registeredCapital: Nullable(MoneyText),
  invoiceType: Nullable(Type.Integer()),
  taxNumber: Nullable(Type.String()),
  bankName: Nullable(Type.String()),
  bankAccount: Nullable(Type.String()),
  industryLevel1: Nullable(Type.String()),
  industryLevel2: Nullable(Type.String()),
  industryAttribute: Nullable(Type.String()),
  paymentModel: Nullable(Type.Integer()),
  salesName: Nullable(Type.String()),
  salesPhone: Nullable(Type.String()),
  salesEmail: Nullable(Type.String()),
  remark: Nullable(Type.String()),
  // the balances (issue 13): read from the ledger's projection, exact decimal strings
  preDeposit: MoneyText,
  grants: MoneyText,
  contractPayment: MoneyText,
  credit: MoneyText,
  withdrawHold: MoneyText,
  available: MoneyText,
  logoUrl: Nullable(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const getCustomerListPage = endpoint({
  name: 'core/account/customer/getCustomerListPage', method: 'POST', auth: 'session', perm: CustomerPerms,
  kind: 'query', tag, summary: { zh: '客户列表（分页）', en: 'Customer list (paged)' },
  body: Obj({
    ...PageParams, ...SortParams,
    custName: Type.Optional(Text(100)),
    status: Type.Optional(Type.Integer()),
    level: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })),
    parentCustId: Type.Optional(Type.Integer()),
  }),
  response: Page(Customer),
});

export const getCustomerInfo = endpoint({
  name: 'core/account/customer/getCustomerInfo', method: 'POST', auth: 'session', perm: CustomerPerms,
  kind: 'query', tag, summary: { zh: '客户详情', en: 'Customer detail' },
  body: Obj({ custId: Type.Integer() }), response: Customer,
});

export const saveCustomer = endpoint({
  name: 'core/account/customer/saveCustomer', method: 'POST', auth: 'session', perm: CustomerWritePerms,
  kind: 'mutation', tag,
  summary: {
    zh: '新增客户（运营人员建一级客户，渠道客户建二级客户）',
    en: 'Create a customer (staff create first-level, channel customers create second-level)',
  },
  body: Obj({ parentCustId: Type.Optional(Type.Integer()), ...customerEditable }),
  response: Type.Object({ custId: Type.Integer() }),
});

export const updateCustomer = endpoint({
  name: 'core/account/customer/updateCustomer', method: 'POST', auth: 'session', perm: CustomerWritePerms,
  kind: 'mutation', tag, summary: { zh: '修改客户', en: 'Update a customer' },
  body: Obj({ custId: Type.Integer(), ...Type.Partial(Type.Object(customerEditable)).properties }),
  response: Nothing,
});

export const RegisterApply = Type.Object({
  applyId: Type.Integer(),
  loginName: Type.String(),
  custName: Type.String(),
  adminName: Type.String(),
  adminPhone: Type.String(),
  adminEmail: Type.String(),
  businessLicense: Nullable(Type.String()),
  website: Nullable(Type.String()),
  remark: Nullable(Type.String()),
  auditStatus: Type.Integer(),
  auditReason: Nullable(Type.String()),
  auditBy: Nullable(Type.String()),
  auditAt: Nullable(Type.String()),
  custId: Nullable(Type.Integer()),
  createdAt: Type.String(),
});

export const getRegisterApplyListPage = endpoint({
  name: 'core/account/customer/getRegisterApplyListPage', method: 'POST', auth: 'session',
  perm: [Perm.BusinessCustomerAudit], kind: 'query', tag,
  summary: { zh: '注册申请列表', en: 'Registration applications' },
  body: Obj({ ...PageParams, auditStatus: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 })), custName: Type.Optional(Text(100)) }),
  response: Page(RegisterApply),
});

export const auditRegisterApply = endpoint({
  name: 'core/account/customer/auditRegisterApply', method: 'POST', auth: 'session',
  perm: [Perm.BusinessCustomerAudit], kind: 'mutation', tag,
  summary: {
    zh: '审核注册申请：通过则创建一级客户及其管理员账号',
    en: 'Review a registration: approval creates the first-level customer and its administrator account',
  },
  body: Obj({ applyId: Type.Integer(), pass: Type.Boolean(), reason: Type.Optional(Text(500)) }),
  response: Type.Object({ custId: Nullable(Type.Integer()) }),
});
export { RegisterBody };

export const Account = Type.Object({
  accountId: Type.Integer(),
  loginName: Type.String(),
  userName: Type.String(),
  roleId: Type.Integer(),
  roleType: Type.Integer(),
  roleName: Type.String(),
  custId: Nullable(Type.Integer()),
  custName: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  email: Nullable(Type.String()),
  status: Type.Integer(),
  mustResetPassword: Type.Boolean(),
  remark: Nullable(Type.String()),
  lastLoginAt: Nullable(Type.String()),
  createdAt: Type.String(),
});

export const getAccountListPage = endpoint({
  name: 'core/account/account/getAccountListPage', method: 'POST', auth: 'session', perm: AccountPerms,
  kind: 'query', tag, summary: { zh: '账号列表（分页）', en: 'Account list (paged)' },
  body: Obj({
    ...PageParams, ...SortParams,
    loginName: Type.Optional(Text(64)), userName: Type.Optional(Text(40)),
    custId: Type.Optional(Type.Integer()), roleId: Type.Optional(Type.Integer()), status: Type.Optional(Type.Integer()),
  }),
  response: Page(Account),
});

export const saveAccount = endpoint({
  name: 'core/account/account/saveAccount', method: 'POST', auth: 'session', perm: AccountPerms, kind: 'mutation', tag,
  summary: {
    zh: '新增账号（未填密码时生成一次性初始密码，首次登录须修改）',
    en: 'Create an account (without a password a one-time initial password is generated; it must be changed at first login)',
  },
  body: Obj({
    loginName: Type.String({ minLength: 2, maxLength: 32, pattern: '^[A-Za-z0-9_.@-]+$' }),
    userName: Text(40, 1),
    roleId: Type.Integer(),
    custId: Type.Optional(Type.Integer()),
    phone: Type.Optional(Text(200)),
    email: Type.Optional(Text(500)),
    password: Type.Optional(Type.String({ maxLength: 64 })),
    remark: Type.Optional(Text(500)),
  }),
  response: Type.Object({ accountId: Type.Integer(), initialPassword: Nullable(Type.String()) }),
});

export const updateAccount = endpoint({
  name: 'core/account/account/updateAccount', method: 'POST', auth: 'session', perm: AccountPerms, kind: 'mutation', tag,
  summary: { zh: '修改账号', en: 'Update an account' },
  body: Obj({
    accountId: Type.Integer(),
    userName: Type.Optional(Text(40, 1)),
    roleId: Type.Optional(Type.Integer()),
    phone: Type.Optional(Text(200)),
    email: Type.Optional(Text(500)),
    remark: Type.Optional(Text(500)),
  }),
  response: Nothing,
});

export const getAccountInfoByLoginName = endpoint({
  name: 'core/account/account/getAccountInfoByLoginName', method: 'POST', auth: 'session', perm: null, kind: 'query', tag,
  summary: { zh: '按登录名查询账号（本人或管理范围内）', en: 'Account by login name (yourself or within your scope)' },
  body: Obj({ loginName: Text(64, 1) }), response: Account,
});

export const FreezeRecord = Type.Object({
  id: Type.Integer(),
  loginName: Type.String(),
  action: Type.Integer(),
  reason: Type.String(),
  operator: Type.String(),
  createdAt: Type.String(),
});

export const getAccountFreezeList = endpoint({
  name: 'core/account/account/getAccountFreezeList', method: 'POST', auth: 'session', perm: AccountPerms, kind: 'query', tag,
  summary: { zh: '冻结/解冻记录', en: 'Freeze and thaw records' },
  body: Obj({ ...PageParams, loginName: Text(64, 1) }), response: Page(FreezeRecord),
});

export const saveAccountFreeze = endpoint({
  name: 'core/account/account/saveAccountFreeze', method: 'POST', auth: 'session', perm: AccountPerms, kind: 'mutation', tag,
  summary: { zh: '冻结或解冻账号（须填写原因）', en: 'Freeze or thaw an account (a reason is required)' },
  body: Obj({ loginName: Text(64, 1), action: Type.Integer({ minimum: 1, maximum: 2 }), reason: Text(500, 1) }),
  response: Nothing,
});

export const resetAccountPassword = endpoint({
  name: 'core/account/account/resetAccountPassword', method: 'POST', auth: 'session', perm: AccountPerms, kind: 'mutation', tag,
  summary: {
    zh: '重置账号密码：生成一次性密码，用户须在登录后修改',
    en: 'Reset an account: a one-time password is generated, the user must change it after login',
  },
  body: Obj({ loginName: Text(64, 1) }),
  response: Type.Object({ password: Type.String() }),
});

export const RoleOption = Type.Object({ roleId: Type.Integer(), roleName: Type.String(), roleType: Type.Integer() });

export const getRoleList = endpoint({
  name: 'core/account/account/getRoleList', method: 'POST', auth: 'session', perm: AccountPerms, kind: 'query', tag,
  summary: { zh: '可分配的角色（可按客户过滤）', en: 'Roles you may assign (optionally for a customer)' },
  body: Obj({ custId: Type.Optional(Type.Integer()) }), response: Type.Array(RoleOption),
});

export const AccountBrief = Type.Object({
  accountId: Type.Integer(), loginName: Type.String(), userName: Type.String(),
  roleId: Type.Integer(), custId: Nullable(Type.Integer()),
});

export const listAccountInfo = endpoint({
  name: 'core/account/account/listAccountInfo', method: 'POST', auth: 'session', perm: AccountPerms, kind: 'query', tag,
  summary: { zh: '账号简表（下拉选择，最多 500 条）', en: 'Account options (for pickers, at most 500)' },
  body: Obj({ custId: Type.Optional(Type.Integer()), keyword: Type.Optional(Text(64)) }),
  response: Type.Array(AccountBrief),
});

export const getAccountByRoleIds = endpoint({
  name: 'core/account/account/getAccountByRoleIds', method: 'POST', auth: 'session', perm: AccountPerms, kind: 'query', tag,
  summary: { zh: '按角色查询账号', en: 'Accounts holding the given roles' },
  body: Obj({ roleIds: Type.Array(Type.Integer(), { minItems: 1, maxItems: 50 }) }),
  response: Type.Array(AccountBrief),
});

export const uploadLogo = endpoint({
  name: 'core/account/account/uploadLogo', method: 'POST', auth: 'session', perm: [Perm.HomeLogo], kind: 'mutation', tag,
  multipart: { file: 'logoFile', maxBytes: FILE_RULES.logo.maxBytes },
  summary: { zh: '上传 Logo（字段 logoFile，jpg/png，小于 1500KB）', en: 'Upload the logo (field logoFile, jpg/png under 1500 KB)' },
  // a multipart field is text: a customer id of 1 to 999,999,999 (within the integer column) as digits
  body: Obj({ custId: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,8}$' })) }),
  response: Type.Object({ logoUrl: Type.String() }),
});

export const getLogoByCustId = endpoint({
  name: 'core/account/account/getLogoByCustId', method: 'POST', auth: 'public', perm: null, kind: 'query', tag,
  summary: { zh: '按客户查询 Logo 与业务时区（登录页也可用）', en: 'Logo of a customer and the business time zone (also used by the login page)' },
  body: Obj({ custId: Type.Optional(Nullable(Type.Integer())) }),
  response: Type.Object({
    logoUrl: Nullable(Type.String()),
    /** the product's business time zone (IANA name, CMP_TIME_ZONE): the console shows every time in it */
    timeZone: Type.String(),
  }),
});
