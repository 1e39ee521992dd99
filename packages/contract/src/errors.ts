import { interpolate, type Bilingual, type Lang } from './i18n.ts';

/**
 * Error codes on the wire (`errorCode`). 20003 and 20006 are fixed by the spec (§7, §8); the rest are ours.
 * The client shows `msg`, which the server writes in the caller's language from this table.
 */
export const ErrorCode = {
  BadRequest: 20001,
  PermissionDenied: 20002,
  SessionInvalid: 20003,
  Validation: 20004,
  NotFound: 20005,
  CallLimitExceeded: 20006,
  UnknownField: 20007,
  Conflict: 20008,
  LoginFailed: 20010,
  CaptchaRequired: 20011,
  CaptchaWrong: 20012,
  AccountLocked: 20013,
  AccountFrozen: 20014,
  OldPasswordWrong: 20015,
  PasswordMismatch: 20016,
  LoginNameTaken: 20020,
  CustomerNameTaken: 20021,
  RoleNotAllowed: 20022,
  CustomerLevelNotAllowed: 20023,
  CannotFreezeSelf: 20024,
  AlreadyInState: 20025,
  RegistrationHandled: 20026,
  FileRequired: 20030,
  FileType: 20031,
  FileTooBig: 20032,
  LogoTooBig: 20033,
  RoleInUse: 20034,
  RoleCodeTaken: 20035,
  RoleBuiltIn: 20036,
  PermissionCodeUnknown: 20037,
  EndBeforeSend: 20038,
  PermissionNotHeld: 20039,
  OwnRole: 20042,
  ApnNameTaken: 20043,
  ExportNotReady: 20040,
  ExportNotExportable: 20041,
  // commserv area: 20100-20149
  // plan area: 20150-20199
  // opconfig area: 20200-20249
  // netconfig area: 20250-20299
  // retail area: 20300-20329
  ServerError: 20500,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const errorMessages: Record<ErrorCode, Bilingual> = {
  [ErrorCode.BadRequest]: { zh: '请求错误：{detail}', en: 'Bad request: {detail}' },
  [ErrorCode.PermissionDenied]: { zh: '没有权限执行此操作', en: 'You do not have permission for this operation' },
  [ErrorCode.SessionInvalid]: { zh: '登录已失效，请重新登录', en: 'Your session is invalid, please log in again' },
  [ErrorCode.Validation]: { zh: '字段 {field}：{reason}', en: 'Field {field}: {reason}' },
  [ErrorCode.NotFound]: { zh: '记录不存在', en: 'Record not found' },
  [ErrorCode.CallLimitExceeded]: {
    zh: '接口调用次数超过限制，请在 {retryAfter} 秒后重试',
    en: 'API call limit exceeded, please retry after {retryAfter} seconds',
  },
  [ErrorCode.UnknownField]: { zh: '不支持的字段：{field}', en: 'Unknown field: {field}' },
  [ErrorCode.Conflict]: { zh: '数据已被修改，请刷新后重试', en: 'The record was changed, please refresh and retry' },
  [ErrorCode.LoginFailed]: { zh: '登录名或密码错误', en: 'Wrong login name or password' },
  [ErrorCode.CaptchaRequired]: { zh: '请输入验证码', en: 'Please enter the captcha' },
  [ErrorCode.CaptchaWrong]: { zh: '验证码错误或已过期', en: 'The captcha is wrong or has expired' },
  [ErrorCode.AccountLocked]: {
    zh: '登录失败次数过多，账号已锁定，请在 {minutes} 分钟后重试',
    en: 'Too many failed logins: the account is locked, retry in {minutes} minutes',
  },
  [ErrorCode.AccountFrozen]: { zh: '账号已冻结，请联系管理员', en: 'The account is frozen, please contact your administrator' },
  [ErrorCode.OldPasswordWrong]: { zh: '原密码错误', en: 'The current password is wrong' },
  [ErrorCode.PasswordMismatch]: { zh: '两次输入的密码不一致', en: 'The two passwords do not match' },
  [ErrorCode.LoginNameTaken]: { zh: '登录名已存在', en: 'This login name is already taken' },
  [ErrorCode.CustomerNameTaken]: { zh: '客户名称已存在', en: 'A customer with this name already exists' },
  [ErrorCode.RoleNotAllowed]: {
    zh: '该角色不能分配给此客户的账号',
    en: 'This role cannot be given to an account of this customer',
  },
  [ErrorCode.CustomerLevelNotAllowed]: {
    zh: '只能在一级客户下创建二级客户',
    en: 'Second-level customers can only be created under a first-level customer',
  },
  [ErrorCode.CannotFreezeSelf]: { zh: '不能冻结自己的账号', en: 'You cannot freeze your own account' },
  [ErrorCode.AlreadyInState]: { zh: '账号已处于该状态', en: 'The account is already in this state' },
  [ErrorCode.RegistrationHandled]: { zh: '该注册申请已处理', en: 'This registration has already been handled' },
  [ErrorCode.FileRequired]: { zh: '请上传文件', en: 'Please upload a file' },
  [ErrorCode.FileType]: { zh: '文件类型错误', en: 'File type error' },
  [ErrorCode.FileTooBig]: { zh: '文件过大，不能超过 {max}', en: 'File too big: at most {max}' },
  [ErrorCode.LogoTooBig]: { zh: 'Logo 不能超过 1500KB', en: 'Logo must be smaller than 1500 KB' },
  [ErrorCode.RoleInUse]: { zh: '该角色已分配给 {count} 个账号，不能删除', en: 'This role is held by {count} accounts and cannot be deleted' },
  [ErrorCode.RoleCodeTaken]: { zh: '角色编码已存在', en: 'This role code already exists' },
  [ErrorCode.RoleBuiltIn]: { zh: '内置角色不能删除或修改类型', en: 'A built-in role cannot be deleted or change its type' },
  [ErrorCode.PermissionCodeUnknown]: { zh: '未知的权限编码：{code}', en: 'Unknown permission code: {code}' },
  [ErrorCode.PermissionNotHeld]: { zh: '不能授予自己没有的权限：{code}', en: 'You cannot grant a permission you do not hold: {code}' },
  [ErrorCode.ApnNameTaken]: { zh: '该运营商下已有同名 APN', en: 'This operator already has an APN with this name' },
  [ErrorCode.OwnRole]: { zh: '不能修改自己所属的角色', en: 'You cannot change your own role' },
  [ErrorCode.EndBeforeSend]: { zh: '结束时间必须晚于发送时间', en: 'The end date must be after the send time' },
  [ErrorCode.ExportNotReady]: { zh: '导出文件尚未生成', en: 'The export file is not ready' },
  [ErrorCode.ExportNotExportable]: { zh: '该列表不支持导出', en: 'This list cannot be exported' },
  // commserv messages
  // plan messages
  // opconfig messages
  // netconfig messages
  // retail messages
  [ErrorCode.ServerError]: { zh: '服务器错误，请稍后重试', en: 'Server error, please retry later' },
};

export function errorMessage(code: ErrorCode, lang: Lang, params?: Record<string, string | number>): string {
  const entry = errorMessages[code] ?? errorMessages[ErrorCode.ServerError];
  return interpolate(entry[lang], params);
}

/** Messages of success, shared by server and console. */
export const successMessages = {
  ok: { zh: '操作成功', en: 'Operation success' },
  login: { zh: '登录成功', en: 'Login success' },
  logout: { zh: '退出登录成功', en: 'Logout success' },
} satisfies Record<string, Bilingual>;
