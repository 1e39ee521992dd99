import { interpolate, type Bilingual, type Lang } from './i18n.ts';
import { ErrorCode } from './errors.ts';

// The zh/en message of every error code (errors.ts). A module of its own so that the console's bundler keeps it
// out of the chunk every page loads (the login page needs the codes, not the messages).

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
  [ErrorCode.FileTooBig]: { zh: '文件过大，须小于 {max}', en: 'File too big: it must be under {max}' },
  [ErrorCode.UploadUnpackedTooLarge]: {
    zh: '文件解压后超过 {max}，请拆分后重新上传',
    en: 'The file unpacks to more than {max}; split it and upload again',
  },
  [ErrorCode.UploadTooManyColumns]: {
    zh: '第 {row} 行超过 {max} 列，请删除多余的列后重新上传',
    en: 'Row {row} has more than {max} columns; remove the extra columns and upload again',
  },
  [ErrorCode.UploadCellTooLong]: {
    zh: '第 {row} 行 {column} 列的内容超过 {max} 个字符',
    en: 'The cell in row {row}, column {column} is longer than {max} characters',
  },
  [ErrorCode.UploadMarkupTooLarge]: {
    zh: '文件中有过长的标记或过多的文本条目，无法读取；请在表格软件中另存为 .xlsx 或拆分后重新上传',
    en: 'The file holds an oversized markup item or too many text entries and cannot be read; save it again as .xlsx or split it, and upload again',
  },
  [ErrorCode.LogoTooBig]: { zh: 'Logo 须小于 1500KB', en: 'Logo must be smaller than 1500 KB' },
  [ErrorCode.SingleFile]: { zh: '只能上传一个文件', en: 'Upload a single file' },
  [ErrorCode.RoleInUse]: { zh: '该角色已分配给 {count} 个账号，不能删除', en: 'This role is held by {count} accounts and cannot be deleted' },
  [ErrorCode.RoleCodeTaken]: { zh: '角色编码已存在', en: 'This role code already exists' },
  [ErrorCode.RoleBuiltIn]: { zh: '内置角色不能删除或修改类型', en: 'A built-in role cannot be deleted or change its type' },
  [ErrorCode.PermissionCodeUnknown]: { zh: '未知的权限编码：{code}', en: 'Unknown permission code: {code}' },
  [ErrorCode.PermissionNotHeld]: { zh: '不能授予自己没有的权限：{code}', en: 'You cannot grant a permission you do not hold: {code}' },
  [ErrorCode.ApnNameTaken]: { zh: '该运营商下已有同名 APN', en: 'This operator already has an APN with this name' },
  [ErrorCode.OwnRole]: { zh: '不能修改自己所属的角色', en: 'You cannot change your own role' },
  [ErrorCode.PasswordChangeRequired]: { zh: '请先修改密码', en: 'Change your password first' },
  [ErrorCode.CustomerExited]: {
    zh: '所属客户已退出，账号不能再登录，请联系运营人员',
    en: 'Your customer has exited: its accounts can no longer sign in, please contact the operator',
  },
  [ErrorCode.CustomerFieldStaffOnly]: {
    zh: '字段 {field} 只能由运营人员修改',
    en: 'Field {field} can only be changed by operator staff',
  },
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
  [ErrorCode.PlanTestQuotaTooLarge]: {
    zh: '测试期流量：中国联通标准版套餐最多 {max} KB',
    en: 'Test quota: a standard-version China Unicom plan allows at most {max} KB of test data',
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
  // card messages
  [ErrorCode.CardIllegalTransition]: { zh: '不允许从“{fromZh}”变更为“{toZh}”', en: 'Illegal transition from "{fromEn}" to "{toEn}"' },
  [ErrorCode.CardZoneReleaseDeactivated]: { zh: '已停机的卡不能释放区域', en: 'Release of a zone is not possible when the card is deactivated' },
  [ErrorCode.CardRenewalChangePending]: {
    zh: '变更套餐后或存在待生效的调价时不能续订',
    en: 'Renewal is not possible after a plan change or while a price change is pending',
  },
  [ErrorCode.CardNotActiveForOrder]: { zh: '只有已激活的卡才能续订或订购加油包', en: 'Only active cards can renew or order event packs' },
  [ErrorCode.CardStartStateUnsupported]: { zh: '不支持初始状态的卡', en: 'Cards in start state are not supported' },
  [ErrorCode.CardPermitDeactivated]: { zh: '停机状态不支持放开', en: 'The deactivated state does not support permit' },
  [ErrorCode.CardQrNotDownloadable]: {
    zh: '已失效、已销户或强制停机的卡不能下载二维码（已跳过）',
    en: 'QR codes cannot be downloaded for invalidated, retired or frozen cards (such cards are skipped)',
  },
  [ErrorCode.CardNetworkResetTooSoon]: { zh: '网络重置间隔不能少于 3 分钟', en: 'Network reset is not possible more often than every 3 minutes' },
  [ErrorCode.CardStandardNoDiagnosis]: { zh: '标准版卡不支持诊断', en: 'Standard cards do not support diagnosis' },
  [ErrorCode.CardPlanChangeMonthly]: { zh: '每月只能变更一次套餐', en: 'Only one plan change per month is allowed' },
  [ErrorCode.CardPlanApnMismatch]: { zh: '只能变更为 APN 信息相同的套餐', en: 'Only plans with the same APN info can be chosen' },
  [ErrorCode.CardAlreadyInState]: { zh: '卡已处于“{stateZh}”状态', en: 'The card is already in state "{stateEn}"' },
  [ErrorCode.CardOperationUnsupported]: {
    zh: '“{stateZh}”状态的卡不支持此操作',
    en: 'A card in state "{stateEn}" does not support this operation',
  },
  [ErrorCode.CardPlanChangeSamePlan]: { zh: '卡已在使用该套餐', en: 'The card already uses this plan' },
  [ErrorCode.CardNoValidPeriod]: { zh: '卡没有有效的套餐周期', en: 'The card has no valid plan period' },
  [ErrorCode.CardGatewayRefused]: {
    zh: '运营商拒绝了状态变更，卡状态未改变：{reason}（已记录到换卡失败记录）',
    en: 'The operator refused the state change; the card state is unchanged: {reason} (recorded as a card change failure)',
  },
  // card data messages
  [ErrorCode.CardImportEmpty]: { zh: '文件中没有卡数据', en: 'The file contains no card rows' },
  [ErrorCode.CardImportTooMany]: { zh: '一次最多导入 {max} 张卡', en: 'At most {max} cards can be imported at once' },
  [ErrorCode.CardImportMissingColumns]: {
    zh: '文件缺少列：{columns}，请使用导入模板',
    en: 'The file lacks the columns: {columns}. Use the import template',
  },
  [ErrorCode.CardRangeInvalid]: {
    zh: 'ICCID 号段的起止号码须为位数相同的 19-20 位数字，且结束号码不小于起始号码',
    en: 'An ICCID range needs start and end of the same length (19-20 digits), the end not before the start',
  },
  // card catalogue messages
  [ErrorCode.CardLabelNameTaken]: { zh: '标签名称“{name}”已存在', en: 'A label named "{name}" already exists' },
  [ErrorCode.CardLabelUnavailable]: { zh: '标签不存在或无权使用：{ids}', en: 'These labels do not exist or are not yours to use: {ids}' },
  [ErrorCode.CardLabelInUse]: {
    zh: '标签“{name}”已用于 {count} 张卡，确认删除后将同时从这些卡上移除',
    en: 'The label "{name}" is on {count} cards; confirm the deletion to remove it from them too',
  },
  [ErrorCode.CardLabelOtherOwner]: {
    zh: '标签“{name}”属于其他客户，不能用于卡 {iccid}',
    en: 'The label "{name}" belongs to another customer and cannot be put on card {iccid}',
  },
  [ErrorCode.CardLabelTooManyOnCard]: { zh: '卡 {iccid} 最多只能有 {max} 个标签', en: 'Card {iccid} can carry at most {max} labels' },
  [ErrorCode.CardLabelPlatformStaffOnly]: { zh: '平台标签只能由运营方人员修改或删除', en: 'Platform labels can only be changed or deleted by operator staff' },
  [ErrorCode.CardLabelTooManyCards]: { zh: '一次最多为 {max} 张卡设置标签', en: 'Labels can be set on at most {max} cards at a time' },
  [ErrorCode.CardTypeNameTaken]: { zh: '卡类型名称“{name}”已存在', en: 'A card type named "{name}" already exists' },
  [ErrorCode.CardTypeInUse]: {
    zh: '卡类型“{name}”已被卡使用，不能删除',
    en: 'The card type "{name}" is used by cards and cannot be deleted',
  },
  [ErrorCode.CardTypeTemperatureRange]: { zh: '最低工作温度必须低于最高工作温度', en: 'The lowest operating temperature must be below the highest' },
  [ErrorCode.CardTypeStaffOnly]: { zh: '卡类型由运营方人员维护，客户账号只能查看', en: 'Card types are kept by operator staff; customer accounts can only view them' },
  [ErrorCode.TestCardNotInTest]: {
    zh: '该卡当前为“{stateZh}”状态，不在测试期，不能更新测试期',
    en: 'The card is {stateEn}, not in its test period; its test period cannot be updated',
  },
  [ErrorCode.TestPeriodTooLong]: {
    zh: '测试期与库存期合计不能超过 {months} 个月：测试期最晚可延长至 {latest}',
    en: 'Test and inventory periods together may not exceed {months} months: the test can run until {latest} at the latest',
  },
  [ErrorCode.TestCardExtendDaysRequired]: { zh: '请选择延长的天数（30/60/90/180/360 天）', en: 'Choose how many days to extend by (30/60/90/180/360)' },
  // card detail, allocation, SMS and QR messages
  [ErrorCode.CardSelectionTooLarge]: {
    zh: '选择的卡过多（超过 {max} 张），请缩小筛选范围',
    en: 'Selection too large (more than {max} cards selected), narrow the filters',
  },
  [ErrorCode.CardSelectionEmpty]: { zh: '所选范围内没有可以划拨或分配给该客户的卡', en: 'The selection holds no card that can go to this customer' },
  [ErrorCode.CardSelectionIneligible]: {
    zh: '所选卡中有 {count} 张不能分配给该客户（不存在、不在可划拨范围内或已属于该客户），请重新选择',
    en: '{count} of the selected cards cannot go to this customer (missing, not in the source, or already its own); select again',
  },
  [ErrorCode.CardSelectionChanged]: {
    zh: '所选卡的数量已变化（现在为 {count} 张），请重新确认',
    en: 'The number of selected cards has changed (now {count}); please confirm again',
  },
  [ErrorCode.AllocationTargetInvalid]: {
    zh: '该客户不可选：平台库存的卡只能由运营方划拨，客户只能把自己的卡分配给本客户或其二级客户',
    en: 'This customer cannot be chosen: stock cards are transferred by operator staff, and a customer distributes its cards only to itself or its second-level customers',
  },
  [ErrorCode.AllocationNotAllowed]: { zh: '二级客户不能划拨或分配卡', en: 'Second-level customers cannot transfer or distribute cards' },
  [ErrorCode.AllocationPlanNotReleased]: {
    zh: '该套餐不是发布给所选客户的基础套餐',
    en: 'This plan is not a basic plan released to the chosen customer',
  },
  [ErrorCode.AllocationPlanOperatorMismatch]: {
    zh: '该套餐属于{operatorZh}，所选卡中有 {count} 张属于其他运营商',
    en: 'The plan is for {operatorEn}; {count} of the selected cards belong to another operator',
  },
  [ErrorCode.AllocationCardsHavePlan]: {
    zh: '所选卡中有 {count} 张已不是初始状态，划拨时只能给初始状态的卡指定套餐；请在卡详情中变更它们的套餐',
    en: '{count} of the selected cards are no longer in the start state; a plan can only be given on allocation to start-state cards, so change their plan in the card detail',
  },
  [ErrorCode.AllocationStateIllegal]: {
    zh: '所选卡中有 {count} 张处于“{stateZh}”状态，不能变为“{toZh}”',
    en: '{count} of the selected cards are in state "{stateEn}" and cannot become "{toEn}"',
  },
  [ErrorCode.AllocationAborted]: {
    zh: '划拨未完成，所有卡保持不变：{reasonZh}',
    en: 'The allocation did not complete; no card was changed: {reasonEn}',
  },
  [ErrorCode.CardPlanNotOffered]: {
    zh: '只能变更为发布给卡所属客户的基础套餐',
    en: "Only basic plans released to the card's customer can be chosen",
  },
  [ErrorCode.CardEventPackNotOffered]: {
    zh: '只能订购发布给卡所属客户的加油包',
    en: "Only event packs released to the card's customer can be ordered",
  },
  [ErrorCode.CardHasNoPlan]: { zh: '卡还没有套餐', en: 'The card has no plan yet' },
  [ErrorCode.SmsCardNotReachable]: {
    zh: '只能给测试期或已激活的卡发送短信（当前为“{stateZh}”）',
    en: 'SMS can only be sent to cards in test or activated state (this card is "{stateEn}")',
  },
  [ErrorCode.SmsTooLong]: {
    zh: '短信内容过长：最多 {max} 个字符（含中文等字符时最多 70 个，否则最多 160 个）',
    en: 'The message is too long: at most {max} characters (70 with Chinese or other non-GSM characters, otherwise 160)',
  },
  [ErrorCode.SmsNoGateway]: {
    zh: '卡所属运营商没有可用的接入配置，短信无法下发',
    en: "The card's operator has no usable access configuration, so the SMS cannot be sent",
  },
  [ErrorCode.SmsNoMsisdn]: { zh: '卡没有 MSISDN，不能发送短信', en: 'The card has no MSISDN, so no SMS can be sent to it' },
  [ErrorCode.CardZoneNotOnPlan]: { zh: '该区域不属于卡的套餐', en: "This zone is not part of the card's plan" },
  [ErrorCode.AllocationInitialStateInvalid]: {
    zh: '初始状态只能是测试期、库存期、待激活或已激活',
    en: 'The initial state can only be test, inventory, activation ready or activated',
  },
  // batch messages
  [ErrorCode.BatchTooMany]: {
    zh: '所选卡数量过多（{count} 张），每批最多 {max} 张，请缩小筛选范围',
    en: 'Selection too large ({count} cards): at most {max} cards per batch, narrow the filters',
  },
  [ErrorCode.BatchEmpty]: { zh: '没有选择任何卡：请勾选卡、粘贴 ICCID 或上传文件', en: 'No card chosen: tick cards, paste ICCIDs or upload a file' },
  [ErrorCode.BatchFileNoIccid]: { zh: '文件中没有 ICCID 列，请使用批量操作模板', en: 'The file has no ICCID column. Use the batch template' },
  [ErrorCode.BatchNotValidated]: { zh: '该批次已确认或已取消，不能再次确认', en: 'This batch has already been confirmed or cancelled' },
  [ErrorCode.BatchNothingValid]: {
    zh: '没有可执行的卡：所有卡都无效或已处于目标状态',
    en: 'Nothing to do: every card is invalid or already in the target state',
  },
  [ErrorCode.BatchStandardOnly]: { zh: '只有标准版的卡可以进行标准卡操作', en: 'Only standard-version cards can take a standard-card operation' },
  [ErrorCode.BatchCardNotFound]: { zh: '卡不存在', en: 'Card not found' },
  [ErrorCode.BatchIccidInvalid]: { zh: 'ICCID 格式不正确，应为 19-20 位数字', en: 'Invalid ICCID: it has 19-20 digits' },
  [ErrorCode.BatchZoneNotInPlan]: { zh: '卡的套餐不包含该区域', en: "The card's plan does not include this zone" },
  [ErrorCode.BatchZoneAlreadyBlocked]: { zh: '该区域已处于限制状态', en: 'This zone is already blocked on the card' },
  [ErrorCode.BatchZoneNotBlocked]: { zh: '该区域未被限制，无需放开', en: 'This zone is not blocked on the card' },
  [ErrorCode.BatchLabelsUnchanged]: { zh: '卡的标签已符合要求，无需变更', en: "The card's labels already match" },
  [ErrorCode.BatchLabelUnknown]: { zh: '标签不存在：{ids}', en: 'No such label: {ids}' },
  [ErrorCode.BatchPlanUnknown]: { zh: '套餐不存在或未发布给您', en: 'No such plan, or it is not released to you' },
  [ErrorCode.BatchCreatorInactive]: {
    zh: '批次创建人的账号已停用或已无此操作权限，未执行',
    en: "Not done: the batch creator's account is disabled or no longer has this permission",
  },
  [ErrorCode.BatchNotCancellable]: { zh: '只有待确认的批次可以取消', en: 'Only a batch waiting for confirmation can be cancelled' },
  [ErrorCode.BatchFileTooMany]: {
    zh: '文件中的卡过多（超过 {max} 张），每批最多 {max} 张，请拆分文件',
    en: 'The file has more than {max} cards: at most {max} cards per batch, split the file',
  },
  [ErrorCode.BatchLabelsTooMany]: { zh: '一张卡最多 {max} 个标签', en: 'A card holds at most {max} labels' },
  // diagnosis messages
  [ErrorCode.DiagnoseResetRefused]: {
    zh: '运营商拒绝了网络重置：{reason}（已记录到换卡失败记录）',
    en: 'The operator refused the network reset: {reason} (recorded as a card change failure)',
  },
  // usage messages
  [ErrorCode.UsageRangeTooLong]: { zh: '查询的时间跨度不能超过 {max} 天', en: 'The date range can span at most {max} days' },
  [ErrorCode.UsageRangeReversed]: { zh: '结束日期不能早于开始日期', en: 'The end date must not be before the start date' },
  [ErrorCode.UsageSessionsExpired]: {
    zh: '会话记录只保留 {from} 以来的数据，请选择更近的日期或按日查询',
    en: 'Session records are kept from {from} on: choose later dates or query daily records',
  },
  // pool messages
  [ErrorCode.PoolNotFound]: { zh: '流量池不存在', en: 'No such pool' },
  [ErrorCode.PoolNameTaken]: { zh: '该客户已有同名流量池', en: 'This customer already has a pool with this name' },
  [ErrorCode.PoolHasCards]: { zh: '流量池内还有 {count} 张卡，请先移出后再删除', en: 'The pool still holds {count} cards: remove them before deleting it' },
  [ErrorCode.PoolOwnerLocked]: { zh: '流量池已有成员卡，不能更改所属客户或运营商', en: 'The pool has member cards: its customer and operator cannot change' },
  [ErrorCode.PoolAlreadyBlocked]: { zh: '流量池已处于阻断状态', en: 'The pool is already blocked' },
  [ErrorCode.PoolNotBlocked]: { zh: '流量池未被阻断', en: 'The pool is not blocked' },
  [ErrorCode.PoolUnblockExhausted]: {
    zh: '本周期用量 {used} 已超过池额度 {quota}：请先加入卡提高额度，或将用尽动作改为继续使用，再解除阻断',
    en: 'This cycle\'s usage {used} is above the pool\'s quota {quota}: add cards to raise the quota, or switch the action to keep using, before unblocking',
  },
  [ErrorCode.PoolCardOtherOperator]: { zh: '卡的运营商与流量池不一致', en: 'The card is on another operator than the pool' },
  [ErrorCode.PoolCardOtherCustomer]: { zh: '卡不属于流量池所属客户', en: 'The card does not belong to the pool\'s customer' },
  [ErrorCode.PoolCardInOtherPool]: { zh: '卡已在流量池“{pool}”中，请先移出', en: 'The card is already in pool "{pool}": remove it from there first' },
  [ErrorCode.PoolCardAlreadyIn]: { zh: '卡已在该流量池中', en: 'The card is already in this pool' },
  [ErrorCode.PoolCardNotIn]: { zh: '卡不在该流量池中', en: 'The card is not in this pool' },
  [ErrorCode.PoolCardState]: { zh: '处于“{state}”状态的卡不能加入流量池', en: 'A card in state "{state}" cannot join a pool' },
  [ErrorCode.PoolCardNoPlan]: { zh: '卡没有基础套餐，不能加入流量池', en: 'A card without a basic plan cannot join a pool' },
  [ErrorCode.PoolFull]: { zh: '一个流量池最多 {max} 张卡', en: 'A pool holds at most {max} cards' },
  [ErrorCode.PoolCustomerInvalid]: { zh: '请选择流量池所属的客户（本租户内的客户）', en: 'Choose the pool\'s customer (one within your tenant)' },
  [ErrorCode.CardFragmentTooShort]: {
    zh: '“包含”匹配至少需要 {min} 位数字（位数太少会匹配太多卡）',
    en: '"Contains" needs at least {min} digits (fewer digits match too many cards)',
  },
  [ErrorCode.CardFragmentTooBroad]: {
    zh: '这串数字出现在太多卡中，无法快速查找：请多输入几位数字，或改用“前缀”匹配',
    en: 'These digits occur in too many cards to search quickly: type more digits, or match by prefix',
  },
  [ErrorCode.BalanceInsufficient]: {
    zh: '余额不足：当前可用 {available} 元',
    en: 'Insufficient balance: {available} CNY available',
  },
  [ErrorCode.MoneyAmountInvalid]: {
    zh: '金额须大于 0 且最多两位小数，不超过 {max} 元',
    en: 'The amount must be more than 0, with at most two decimals, and at most {max} CNY',
  },
  [ErrorCode.MoneySelfReview]: {
    zh: '客户不能为自己审核、打款或授信',
    en: 'A customer cannot review, pay out or grant credit for itself',
  },
  [ErrorCode.WithdrawInsufficient]: {
    zh: '可提现金额不足：当前可提现 {withdrawable} 元',
    en: 'Insufficient for withdrawal: {withdrawable} CNY can be withdrawn',
  },
  [ErrorCode.WithdrawInProgress]: {
    zh: '有提现正在处理中，暂不能发起新的提现',
    en: 'A withdrawal cannot be started while one is being processed',
  },
  [ErrorCode.WithdrawNoBankAccount]: {
    zh: '客户资料中没有开户银行和银行账号，请先补充后再申请提现',
    en: 'The customer has no bank name and bank account on file: add them before applying for a withdrawal',
  },
  [ErrorCode.WithdrawStateChanged]: {
    zh: '该提现已被处理，不能再审核，请刷新后查看',
    en: 'This withdrawal has already been handled and can no longer be reviewed; refresh to see it',
  },
  [ErrorCode.WithdrawRunBusy]: {
    zh: '已有打款批次正在执行（批次 {runId}），请等待其完成',
    en: 'A payout run is already in progress (run {runId}); wait for it to finish',
  },
  [ErrorCode.WithdrawNothingApproved]: {
    zh: '没有已审核待打款的提现',
    en: 'There are no approved withdrawals awaiting payout',
  },
  [ErrorCode.WithdrawReasonRequired]: {
    zh: '驳回时请填写驳回原因',
    en: 'Give a reason when rejecting',
  },
  [ErrorCode.CalendarDayExists]: {
    zh: '{day} 已在工作日历中，请直接修改',
    en: '{day} is already in the calendar: edit it instead',
  },
  [ErrorCode.CalendarMakeUpNotWeekend]: {
    zh: '调休上班日须为周六或周日（{day} 本就是工作日）',
    en: 'A make-up working day must be a Saturday or Sunday ({day} is a working day anyway)',
  },
  [ErrorCode.CalendarStaffOnly]: {
    zh: '只有平台人员可以修改工作日历',
    en: 'Only platform staff can edit the working-day calendar',
  },
  [ErrorCode.RechargeSerialUsed]: {
    zh: '该流水号已登记过，同一笔转账不能重复充值',
    en: 'This serial number has already been entered: one transfer cannot be topped up twice',
  },
  [ErrorCode.RechargeNotPending]: {
    zh: '该充值不在待审核状态（可能已被他人处理），请刷新后重试',
    en: 'This top-up is no longer waiting for review (someone may have handled it); refresh and try again',
  },
  [ErrorCode.PaymentSignatureInvalid]: {
    zh: '支付通知签名校验失败',
    en: 'The payment notification\'s signature is not valid',
  },
  [ErrorCode.PaymentAmountMismatch]: {
    zh: '支付金额与订单金额不符',
    en: 'The paid amount does not match the order\'s amount',
  },
  [ErrorCode.RechargeRefundTooMuch]: {
    zh: '退款金额超出可退金额：本笔充值最多还可退 {refundable} 元',
    en: 'The refund is more than can be refunded: at most {refundable} CNY of this top-up is left',
  },
  [ErrorCode.RechargeNotRefundable]: {
    zh: '只有已到账的充值可以退款',
    en: 'Only a confirmed top-up can be refunded',
  },
  [ErrorCode.PaymentChannelNotInstalled]: {
    zh: '支付渠道“{channel}”未安装，请选择其他渠道',
    en: 'The payment channel "{channel}" is not installed; choose another one',
  },
  [ErrorCode.RechargeProofInvalid]: {
    zh: '请先上传转账凭证（jpg/png/gif，小于 2MB）',
    en: 'Upload the transfer certificate first (jpg/png/gif under 2 MB)',
  },
  [ErrorCode.RechargeTransferDateInvalid]: {
    zh: '转账日期不能晚于今天',
    en: 'The transfer date cannot be later than today',
  },
  [ErrorCode.PaymentChannelFailed]: {
    zh: '支付渠道处理失败：{message}',
    en: 'The payment channel failed: {message}',
  },
  [ErrorCode.RechargeNotClosable]: {
    zh: '只有待支付的订单可以关闭',
    en: 'Only an unpaid order can be closed',
  },
  [ErrorCode.CreditStaffOnly]: {
    zh: '授信只能由平台财务人员办理',
    en: 'Only the platform\'s finance staff grant or change credit',
  },
  [ErrorCode.CreditClosed]: {
    zh: '该授信{state}，不能再修改或重置',
    en: 'This credit order has ended ({state}): it can no longer be changed or reset',
  },
  [ErrorCode.CreditBelowUsed]: {
    zh: '客户正在使用 {used} 元授信，有效授信合计不能低于该金额（调整后为 {after} 元）',
    en: 'The customer is using {used} CNY of credit: its valid credit cannot go below that (it would be {after} CNY)',
  },
  [ErrorCode.CreditValidToInvalid]: {
    zh: '临时授信的有效期截止日须在 {today} 至 {max} 之间',
    en: 'The last valid day of a provisional credit must be between {today} and {max}',
  },
  [ErrorCode.CreditTermInvalid]: {
    zh: '还款期限须为 1–{maxDays} 天或 1–{maxMonths} 个月',
    en: 'The payment term must be 1–{maxDays} days or 1–{maxMonths} months',
  },
  [ErrorCode.BillPeriodNotReady]: {
    zh: '账期 {period} 尚未结束，{day} 起才能出账',
    en: 'Period {period} has not ended: bills can be run from {day}',
  },
  [ErrorCode.BillUsageNotArrived]: {
    zh: '账期 {period} 的用量尚未到齐：运营商用量已送达至 {last}，需送达至 {need} 才能出账',
    en: 'The usage of period {period} has not all arrived: the operator has delivered up to {last}, and {need} is needed before bills can be run',
  },
  [ErrorCode.BillRunRunning]: { zh: '账期 {period} 正在出账，请等待本次出账完成', en: 'Bills of {period} are being run; wait for that run to finish' },
  [ErrorCode.BillPublished]: { zh: '账单已发布，不能重新出账', en: 'The bill is published; it cannot be run again' },
  [ErrorCode.BillNotPublished]: { zh: '账单尚未发布，不能核销', en: 'The bill is not published yet; it cannot be written off' },
  [ErrorCode.WriteOffZero]: { zh: '核销金额不能为 0', en: 'The write-off amount cannot be 0' },
  [ErrorCode.WriteOffAboveDue]: {
    zh: '核销金额不能超过待核销金额 {due} 元',
    en: 'The write-off amount cannot exceed the amount to be written off, {due} CNY',
  },
  [ErrorCode.WriteOffAboveBalance]: {
    zh: '核销金额不能超过预存款与赠送金之和 {payable} 元',
    en: 'The write-off amount cannot exceed pre-deposit plus grants, {payable} CNY',
  },
  [ErrorCode.BillNothingDue]: { zh: '该账单已无待核销金额', en: 'Nothing is left to write off on this bill' },
  [ErrorCode.BillRunNothing]: { zh: '账期 {period} 没有需要出账的客户', en: 'No customer has anything to bill for {period}' },
  [ErrorCode.OneOffFeeBilled]: { zh: '该费用已出账或已取消，不能再取消', en: 'The fee is already billed or cancelled; it cannot be cancelled' },
  [ErrorCode.OneOffFeeCardNotOwned]: { zh: '卡 {iccid} 不属于该客户', en: 'Card {iccid} does not belong to this customer' },
  [ErrorCode.ChannelBillBusy]: { zh: '该渠道账单正在导入或对账，请稍后再试', en: 'The channel bill is being imported or reconciled; try again when it has finished' },
  [ErrorCode.ChannelBillImportFailed]: { zh: '该渠道账单导入失败，没有可对账的明细；请修正文件后重新导入', en: 'The channel bill\'s import failed and it has no lines to reconcile; correct the file and import it again' },
  [ErrorCode.ChannelBillExists]: {
    zh: '{operator} {period} 已有来自“{source}”的渠道账单（编号 {billId}），请先删除再导入',
    en: 'There is already a channel bill from "{source}" for {operator} {period} (no. {billId}); delete it before importing again',
  },
  [ErrorCode.ChannelBillPeriodOpen]: { zh: '账期 {period} 尚未结束（至 {lastDay}），结束后才能导入对账', en: 'Period {period} has not ended yet (it runs to {lastDay}); import its bill once it has' },
  [ErrorCode.ChannelBillOperatorUnknown]: { zh: '运营商不存在', en: 'Unknown operator' },
  [ErrorCode.ChannelBillOperatorBillLinked]: {
    zh: '{account} {period} 的运营账单已对账为渠道账单（编号 {billId}），请直接打开；如需重新对账，请先删除该渠道账单',
    en: 'The operating bill of {account} for {period} is already reconciled as channel bill no. {billId}; open it, or delete it to reconcile again',
  },
  [ErrorCode.ChannelBillOperatorBillNotFetched]: {
    zh: '只有已获取或已确认的运营账单才能对账（{account} {period} 当前为“{state}”）',
    en: 'Only a fetched or confirmed operating bill can be reconciled ({account} {period} is "{state}")',
  },
  [ErrorCode.ChannelBillOperatorBillEmpty]: {
    zh: '{account} {period} 的运营账单没有计费的卡，无可对账（该运营商的卡在其第一个接入配置的账单上）',
    en: 'The operating bill of {account} for {period} charges no card, so there is nothing to reconcile (the operator\'s cards are on the bill of its first access configuration)',
  },
  [ErrorCode.BillNotRated]: { zh: '该账单最近一次出账未完成，请重新出账后再发布', en: 'The bill\'s last run did not finish; run it again before publishing' },
  [ErrorCode.OperatorBillConfirmed]: { zh: '{account} {period} 账期的运营商账单已确认，不再重新获取', en: 'The operator bill of {account} for {period} is confirmed; it is not fetched again' },
  [ErrorCode.OperatorBillFetching]: { zh: '{account} {period} 账期的运营商账单正在获取中，请稍后再试', en: 'The operator bill of {account} for {period} is being fetched; try again when it has finished' },
  [ErrorCode.OperatorBillPeriodOpen]: {
    zh: '{period} 账期尚未结束或用量尚未同步到账期最后一天（{reason}），运营商账单暂不能获取',
    en: 'Period {period} has not closed or its usage has not been delivered up to its last day ({reason}); the operator bill cannot be fetched yet',
  },
  [ErrorCode.OperatorBillNotFetched]: { zh: '只有已获取的运营商账单才能确认', en: 'Only a fetched operator bill can be confirmed' },
  [ErrorCode.BillAutoNoAction]: { zh: '请至少选择一个动作：发布账单或核销账单', en: 'Choose at least one action: publish the bill or write it off' },
  [ErrorCode.BillAutoRuleExists]: { zh: '客户 {cust} 已有自动出账规则，请编辑该规则', en: 'Customer {cust} already has an automated ledger rule; edit that rule' },
  [ErrorCode.AutoRuleThresholdInvalid]: { zh: '{type}规则的阈值须为 {min}-{max} {unit}', en: 'The threshold of a "{type}" rule must be {min}-{max} {unit}' },
  [ErrorCode.AutoRuleContactsRequired]: { zh: '选择{channel}通知时须填写{field}', en: 'Notifying by {channel} needs {field}' },
  [ErrorCode.AutoRuleTargetRequired]: { zh: '请选择{what}', en: 'Choose {what}' },
  [ErrorCode.AutoRuleStatesInvalid]: { zh: '卡状态 {state} 不存在', en: 'There is no card state {state}' },
  [ErrorCode.AutoRuleDryRunUnsupported]: {
    zh: '{type}规则无法试运行：平台不保存其历史数据',
    en: 'A "{type}" rule cannot be dry-run: the platform keeps no history to replay it from',
  },
  [ErrorCode.AutoRuleNotPublished]: { zh: '规则尚未发布，请先发布', en: 'The rule is not published yet; publish it first' },
  [ErrorCode.AutoRuleChannelRequired]: { zh: '仅通知的规则须至少选择一种通知方式', en: 'A notify-only rule needs at least one way to notify' },
  [ErrorCode.DataPushNameTaken]: { zh: '该客户已有名为“{name}”的推送任务', en: 'This customer already has a push task named "{name}"' },
  [ErrorCode.DataPushConnectRefused]: { zh: '无法连接 {host}:{port}：连接被拒绝，请检查地址和端口', en: 'Cannot connect to {host}:{port}: the connection was refused; check the address and port' },
  [ErrorCode.DataPushHostUnknown]: { zh: '找不到主机 {host}，请检查地址', en: 'Host {host} was not found; check the address' },
  [ErrorCode.DataPushAddressPrivate]: { zh: '地址 {host} 指向内网或保留地址（{address}），平台不向其推送', en: 'The address {host} leads to a private or reserved network address ({address}); the platform does not push there' },
  [ErrorCode.DataPushTimeout]: { zh: '连接 {host}:{port} 超时，请检查地址、端口和防火墙', en: 'Connecting to {host}:{port} timed out; check the address, port and firewall' },
  [ErrorCode.DataPushAuthFailed]: { zh: '账号 {account} 登录失败：账号、密码或私钥错误', en: 'Sign-in as {account} failed: wrong account, password or private key' },
  [ErrorCode.DataPushPathMissing]: { zh: '路径 {path} 不存在或不是目录', en: 'The path {path} does not exist or is not a directory' },
  [ErrorCode.DataPushPathNotWritable]: { zh: '路径 {path} 不可写：没有写入权限', en: 'The path {path} is not writable: permission denied' },
  [ErrorCode.DataPushFailed]: { zh: 'SFTP 推送失败：{detail}', en: 'SFTP push failed: {detail}' },
  [ErrorCode.DataPushKeyInvalid]: { zh: '私钥格式错误或口令不正确', en: 'The private key is malformed or its passphrase is wrong' },
  [ErrorCode.DataPushHostKeyChanged]: {
    zh: 'SFTP 服务器 {host}:{port} 的主机密钥已变更（已确认的指纹 {expected}，本次出示 {actual}），为防止文件被冒充的服务器接收已拒绝推送。如确认服务器已更换密钥，请编辑任务重新测试连接，核对新指纹后保存',
    en: 'The host key of the SFTP server {host}:{port} has changed (accepted fingerprint {expected}, presented now {actual}); the push was refused so that no impostor server receives the file. If the server\'s key was replaced on purpose, edit the task, test the connection again, check the new fingerprint and save',
  },
  [ErrorCode.DataPushBusy]: { zh: '该任务已有推送在进行中，请稍后再试', en: 'A push of this task is already waiting or running; try again later' },
  [ErrorCode.MailNotConfigured]: { zh: '未配置邮件服务器（CMP_SMTP_HOST）', en: 'No mail server is configured (CMP_SMTP_HOST)' },
  [ErrorCode.OpenApiSignedHeaders]: {
    zh: '签名调用的请求头 {header} 缺失或格式错误（见 API 文档“签名调用”）',
    en: 'Signed call: the header {header} is missing or malformed (see "Signed calls" in the API documentation)',
  },
  [ErrorCode.OpenApiKeyUnknown]: { zh: 'AppKey 不存在，或其客户已退出', en: 'Unknown AppKey, or its customer has exited' },
  [ErrorCode.OpenApiKeyCannotSign]: {
    zh: '该 AppKey 的密钥生成于签名调用上线之前，只保存了摘要，无法用于签名；请在 API 管理中轮换密钥并使用新密钥',
    en: 'The secret of this AppKey was created before signed calls and only its hash was kept, so it cannot sign; rotate the key in the API manager and use the new secret',
  },
  [ErrorCode.OpenApiTimestampStale]: {
    zh: '请求时间戳与服务器时间相差超过 {minutes} 分钟，请校准时钟后重新签名',
    en: 'The request timestamp is more than {minutes} minutes away from the server time; check your clock and sign again',
  },
  [ErrorCode.OpenApiNonceReused]: {
    zh: '该 nonce 已使用过，重放的请求被拒绝；每次调用请使用新的 nonce',
    en: 'This nonce was already used and a replayed request is refused; use a new nonce for every call',
  },
  [ErrorCode.OpenApiSignatureInvalid]: { zh: '签名校验失败', en: 'The signature does not match' },
  [ErrorCode.OpenApiIpRefused]: {
    zh: '调用方 IP {ip} 不在客户已启用的 IP 白名单内，请求被拒绝',
    en: 'The caller IP {ip} is outside the customer\'s enabled IP whitelist; the call is refused',
  },
  [ErrorCode.OpenApiEndpointClosed]: { zh: '开放 API 不提供此接口：{endpoint}', en: 'This endpoint is not part of the open API: {endpoint}' },
  [ErrorCode.OpenApiSubscribeNoAddress]: { zh: '请先填写回调地址，再订阅事件', en: 'Enter the callback address before subscribing to events' },
  [ErrorCode.UploadMalformed]: {
    zh: '上传的内容不完整或格式错误，请重新选择文件上传',
    en: 'The upload is incomplete or malformed, please choose the file and upload it again',
  },
  [ErrorCode.JsonInvalid]: { zh: '请求内容不是有效的 JSON', en: 'The request body is not valid JSON' },
  [ErrorCode.JsonTooDeep]: { zh: '请求内容嵌套超过 {max} 层', en: 'The request body is nested more than {max} levels deep' },
  [ErrorCode.ContentTypeUnsupported]: {
    zh: '不支持的请求内容类型：{type}',
    en: 'Unsupported request content type: {type}',
  },
  [ErrorCode.RequestHeadTooLarge]: {
    zh: '请求地址或请求头过长（上限 {max}）',
    en: 'The request address or headers are too long (at most {max})',
  },
  [ErrorCode.SimTrafficNotSimulator]: {
    zh: '卡 {iccid} 的运营商通过接入配置“{account}”连接真实网络，只有模拟器网络上的卡能生成流量',
    en: 'Card {iccid}: its operator is reached through the access configuration "{account}", a real network; only cards on the simulator can get generated usage',
  },
  [ErrorCode.SimTrafficNotServing]: {
    zh: '卡 {iccid} 当前为“{stateZh}”，设备不能使用网络；只有已激活或测试期的卡能生成流量',
    en: 'Card {iccid} is "{stateEn}": its device cannot use the network; only activated cards and cards in test can get generated usage',
  },
  [ErrorCode.WebhookNotReplayable]: {
    zh: '该投递状态为“{state}”，只有重试中或投递失败的投递才能重新投递',
    en: 'This delivery is "{state}": only a retrying or dead-letter delivery can be replayed',
  },
  [ErrorCode.WebhookNoCallback]: { zh: '该客户没有接收此事件的回调地址，请先在 API 管理中设置', en: 'The customer has no callback address for this event; set one in the API manager first' },
  [ErrorCode.WebhookInFlight]: { zh: '该投递正在发送中，请稍后再试', en: 'An attempt of this delivery is in flight; try again in a moment' },
  [ErrorCode.WebhookDateRange]: { zh: '开始日期不能晚于结束日期', en: 'The start date cannot be after the end date' },
  [ErrorCode.SmsContentTooLong]: {
    zh: '短信内容过长：按{encodingZh}计 {units} 个字符，最多 {max} 个（含中文等非 GSM 字符时最多 70 个，否则最多 160 个；€ [ ] { } ~ ^ | \\ 各按 2 个计）',
    en: 'The message is too long: {units} characters in {encodingEn}, at most {max} (70 with Chinese or other non-GSM characters, otherwise 160; € [ ] { } ~ ^ | \\ count as 2 each)',
  },
  [ErrorCode.SmsContentEmpty]: { zh: '请输入短信内容', en: 'Enter the message text' },
  [ErrorCode.SmsPhoneInvalid]: { zh: '手机号码格式不正确：{phone}', en: 'Not a mobile number: {phone}' },
  [ErrorCode.SmsTooManyTargets]: { zh: '一次最多向 {max} 个号码发送短信，当前 {count} 个', en: 'At most {max} recipients at once; {count} given' },
  [ErrorCode.SmsSubmitRefused]: { zh: '运营商拒绝提交短信：{reason}', en: 'The operator refused the SMS: {reason}' },
  [ErrorCode.SmsGatewayUnusable]: {
    zh: '运营商接入配置的凭据无法打开，短信未发出，请重新填写接入配置的凭据',
    en: "The access configuration's credentials cannot be opened, so the SMS was not sent; enter the credentials again",
  },
  // physical stock (docs/stock.md)
  [ErrorCode.StockRemarkTooLong]: { zh: '库存备注最多 {max} 个字符', en: 'A stock remark has at most {max} characters' },
  [ErrorCode.StockSelectionTooLarge]: {
    zh: '所选数量过多（{count} 条），每批最多 {max} 条，请缩小筛选范围',
    en: 'Selection too large ({count} items): at most {max} items per operation, narrow the filters',
  },
  [ErrorCode.StockSelectionEmpty]: { zh: '没有选择任何库存：请勾选、粘贴 ICCID 或按筛选条件选择', en: 'No stock item chosen: tick items, paste ICCIDs or select by the filters' },
  [ErrorCode.StockItemNotFound]: { zh: '库存中没有该 ICCID', en: 'No stock item with this ICCID' },
  [ErrorCode.StockAlreadyInStock]: { zh: '该 ICCID 已在库存中', en: 'This ICCID is already in stock' },
  [ErrorCode.StockIccidInvalid]: { zh: 'ICCID 格式不正确（应为 19-20 位数字）', en: 'ICCID has an invalid format (19-20 digits)' },
  [ErrorCode.StockImsiInvalid]: { zh: 'IMSI 格式不正确（应为 15 位数字）', en: 'IMSI has an invalid format (15 digits)' },
  [ErrorCode.StockMsisdnInvalid]: { zh: 'MSISDN 格式不正确（应为 5-15 位数字）', en: 'MSISDN has an invalid format (5-15 digits)' },
  [ErrorCode.StockCodesIncomplete]: { zh: '三码不全：配卡需要 IMSI 和 MSISDN', en: 'Codes incomplete: matching needs the IMSI and the MSISDN' },
  [ErrorCode.StockNotMatchable]: { zh: '配卡状态为“{state}”，只有未配卡的库存可以配卡', en: 'Match state is "{state}": only items not matched can be matched' },
  [ErrorCode.StockCardExists]: { zh: '平台上已有该 ICCID 的卡', en: 'A card with this ICCID already exists on the platform' },
  [ErrorCode.StockNotOutable]: {
    zh: '只有已配卡且未出库的库存可以出库（当前：{match}，{out}）',
    en: 'Only matched items that are not out can go out (now: {match}, {out})',
  },
  [ErrorCode.StockNotScrappable]: {
    zh: '出库中、已出库或已报废的库存不能报废（当前：{out}）',
    en: 'Items outgoing, out or scrapped cannot be scrapped (now: {out})',
  },
  [ErrorCode.StockCardInUse]: {
    zh: '该卡已不在平台库存中（已分配客户或已改变状态），不能报废',
    en: 'The card is no longer in the platform stock (allocated or its state changed), so it cannot be scrapped',
  },
  [ErrorCode.StockBatchNotValidated]: { zh: '该库存操作已确认或已取消', en: 'This stock operation has already been confirmed or cancelled' },
  [ErrorCode.StockBatchNothingValid]: { zh: '没有可执行的库存，无法确认', en: 'Nothing valid to run, so the operation cannot be confirmed' },
  [ErrorCode.StockBatchCreatorInactive]: {
    zh: '操作创建人已被冻结或已无库存操作权限，未执行',
    en: 'The creator of the operation is frozen or lost the stock operation permission; not run',
  },
  [ErrorCode.StockNothingToUpdate]: { zh: '请填写要修改的库位、备注或余额类型', en: 'Enter the location, remark or balance type to change' },
  [ErrorCode.StockLocationTooLong]: { zh: '库位最多 {max} 个字符', en: 'A location has at most {max} characters' },
  [ErrorCode.StockOperatorRequired]: { zh: '入库请选择运营商', en: 'Choose the operator of the received stock' },
  [ErrorCode.StockDuplicateCode]: { zh: '{code} 已被库存中的其他 ICCID 使用：{value}', en: '{code} is already used by another stock item: {value}' },
  [ErrorCode.DsimStrategyNameTaken]: { zh: '策略名称“{name}”已存在，请换一个名称', en: 'A strategy named "{name}" already exists; choose another name' },
  [ErrorCode.DsimStrategyParams]: { zh: '策略参数不正确：{detail}', en: 'Strategy parameters are not valid: {detail}' },
  [ErrorCode.DsimStrategyInUse]: { zh: '该策略正被 {count} 张超级 SIM 使用，请先为它们选择其他策略', en: 'The strategy is used by {count} super SIMs; choose another strategy for them first' },
  [ErrorCode.DsimSameOperator]: { zh: '超级 SIM 当前已在该运营商上', en: 'The super SIM is already on this operator' },
  [ErrorCode.DsimNoMember]: { zh: '超级 SIM 没有该运营商的号码', en: 'The super SIM has no profile of this operator' },
  [ErrorCode.DsimSwitchPending]: { zh: '该超级 SIM 正在切换运营商，请等待结果', en: 'An operator switch of this super SIM is in progress; wait for its result' },
  [ErrorCode.DsimImportTooMany]: {
    zh: '所选数量过多（{count} 行），每次最多 {max} 行，请缩小范围',
    en: 'Selection too large ({count} rows): at most {max} rows at once, narrow the selection',
  },
  [ErrorCode.DsimImportInvalid]: { zh: '文件中有 {count} 行有误，未导入任何数据', en: '{count} rows of the file are wrong; nothing was imported' },
  [ErrorCode.DsimImportEmpty]: { zh: '文件中没有超级 SIM 数据', en: 'The file contains no super SIM rows' },
  [ErrorCode.DsimImportMissingColumns]: { zh: '文件缺少列：{columns}，请使用导入模板', en: 'The file lacks the columns: {columns}. Use the import template' },
  [ErrorCode.ChannelCardImportTooMany]: {
    zh: '所选数量过多（{count} 行），每次最多 {max} 行，请缩小范围',
    en: 'Selection too large ({count} rows): at most {max} rows at once, narrow the selection',
  },
  [ErrorCode.ChannelCardImportInvalid]: { zh: '文件中有 {count} 行有误，未导入任何数据', en: '{count} rows of the file are wrong; nothing was imported' },
  [ErrorCode.ChannelCardImportEmpty]: { zh: '文件中没有渠道卡数据', en: 'The file contains no channel card rows' },
  [ErrorCode.ChannelCardImportMissingColumns]: { zh: '文件缺少列：{columns}，请使用导入模板', en: 'The file lacks the columns: {columns}. Use the import template' },
  [ErrorCode.ChannelCardStateUnchanged]: { zh: '渠道卡已是该状态', en: 'The channel card is already in this state' },
  [ErrorCode.ChannelCardBillExists]: {
    zh: '渠道“{channel}”{period} 的账单已存在，请先删除再重新生成',
    en: 'The bill of channel "{channel}" for {period} already exists; delete it before generating it again',
  },
  [ErrorCode.ChannelCardBillPeriodOpen]: { zh: '账期 {period} 尚未结束，不能生成账单', en: 'The period {period} has not ended yet; its bill cannot be generated' },
  [ErrorCode.ChannelCardBillNoCards]: { zh: '渠道“{channel}”在 {period} 没有计费的渠道卡', en: 'Channel "{channel}" has no billable channel cards in {period}' },
  [ErrorCode.StockFileInvalid]: { zh: '文件中有 {count} 行有误，未校验任何库存', en: '{count} rows of the file are wrong; nothing was validated' },
  [ErrorCode.StockFileEmpty]: { zh: '文件中没有入库数据', en: 'The file contains no stock rows' },
  [ErrorCode.StockFileMissingColumns]: { zh: '文件缺少列：{columns}，请使用入库模板', en: 'The file lacks the columns: {columns}. Use the stock-in template' },
  [ErrorCode.ResellSyncTooMany]: {
    zh: '所选数量过多（{count} 张），每次最多 {max} 张，请缩小范围',
    en: 'Selection too large ({count} cards): at most {max} cards at once, narrow the selection',
  },
  [ErrorCode.EuiccTransitionRefused]: {
    zh: 'Profile {iccid} 当前为“{stateZh}”，不能{actionZh}',
    en: 'Profile {iccid} is "{stateEn}": it cannot {actionEn}',
  },
  [ErrorCode.EuiccEidFormat]: { zh: 'EID 格式不正确（应为 32 位数字）：{eid}', en: 'Not an EID (32 digits): {eid}' },
  [ErrorCode.EuiccIccidFormat]: { zh: 'ICCID 格式不正确（应为 19-20 位数字或字母）：{iccid}', en: 'Not an ICCID (19-20 digits or letters): {iccid}' },
  [ErrorCode.EuiccProfileNotFound]: { zh: 'Profile 不存在：{iccid}', en: 'No such profile: {iccid}' },
  [ErrorCode.EuiccNotFound]: { zh: 'eUICC 不存在：{eid}', en: 'No such eUICC: {eid}' },
  [ErrorCode.EuiccNoAnswer]: { zh: 'SM-DP+ 在 {seconds} 秒内未应答', en: 'No answer from the SM-DP+ within {seconds} s' },
  [ErrorCode.EuiccSmdpRefused]: { zh: 'SM-DP+ 返回错误：{reason}', en: 'The SM-DP+ answered with an error: {reason}' },
  [ErrorCode.EuiccDuplicate]: { zh: '第 {row} 行与前面的行重复：{value}', en: 'Row {row} repeats an earlier row: {value}' },
  [ErrorCode.EuiccOperationPending]: { zh: 'Profile {iccid} 有正在进行的操作，请等待其结束', en: 'Profile {iccid} has an operation in progress; wait for it to end' },
  [ErrorCode.EuiccEmpty]: { zh: '请至少选择或填写一条记录', en: 'Choose or enter at least one row' },
  [ErrorCode.EuiccNoActivationCode]: {
    zh: 'Profile {iccid} 当前为“{stateZh}”，没有可下载的激活码',
    en: 'Profile {iccid} is "{stateEn}": it has no activation code to download',
  },
  [ErrorCode.EuiccProfileExists]: { zh: '第 {row} 行：{value} 已存在', en: 'Row {row}: {value} already exists' },
  [ErrorCode.EuiccImportRowInvalid]: { zh: '第 {row} 行：{reasonZh}', en: 'Row {row}: {reasonEn}' },
  [ErrorCode.EuiccImportMissingColumns]: { zh: '文件缺少列：{columns}，请使用导入模板', en: 'The file lacks the columns: {columns}. Use the import template' },
  [ErrorCode.EuiccImportEmpty]: { zh: '文件中没有 eUICC 或 Profile 数据', en: 'The file contains no eUICC or profile rows' },
  [ErrorCode.EuiccImportInvalid]: { zh: '文件中有 {count} 行有误，未导入任何数据', en: '{count} rows of the file are wrong; nothing was imported' },
  [ErrorCode.ServerError]: { zh: '服务器错误，请稍后重试', en: 'Server error, please retry later' },
};

export function errorMessage(code: ErrorCode, lang: Lang, params?: Record<string, string | number>): string {
  const entry = errorMessages[code] ?? errorMessages[ErrorCode.ServerError];
  return interpolate(entry[lang], params);
}

