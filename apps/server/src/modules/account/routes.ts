import type { FastifyInstance } from 'fastify';
import { account, role, AccountStatus, CustomerLevel, CustomerStatus, RoleType } from '@lynx/contract';
import { bind } from '../../platform/http.ts';
import type { AppDeps } from '../../app.ts';
import { CustomerService } from './customers.ts';
import { AccountService } from './accounts.ts';
import { LogoService } from './logo.ts';
import { RoleService } from './roles.ts';

export function accountRoutes(app: FastifyInstance, deps: AppDeps) {
  const customers = new CustomerService(deps.db, deps.sessions);
  const accounts = new AccountService(deps.db, customers, deps.sessions);
  const logos = new LogoService(deps.db, deps.files, customers);
  const roles = new RoleService(deps.db, deps.sessions);

  bind(app, deps, role.getRoleListPage, (b, ctx) => roles.list(b, ctx.actor));
  bind(app, deps, role.getRoleDetail, (b, ctx) => roles.detail(b.roleId, ctx.actor));
  bind(app, deps, role.saveRole, (b, ctx) => roles.create(b, ctx));
  bind(app, deps, role.updateRole, (b, ctx) => roles.update(b, ctx));
  bind(app, deps, role.deleteRole, (b, ctx) => roles.remove(b.roleId, ctx));
  deps.exports.register(role.getRoleListPage, {
    title: { zh: '角色列表', en: 'Roles' },
    filters: {
      roleName: { title: { zh: '角色名称', en: 'Role name' } },
      roleType: { title: { zh: '角色类型', en: 'Role type' }, enum: RoleType },
    },
    page: (filters, actor) => roles.list(filters, actor),
    columns: [
      { key: 'roleCode', title: { zh: '角色编码', en: 'Role code' } },
      { key: 'roleName', title: { zh: '角色名称', en: 'Role name' } },
      { key: 'roleType', title: { zh: '角色类型', en: 'Role type' }, enum: RoleType },
      { key: 'accountCount', title: { zh: '账号数', en: 'Accounts' }, type: 'number' },
      { key: 'description', title: { zh: '描述', en: 'Description' } },
      { key: 'updatedAt', title: { zh: '更新时间', en: 'Updated' }, type: 'datetime' },
    ],
  });

  bind(app, deps, account.getCustomerListPage, (b, ctx) => customers.list(b, ctx.actor));
  bind(app, deps, account.getCustomerInfo, (b, ctx) => customers.detail(b.custId, ctx.actor));
  bind(app, deps, account.saveCustomer, (b, ctx) => customers.create(b, ctx));
  bind(app, deps, account.updateCustomer, (b, ctx) => customers.update(b, ctx));
  bind(app, deps, account.getRegisterApplyListPage, (b, ctx) => customers.listApplies(b, ctx.actor));
  bind(app, deps, account.auditRegisterApply, (b, ctx) => customers.auditApply(b, ctx));

  bind(app, deps, account.getAccountListPage, (b, ctx) => accounts.list(b, ctx.actor));
  bind(app, deps, account.saveAccount, (b, ctx) => accounts.create(b, ctx));
  bind(app, deps, account.updateAccount, (b, ctx) => accounts.update(b, ctx));
  bind(app, deps, account.getAccountInfoByLoginName, (b, ctx) => accounts.byLoginName(b.loginName, ctx.actor));
  bind(app, deps, account.getAccountFreezeList, (b, ctx) => accounts.freezeRecords(b, ctx.actor));
  bind(app, deps, account.saveAccountFreeze, (b, ctx) => accounts.freeze(b, ctx));
  bind(app, deps, account.resetAccountPassword, (b, ctx) => accounts.resetPassword(b.loginName, ctx));
  bind(app, deps, account.getRoleList, (b, ctx) => accounts.roleOptions(ctx.actor, b.custId));
  bind(app, deps, account.listAccountInfo, (b, ctx) => accounts.brief(ctx.actor, b));
  bind(app, deps, account.getAccountByRoleIds, (b, ctx) => accounts.brief(ctx.actor, { roleIds: b.roleIds }));
  bind(app, deps, account.uploadLogo, (_b, ctx, req) => logos.upload(req, ctx));
  bind(app, deps, account.getLogoByCustId, async (b) => ({ logoUrl: await logos.find(b.custId), timeZone: deps.config.timeZone }));

  deps.exports.register(account.getAccountListPage, {
    title: { zh: '账号列表', en: 'Accounts' },
    filters: {
      status: { title: { zh: '状态', en: 'Status' }, enum: AccountStatus },
    },
    page: (filters, actor) => accounts.list(filters, actor),
    columns: [
      { key: 'loginName', title: { zh: '登录名', en: 'Login name' } },
      { key: 'userName', title: { zh: '用户名', en: 'User name' } },
      { key: 'roleName', title: { zh: '角色', en: 'Role' } },
      { key: 'custName', title: { zh: '所属客户', en: 'Customer' } },
      { key: 'phone', title: { zh: '手机号', en: 'Phone' } },
      { key: 'email', title: { zh: '邮箱', en: 'E-mail' } },
      { key: 'status', title: { zh: '状态', en: 'Status' }, enum: AccountStatus },
      { key: 'lastLoginAt', title: { zh: '最近登录', en: 'Last login' }, type: 'datetime' },
      { key: 'createdAt', title: { zh: '创建时间', en: 'Created' }, type: 'datetime' },
    ],
  });
  deps.exports.register(account.getCustomerListPage, {
    title: { zh: '客户列表', en: 'Customers' },
    filters: {
      custName: { title: { zh: '客户名称', en: 'Customer name' } },
      status: { title: { zh: '状态', en: 'Status' }, enum: CustomerStatus },
      level: { title: { zh: '级别', en: 'Level' }, enum: CustomerLevel },
    },
    page: (filters, actor) => customers.list(filters, actor),
    columns: [
      { key: 'custId', title: { zh: '客户 ID', en: 'Customer ID' } },
      { key: 'custName', title: { zh: '客户名称', en: 'Customer name' } },
      { key: 'level', title: { zh: '客户级别', en: 'Level' }, enum: CustomerLevel },
      { key: 'parentCustName', title: { zh: '上级客户', en: 'Parent customer' } },
      { key: 'status', title: { zh: '状态', en: 'Status' }, enum: CustomerStatus },
      { key: 'adminName', title: { zh: '管理员', en: 'Administrator' } },
      { key: 'adminPhone', title: { zh: '管理员手机', en: 'Administrator phone' } },
      { key: 'adminEmail', title: { zh: '管理员邮箱', en: 'Administrator e-mail' } },
      { key: 'preDeposit', title: { zh: '预存款', en: 'Pre-deposit' }, type: 'money' },
      { key: 'credit', title: { zh: '授信', en: 'Credit' }, type: 'money' },
      { key: 'createdAt', title: { zh: '创建时间', en: 'Created' }, type: 'datetime' },
    ],
  });
  return { customers, accounts, logos, roles };
}
