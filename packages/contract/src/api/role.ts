import { Type } from '@sinclair/typebox';
import { endpoint, Obj, Page, PageParams, Nothing, Nullable } from './endpoint.ts';
import { Perm } from '../permissions.ts';

const tag = 'role';

export const Role = Type.Object({
  roleId: Type.Integer(),
  roleCode: Type.String(),
  roleName: Type.String(),
  /** English name of a built-in role (custom roles have one name) */
  roleNameEn: Nullable(Type.String()),
  roleType: Type.Integer(),
  description: Nullable(Type.String()),
  permissions: Type.Array(Type.Integer()),
  builtIn: Type.Boolean(),
  accountCount: Type.Integer(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

const RoleFields = {
  roleCode: Type.String({ minLength: 2, maxLength: 32, pattern: '^[A-Za-z0-9_-]+$' }),
  roleName: Type.String({ minLength: 1, maxLength: 40 }),
  roleType: Type.Integer(),
  description: Type.Optional(Type.String({ maxLength: 500 })),
  permissions: Type.Array(Type.Integer(), { maxItems: 2000 }),
};

export const getRoleListPage = endpoint({
  name: 'system/role/getRoleListPage', method: 'POST', auth: 'session', perm: [Perm.SystemRole], kind: 'query', tag,
  summary: { zh: '角色列表', en: 'Roles' },
  body: Obj({ ...PageParams, roleName: Type.Optional(Type.String({ maxLength: 40 })), roleType: Type.Optional(Type.Integer()) }),
  response: Page(Role),
});

export const getRoleDetail = endpoint({
  name: 'system/role/getRoleDetail', method: 'POST', auth: 'session', perm: [Perm.SystemRole], kind: 'query', tag,
  summary: { zh: '角色详情', en: 'Role detail' },
  body: Obj({ roleId: Type.Integer() }), response: Role,
});

export const saveRole = endpoint({
  name: 'system/role/saveRole', method: 'POST', auth: 'session', perm: [Perm.SystemRoleAdd], kind: 'mutation', tag,
  summary: { zh: '新增角色', en: 'Add a role' },
  body: Obj(RoleFields), response: Type.Object({ roleId: Type.Integer() }),
});

export const updateRole = endpoint({
  name: 'system/role/updateRole', method: 'POST', auth: 'session', perm: [Perm.SystemRoleEdit], kind: 'mutation', tag,
  summary: { zh: '修改角色（权限在用户下次调用时生效）', en: 'Update a role (permissions apply from the users\' next call)' },
  body: Obj({ roleId: Type.Integer(), ...Type.Partial(Type.Object(RoleFields)).properties }), response: Nothing,
});

export const deleteRole = endpoint({
  name: 'system/role/deleteRole', method: 'POST', auth: 'session', perm: [Perm.SystemRoleDelete], kind: 'mutation', tag,
  summary: { zh: '删除角色（使用中的角色不能删除）', en: 'Delete a role (a role in use cannot be deleted)' },
  body: Obj({ roleId: Type.Integer() }), response: Nothing,
});
