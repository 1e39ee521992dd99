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
  CommServNameTaken: 20100,
  CommServWhitelistTooMany: 20101,
  CommServWhitelistInvalid: 20102,
  CommServWhitelistDuplicate: 20103,
  CommServDirectionalNeedsWhitelist: 20104,
  CommServInUse: 20105,
  CommServLastQos: 20106,
  QosNameTaken: 20107,
  SpeedLimitNameTaken: 20108,
  RedirectNameTaken: 20109,
  SpeedLimitInUse: 20110,
  RedirectInUse: 20111,
  // plan area: 20150-20199
  PlanApnTooMany: 20150,
  PlanZoneTooMany: 20151,
  PlanZoneServiceTooMany: 20152,
  PlanServiceRepeated: 20153,
  PlanServiceMissing: 20154,
  PlanServiceNoQos: 20155,
  PlanServiceAddressTooMany: 20156,
  PlanTestSilentTooLong: 20157,
  PlanTestValidityInvalid: 20158,
  PlanAlternativeApnMismatch: 20159,
  PlanNameTaken: 20160,
  PlanCodeTaken: 20161,
  PlanReleasedNoDelete: 20162,
  PlanRetailDepends: 20163,
  PlanReleaseCustomerInvalid: 20164,
  PlanEffectiveDatePast: 20165,
  PlanPriceChangePending: 20166,
  PlanMoneyInvalid: 20167,
  PlanProfitShareInvalid: 20168,
  PlanSupplementaryFields: 20169,
  PlanGoodsTypeMismatch: 20170,
  // opconfig area: 20200-20249
  OperAccountNameTaken: 20200,
  GatewayAdapterUnavailable: 20201,
  OperAccountInUse: 20202,
  PlatformConfigNameTaken: 20203,
  CommPlanNameTaken: 20204,
  FailureClosed: 20205,
  FailureAccountGone: 20206,
  SecretUndecryptable: 20207,
  // netconfig area: 20250-20299
  FirewallAddressNameTaken: 20250,
  FirewallAddressInUse: 20251,
  FirewallPolicyNameTaken: 20252,
  FirewallAddressWrongBook: 20253,
  OperatorGoodsImportInvalid: 20254,
  OperatorGoodsImportEmpty: 20255,
  OperatorGoodsImportTooMany: 20256,
  UnicomPlanNameTaken: 20257,
  UnicomPlanApnInvalid: 20258,
  // retail area: 20300-20329
  RetailPriceNotAboveBasic: 20300,
  RetailNameExists: 20301,
  RetailCrossedPriceTooLow: 20302,
  RetailBasicNotReleased: 20303,
  RetailBasicIsPack: 20304,
  RetailEventPackInvalid: 20305,
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
  [ErrorCode.CommServNameTaken]: { zh: '通信服务名称已存在', en: 'A communication service with this name already exists' },
  [ErrorCode.CommServWhitelistTooMany]: {
    zh: '白名单最多 {max} 个域名或地址，不能添加第 {count} 个',
    en: 'The whitelist holds at most {max} domain names or addresses: entry {count} is one too many',
  },
  [ErrorCode.CommServWhitelistInvalid]: {
    zh: '白名单第 {index} 项不是有效的域名、IPv4 地址或 IPv4 网段：{value}',
    en: 'Whitelist entry {index} is not a valid domain name, IPv4 address or IPv4 CIDR: {value}',
  },
  [ErrorCode.CommServWhitelistDuplicate]: { zh: '白名单不能重复填写：{value}', en: 'Duplicate whitelist entry: {value}' },
  [ErrorCode.CommServDirectionalNeedsWhitelist]: {
    zh: '定向通信服务至少需要一个白名单域名或地址',
    en: 'A directional communication service needs at least one whitelist domain name or address',
  },
  [ErrorCode.CommServInUse]: {
    zh: '该通信服务已被 {count} 个基础套餐使用，不能删除',
    en: 'This communication service is used by {count} basic plans and cannot be deleted',
  },
  [ErrorCode.CommServLastQos]: {
    zh: '该通信服务已被 {count} 个基础套餐使用，删除后将未配置 QoS，不能删除最后一个 QoS',
    en: 'This communication service is used by {count} basic plans: deleting its last QoS would leave it with no QoS configured',
  },
  [ErrorCode.QosNameTaken]: { zh: '该通信服务下已有同名 QoS', en: 'This communication service already has a QoS profile with this name' },
  [ErrorCode.SpeedLimitNameTaken]: { zh: '限速配置名称已存在', en: 'A speed-limit configuration with this name already exists' },
  [ErrorCode.RedirectNameTaken]: { zh: '重定向配置名称已存在', en: 'A redirect configuration with this name already exists' },
  [ErrorCode.SpeedLimitInUse]: {
    zh: '该限速配置正被 {count} 个通信服务使用，不能删除',
    en: 'This speed-limit configuration is used by {count} communication services and cannot be deleted',
  },
  [ErrorCode.RedirectInUse]: {
    zh: '该重定向配置正被 {count} 个通信服务使用，不能删除',
    en: 'This redirect configuration is used by {count} communication services and cannot be deleted',
  },
  // plan messages
  [ErrorCode.PlanApnTooMany]: { zh: 'APN：每个套餐最多选择 {max} 个 APN', en: 'APN: a plan has at most {max} APNs' },
  [ErrorCode.PlanZoneTooMany]: { zh: '区域：每个套餐最多 {max} 个区域', en: 'Zones: a plan has at most {max} zones' },
  [ErrorCode.PlanZoneServiceTooMany]: {
    zh: '区域“{zone}”：每个区域最多 {max} 个通信服务',
    en: 'Zone "{zone}": at most {max} communication services per zone',
  },
  [ErrorCode.PlanServiceRepeated]: { zh: '区域“{zone}”：请勿选择相同的通信服务（{name}）', en: 'Zone "{zone}": do not select the same communication service ({name})' },
  [ErrorCode.PlanServiceMissing]: { zh: '区域“{zone}”：无此通信服务（{id}）', en: 'Zone "{zone}": no such communication service ({id})' },
  [ErrorCode.PlanServiceNoQos]: {
    zh: '区域“{zone}”：通信服务“{name}”未配置 QoS，请重新选择',
    en: 'Zone "{zone}": communication service "{name}" has no QoS configured, select again',
  },
  [ErrorCode.PlanServiceAddressTooMany]: {
    zh: '区域“{zone}”：通信服务“{name}”的域名或地址超过 {max} 个',
    en: 'Zone "{zone}": communication service "{name}" has more than {max} domain names or addresses',
  },
  [ErrorCode.PlanTestSilentTooLong]: {
    zh: '沉默期：测试期与沉默期合计最多 {max} 个月',
    en: 'Silent period: the test period and the silent period together are at most {max} months',
  },
  [ErrorCode.PlanTestValidityInvalid]: { zh: '测试有效期：只能为 {days} 天', en: 'Test validity: only {days} days' },
  [ErrorCode.PlanAlternativeApnMismatch]: {
    zh: '可变更套餐：只能选择 APN 信息相同的套餐（{name}）',
    en: 'Plans to change to: only plans with the same APN info can be chosen ({name})',
  },
  [ErrorCode.PlanNameTaken]: { zh: '套餐名称已存在', en: 'A plan with this name already exists' },
  [ErrorCode.PlanCodeTaken]: { zh: '套餐编码已存在', en: 'A plan with this code already exists' },
  [ErrorCode.PlanReleasedNoDelete]: {
    zh: '套餐已发布给 {count} 个客户，请先下架再删除',
    en: 'The plan is released to {count} customers: unpublish it before deleting',
  },
  [ErrorCode.PlanRetailDepends]: {
    zh: '客户“{cust}”的零售套餐“{name}”基于此套餐，不能下架',
    en: 'Retail plan "{name}" of customer "{cust}" is built on this plan: it cannot be unpublished',
  },
  [ErrorCode.PlanReleaseCustomerInvalid]: { zh: '客户：无此客户（{id}）', en: 'Customers: no such customer ({id})' },
  [ErrorCode.PlanEffectiveDatePast]: { zh: '生效日期：不能早于今天', en: 'Effective date: must not be before today' },
  [ErrorCode.PlanPriceChangePending]: {
    zh: '该套餐已有待生效的调价（{date} 生效），请等待生效后再调价',
    en: 'A price change of this plan is pending (effective {date}); adjust again after it takes effect',
  },
  [ErrorCode.PlanMoneyInvalid]: {
    zh: '{label}：金额不能为负，最多两位小数',
    en: '{label}: an amount must not be negative and has at most two decimals',
  },
  [ErrorCode.PlanProfitShareInvalid]: { zh: '分润比例：须在 0 到 100 之间', en: 'Profit-sharing proportion: must be between 0 and 100' },
  [ErrorCode.PlanSupplementaryFields]: {
    zh: '{label}：补充包（加油包、叠加包、超量包、增值包）不设置此项',
    en: '{label}: supplementary packs (event, add-on, overage, value-added) do not have this field',
  },
  [ErrorCode.PlanGoodsTypeMismatch]: {
    zh: '商品类型：资费类型“{tariff}”的商品类型应为“{goods}”',
    en: 'Goods type: tariff type "{tariff}" has goods type "{goods}"',
  },
  // opconfig messages
  [ErrorCode.OperAccountNameTaken]: { zh: '该运营商下已有同名接入账号', en: 'This operator already has an access account with this name' },
  [ErrorCode.GatewayAdapterUnavailable]: {
    zh: '网关适配器 {adapter} 未安装，目前只能使用内置网络模拟器',
    en: 'The gateway adapter {adapter} is not installed; only the built-in network simulator is available',
  },
  [ErrorCode.OperAccountInUse]: {
    zh: '该接入配置仍被 {plans} 个通信计划和 {failures} 条未关闭的换卡失败记录使用，不能删除',
    en: 'This access configuration is still used by {plans} communication plans and {failures} open card change failures and cannot be deleted',
  },
  [ErrorCode.PlatformConfigNameTaken]: { zh: '该平台类型下已有同名配置', en: 'This platform type already has an entry with this name' },
  [ErrorCode.CommPlanNameTaken]: { zh: '该运营商下已有同名通信计划', en: 'This operator already has a communication plan with this name' },
  [ErrorCode.FailureClosed]: { zh: '该记录已处理或已重试成功，不能再操作', en: 'This record is already handled or retried successfully' },
  [ErrorCode.FailureAccountGone]: {
    zh: '该记录所属的接入配置已不存在，无法重试，请标记为已处理',
    en: 'The access configuration of this record no longer exists, so it cannot be retried; mark it handled instead',
  },
  [ErrorCode.SecretUndecryptable]: {
    zh: '无法解密已保存的凭据（加密密钥已更换），请重新填写凭据',
    en: 'The stored credentials cannot be decrypted (the encryption key has changed); please enter them again',
  },
  // netconfig messages
  [ErrorCode.FirewallAddressNameTaken]: { zh: '该地址簿中已有同名地址', en: 'This address book already has an address with this name' },
  [ErrorCode.FirewallAddressInUse]: {
    zh: '该地址正被防火墙策略使用（{policies}），请先从策略中移除后再删除',
    en: 'This address is used by firewall policies ({policies}); remove it from them before deleting it',
  },
  [ErrorCode.FirewallPolicyNameTaken]: { zh: '已有同名防火墙策略', en: 'A firewall policy with this name already exists' },
  [ErrorCode.FirewallAddressWrongBook]: {
    zh: '源地址只能选择源地址簿中的地址，目标地址只能选择目标地址簿中的地址（{name}）',
    en: 'Source addresses must come from the source address book and target addresses from the target address book ({name})',
  },
  [ErrorCode.OperatorGoodsImportInvalid]: {
    zh: '文件中有 {count} 处错误，未导入任何套餐，请修改后重新上传',
    en: 'The file has {count} errors; no plan was imported. Correct them and upload again',
  },
  [ErrorCode.OperatorGoodsImportEmpty]: { zh: '文件中没有套餐数据', en: 'The file contains no plan rows' },
  [ErrorCode.OperatorGoodsImportTooMany]: { zh: '一次最多导入 {max} 行', en: 'At most {max} rows can be imported at once' },
  [ErrorCode.UnicomPlanNameTaken]: { zh: '已有同名联通通信计划', en: 'A China Unicom communication plan with this name already exists' },
  [ErrorCode.UnicomPlanApnInvalid]: { zh: '请选择中国联通已启用的 APN', en: 'Choose an enabled APN of China Unicom' },
  // retail messages
  [ErrorCode.RetailPriceNotAboveBasic]: {
    zh: '零售价格必须高于基础套餐售价（{basicPrice} 元）',
    en: 'Retail price must be greater than the basic plan sale price (CNY {basicPrice})',
  },
  [ErrorCode.RetailNameExists]: {
    zh: '该客户已有同名零售套餐“{name}”，是否继续？',
    en: 'A retail plan named "{name}" already exists for this customer. Continue?',
  },
  [ErrorCode.RetailCrossedPriceTooLow]: { zh: '划线价格不能低于零售价格', en: 'Crossed-out price must not be lower than the retail price' },
  [ErrorCode.RetailBasicNotReleased]: {
    zh: '该基础套餐未发布给所选客户',
    en: 'This basic plan is not released to the chosen customer',
  },
  [ErrorCode.RetailBasicIsPack]: {
    zh: '零售套餐只能基于主套餐，不能基于加油包、叠加包等补充包',
    en: 'A retail plan must be built on a main plan, not on a supplementary pack',
  },
  [ErrorCode.RetailEventPackInvalid]: {
    zh: '关联的事件包须为已发布给该客户的事件包',
    en: 'The linked event package must be an event pack released to this customer',
  },
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
