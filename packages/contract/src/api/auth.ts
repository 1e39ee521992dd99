import { Type } from '@sinclair/typebox';
import { endpoint, Obj, Empty, Nothing } from './endpoint.ts';

const tag = 'auth';
const LoginName = Type.String({ minLength: 2, maxLength: 32, pattern: '^[A-Za-z0-9_.@-]+$' });
const Password = Type.String({ minLength: 1, maxLength: 64 });

export const SessionInfo = Type.Object({
  accessToken: Type.String(),
  roleId: Type.Integer(),
  roleName: Type.String(),
  loginName: Type.String(),
  userName: Type.String(),
  channelCustId: Type.Union([Type.Integer(), Type.Null()]),
  custId: Type.Union([Type.Integer(), Type.Null()]),
  permissions: Type.Array(Type.Integer()),
  mustResetPassword: Type.Boolean(),
  expiresAt: Type.String(),
});

export const login = endpoint({
  name: 'base/oauth/user/login', method: 'POST', auth: 'public', perm: null, kind: 'mutation', tag,
  summary: { zh: '登录', en: 'Log in' },
  body: Obj({
    loginName: LoginName,
    password: Password,
    captchaKey: Type.Optional(Type.String({ maxLength: 64 })),
    captchaCode: Type.Optional(Type.String({ maxLength: 16 })),
  }),
  response: SessionInfo,
});

export const logout = endpoint({
  name: 'base/oauth/user/logout', method: 'POST', auth: 'session', perm: null, kind: 'mutation', tag, allowWhenPasswordExpired: true,
  summary: { zh: '退出登录（令牌立即失效）', en: 'Log out (the token dies at once)' },
  body: Empty, response: Nothing,
});

export const captcha = endpoint({
  name: 'base/oauth/user/captcha', method: 'GET', auth: 'public', perm: null, kind: 'query', tag,
  summary: { zh: '获取图形验证码（SVG）', en: 'Get a captcha image (SVG)' },
  body: Empty,
  response: Type.Object({ captchaKey: Type.String(), image: Type.String(), required: Type.Boolean() }),
});

export const captchaRequired = endpoint({
  name: 'base/oauth/user/captchaRequired', method: 'POST', auth: 'public', perm: null, kind: 'query', tag,
  summary: { zh: '该登录名是否需要验证码', en: 'Whether this login name needs a captcha' },
  body: Obj({ loginName: Type.String({ maxLength: 64 }) }),
  response: Type.Object({ required: Type.Boolean() }),
});

export const RegisterBody = Obj({
  loginName: LoginName,
  password: Password,
  confirmPassword: Password,
  custName: Type.String({ minLength: 2, maxLength: 100 }),
  adminName: Type.String({ minLength: 1, maxLength: 40 }),
  adminPhone: Type.String({ maxLength: 200 }),
  adminEmail: Type.String({ maxLength: 500 }),
  businessLicense: Type.Optional(Type.String({ maxLength: 40 })),
  website: Type.Optional(Type.String({ maxLength: 200 })),
  remark: Type.Optional(Type.String({ maxLength: 500 })),
});

export const register = endpoint({
  name: 'base/oauth/user/register', method: 'POST', auth: 'public', perm: null, kind: 'mutation', tag,
  summary: { zh: '注册企业客户（待运营审核）', en: 'Register an enterprise customer (pending operator review)' },
  body: RegisterBody,
  response: Type.Object({ applyId: Type.Integer() }),
});

export const resetPassword = endpoint({
  name: 'base/oauth/user/resetPassword', method: 'POST', auth: 'session', perm: null, kind: 'mutation', tag, allowWhenPasswordExpired: true,
  summary: { zh: '修改本人密码（其他会话失效）', en: 'Change your own password (other sessions end)' },
  body: Obj({ oldPassword: Password, newPassword: Password, confirmPassword: Password }),
  response: Nothing,
});

export const getIsResetPassword = endpoint({
  name: 'core/account/account/getIsResetPassword', method: 'POST', auth: 'session', perm: null, kind: 'query', tag, allowWhenPasswordExpired: true,
  summary: { zh: '是否必须修改密码', en: 'Whether the password must be changed' },
  body: Empty,
  response: Type.Object({ mustResetPassword: Type.Boolean() }),
});
