import type { Bilingual } from './i18n.ts';

/**
 * Every page, sub-page and button permission code (spec §6). Page codes are N×1,000,000; a sub-page adds
 * s×10,000; a button adds a small number to its page or sub-page. The codes the spec names keep their
 * numbers (1000001 API manager, 1000004 logo setting, 2010000 card list, 2060000 pool, 4010000 package
 * management, 14020000 role management); the rest follow the same scheme.
 */
export interface PermissionNode extends Bilingual {
  code: number;
  kind: 'page' | 'button';
  children?: PermissionNode[];
}

const page = (code: number, zh: string, en: string, children: PermissionNode[] = []): PermissionNode => ({
  code, zh, en, kind: 'page', children,
});
const btn = (code: number, zh: string, en: string): PermissionNode => ({ code, zh, en, kind: 'button' });

export const Perm = {
  Home: 1000000,
  HomeApiManage: 1000001,
  HomeAccount: 1000002,
  HomeCustomer: 1000003,
  HomeLogo: 1000004,
  Card: 2000000,
  CardList: 2010000,
  CardDownloadTask: 2080000,
  /** Card › eUICC (issue 16, docs/euicc.md): the list and activation codes; 2040001 changes eUICCs and profiles */
  CardEuicc: 2040000,
  CardEuiccNumber: 2040001,
  Pool: 2060000,
  Billing: 4000000,
  PackageManage: 4010000,
  AutoRule: 5000000,
  Shortcuts: 6000000,
  Notification: 6040000,
  /** Shortcuts › China Unicom account operation (issue 15): usage per Unicom account × rate plan × zone × day */
  ShortcutsCustOperation: 6030000,
  Operator: 7000000,
  Business: 8000000,
  BusinessCustomer: 8010000,
  BusinessCustomerCreate: 8010001,
  BusinessCustomerAudit: 8010002,
  BusinessAccount: 8020000,
  // issue 13, the money core
  BusinessCapital: 8030000,
  BusinessRecharge: 8040000,
  BusinessRechargeAudit: 8040001,
  BusinessRechargeDownload: 8040002,
  BusinessRechargePublic: 8040003,
  BusinessRechargeRefund: 8040004,
  BusinessRechargeExport: 8040005,
  BusinessWithdraw: 8050000,
  BusinessWithdrawAudit: 8050001,
  BusinessWithdrawPay: 8050002,
  BusinessWithdrawExport: 8050003,
  FinancialCredit: 9010000,
  /** Financial › Accounting reports (daily and monthly statements of customers' money) */
  FinancialReport: 9050000,
  // issue 14, charging and bills
  BillingBill: 4020000,
  BillingBillPublish: 4020001,
  BillingBillRun: 4020002,
  BillingBillExport: 4020003,
  /** Billing › Channel bills: bills from operators and upstream channels, reconciled against the platform's usage */
  BillingChannelBill: 4050000,
  BillingChannelBillImport: 4050001,
  FinancialWriteOff: 9020000,
  FinancialWriteOffDo: 9020001,
  ShortcutsOneOffFee: 6090000,
  ShortcutsOneOffFeeAdd: 6090001,
  /** Financial › Operating bills (platform staff only): the carriers' bills per operator account and period against revenue */
  FinancialOperateBill: 9030000,
  FinancialOperateBillRefetch: 9030001,
  FinancialOperateBillExport: 9030002,
  FinancialOperateBillConfirm: 9030003,
  /** Billing › Automated ledger: per-customer rules that publish and write off bills on a day of the month */
  BillingAutoLedger: 4060000,
  BillingAutoLedgerAdd: 4060001,
  BillingAutoLedgerEdit: 4060002,
  BillingAutoLedgerDelete: 4060003,
  BillingAutoLedgerSwitch: 4060004,
  /** the Home overview's shortcut tiles that open money screens (HOME_TILES: 1000011 + index) */
  HomeTileCustomer: 1000016,
  HomeTileRecharge: 1000017,
  HomeTileCapital: 1000020,
  HomeTileWithdraw: 1000022,
  Financial: 9000000,
  Report: 10000000,
  ReportCard: 10010000,
  ReportUsage: 10030000,
  /** Reports › Prepaid cost withholding (the charges taken at activation, renewal and pack orders) */
  ReportPrepaidCost: 10020000,
  Stock: 11000000,
  Content: 12000000,
  Risk: 13000000,
  System: 14000000,
  SystemApiLog: 14010000,
  SystemRole: 14020000,
  SystemRoleAdd: 14020001,
  SystemRoleEdit: 14020002,
  SystemRoleDelete: 14020003,
  SystemDataPush: 14030000,
  SystemUserBehavior: 14040000,
  CarNetwork: 15000000,
  /** Channel card (issue 16; docs/channel-cards.md): §6 gives no code, so the next free page block 16000000 */
  ChannelCard: 16000000,
  ChannelCardImport: 16010000,
  ChannelCardImportAdd: 16010001,
  ChannelCardList: 16020000,
  ChannelCardState: 16020001,
  ChannelCardBill: 16030000,
  ChannelCardBillGenerate: 16030001,
  /** Shortcuts › resale status sync (spec §6 names the page 6020000); 6020001 "sync now" */
  ShortcutsResell: 6020000,
  ShortcutsResellSync: 6020001,
} as const;

/** The Home overview's 14 shortcut tiles (spec §6), codes 1000011–1000024 in this order. */
export const HOME_TILES = [
  { key: 'diagnose', zh: '诊断', en: 'Diagnose' }, { key: 'tip', zh: '提示', en: 'Tip' }, { key: 'autoRule', zh: '自动化规则', en: 'Auto rule' },
  { key: 'batch', zh: '批量操作', en: 'Batch' }, { key: 'bill', zh: '账单', en: 'Bill' }, { key: 'customer', zh: '客户', en: 'Customer' },
  { key: 'recharge', zh: '充值', en: 'Recharge' }, { key: 'notification', zh: '公告', en: 'Notification' },
  { key: 'unitedCustomer', zh: '联通客户', en: 'United customer' }, { key: 'capital', zh: '资金', en: 'Capital' },
  { key: 'reduceData', zh: '流量回收', en: 'Reduce data' }, { key: 'withdraw', zh: '提现', en: 'Withdraw' }, { key: 'jobs', zh: '任务', en: 'Jobs' },
  { key: 'resell', zh: '转售', en: 'Resell' },
].map((t, i) => ({ ...t, code: 1000011 + i }));
export type HomeTileKey = (typeof HOME_TILES)[number]['key'];

export const permissionTree: PermissionNode[] = [
  page(Perm.Home, '首页', 'Home', [
    btn(Perm.HomeApiManage, 'API 管理', 'API manager'),
    btn(Perm.HomeAccount, '账号管理', 'Account management'),
    btn(Perm.HomeCustomer, '客户管理', 'Customer management'),
    btn(Perm.HomeLogo, 'Logo 设置', 'Logo setting'),
    ...HOME_TILES.map((t) => btn(t.code, `快捷入口：${t.zh}`, `Shortcut tile: ${t.en}`)),
  ]),
  page(Perm.Card, '卡管理', 'Cards', [
    page(Perm.CardList, '卡列表', 'Card list', [
      btn(2010001, '编辑', 'Edit card'), btn(2010002, '续订周期', 'Renewal cycle'),
      btn(2010003, '变更套餐', 'Change package'), btn(2010004, '订购套餐', 'Order package'),
      btn(2010005, '变更状态', 'Change status'), btn(2010006, '发送短信', 'Send SMS'),
      btn(2010007, '划拨与分配', 'Transfer and distribute'),
    ]),
    page(2020000, '短信', 'SMS'),
    page(2030000, '批量操作', 'Batch operations', [
      btn(2030001, '批量变更区域', 'Batch zone change'), btn(2030002, '批量订购', 'Batch order'),
      btn(2030003, '批量短信', 'Batch SMS'),
    ]),
    page(2040000, 'eUICC', 'eUICC', [btn(2040001, 'eUICC 号码', 'eUICC number')]),
    page(2050000, '卡类型', 'Card types', [btn(2050001, '新增', 'Add card type'), btn(2050002, '删除', 'Delete card type')]),
    page(Perm.Pool, '流量池', 'Pools', [btn(2060001, '新增流量池', 'Add pool')]),
    page(2070000, '导入信息', 'Import records'),
    page(Perm.CardDownloadTask, '下载任务', 'Download tasks'),
    page(2090000, '超级 SIM', 'Super SIM'),
    page(2100000, '测试卡', 'Test cards', [btn(2100001, '更新测试卡', 'Update test card')]),
    page(2110000, '标签', 'Labels', [btn(2110001, '编辑标签', 'Edit label'), btn(2110002, '删除标签', 'Delete label')]),
  ]),
  page(Perm.Billing, '计费', 'Billing', [
    page(Perm.PackageManage, '套餐管理', 'Package management', [
      btn(4010001, '删除套餐', 'Delete package'), btn(4010002, '上下架', 'Publish / unpublish'),
      btn(4010003, '新增/复制基础套餐', 'Add / copy basic plan'), btn(4010004, '调价', 'Price adjustment'),
      btn(4010005, '新增/编辑零售套餐', 'Add / edit retail plan'), btn(4010006, '导出', 'Export packages'),
    ]),
    page(Perm.BillingBill, '账单', 'Bills', [
      btn(Perm.BillingBillPublish, '发布账单', 'Publish bill'), btn(Perm.BillingBillRun, '出账/重新出账', 'Run / re-run bills'),
      btn(Perm.BillingBillExport, '导出账单', 'Export bills'),
    ]),
    page(4030000, '订单中心', 'Order centre'),
    page(4040000, '销售订单', 'Sales orders', [btn(4040001, '处理', 'Handle'), btn(4040002, '回复', 'Reply')]),
    page(4050000, '渠道账单', 'Channel bills', [btn(4050001, '导入', 'Import')]),
    page(Perm.BillingAutoLedger, '自动出账', 'Automated ledger', [
      btn(Perm.BillingAutoLedgerAdd, '新增规则', 'Add rule'), btn(Perm.BillingAutoLedgerEdit, '编辑规则', 'Edit rule'),
      btn(Perm.BillingAutoLedgerDelete, '删除规则', 'Delete rule'), btn(Perm.BillingAutoLedgerSwitch, '开启/关闭', 'Switch on / off'),
    ]),
  ]),
  page(Perm.AutoRule, '自动化规则', 'Automation rules', [
    page(5010000, '规则列表', 'Rules', [
      btn(5010001, '新增', 'Add rule'), btn(5010002, '编辑', 'Edit rule'),
      btn(5010003, '删除', 'Delete rule'), btn(5010004, '开关', 'Switch rule'),
    ]),
    page(5020000, '触发记录', 'Trigger records'),
  ]),
  page(Perm.Shortcuts, '快捷操作', 'Shortcuts', [
    page(6010000, '订购物联网卡', 'Order IoT SIM'),
    page(Perm.ShortcutsResell, '转售卡状态同步', 'Resale status sync', [btn(Perm.ShortcutsResellSync, '立即同步', 'Sync now')]),
    page(Perm.ShortcutsCustOperation, '联通账户运营', 'China Unicom account operation'),
    page(Perm.Notification, '公告管理', 'Announcements'),
    page(6050000, '诊断', 'Diagnosis', [btn(6050001, '高级诊断', 'Advanced diagnosis'), btn(6050002, '变更状态', 'Change status')]),
    page(6060000, '数据恢复', 'Data recovery'),
    page(6070000, '标准卡操作', 'Standard cards operation'),
    page(6080000, '批量变更状态', 'Batch change status'),
    page(6090000, '一次性费用', 'One-off fees', [btn(6090001, '一次性费用', 'One-time cost')]),
    page(6100000, '流量详单查询', 'Traffic detail query', [btn(6100001, '查询流量', 'Query flow')]),
    page(6110000, '机卡分离分析', 'SIM and device separation'),
  ]),
  page(Perm.Operator, '运营商', 'Operators', [
    page(7010000, 'APN', 'APNs', [btn(7010001, '新增', 'Add APN'), btn(7010002, '编辑', 'Edit APN'), btn(7010003, '导出', 'Export APNs')]),
    page(7020000, '标准套餐导入', 'Rate plan import', [
      btn(7020001, '开关', 'Switch'), btn(7020002, '删除', 'Delete'), btn(7020003, '导入', 'Import'),
    ]),
    page(7030000, '通信服务', 'Communication services', [
      btn(7030001, '新增', 'Add service'), btn(7030002, '编辑', 'Edit service'), btn(7030003, '删除', 'Delete service'),
      btn(7030004, '限速/重定向配置', 'Speed-limit / redirect settings'),
    ]),
    page(7040000, '运营商名称', 'Operator names'),
    page(7050000, '运营商 APN', 'Operator APNs'),
    page(7060000, '接入配置', 'Access configuration', [
      btn(7060001, '新增', 'Add access'), btn(7060002, '编辑', 'Edit access'), btn(7060003, '删除', 'Delete access'),
      btn(7060004, '连接测试', 'Test connection'),
    ]),
    page(7070000, '通信计划', 'Communication plans', [btn(7070001, '新增/编辑', 'Add / edit plan'), btn(7070002, '删除', 'Delete plan')]),
    page(7080000, '防火墙配置', 'Firewall', [
      btn(7080001, '新增', 'Add policy'), btn(7080002, '编辑', 'Edit policy'), btn(7080003, '删除', 'Delete policy'),
      btn(7080004, '导出', 'Export'), btn(7080005, '地址簿维护', 'Maintain address books'),
    ]),
    page(7090000, '联通通信计划', 'China Unicom communication plans', [
      btn(7090001, '新增/复制', 'Add / copy'), btn(7090002, '编辑', 'Edit'), btn(7090003, '删除', 'Delete'),
    ]),
    page(7100000, '换卡失败记录', 'Card change failures', [btn(7100001, '处理/重试', 'Mark handled / retry')]),
    page(7110000, '平台配置', 'Platform configuration', [
      btn(7110001, '新增', 'Add'), btn(7110002, '编辑', 'Edit'), btn(7110003, '删除', 'Delete'), btn(7110004, '启停', 'Switch state'),
    ]),
  ]),
  page(Perm.Business, '企业', 'Business', [
    page(Perm.BusinessCustomer, '客户列表', 'Customers', [
      btn(Perm.BusinessCustomerCreate, '创建企业客户', 'Create enterprise customer'),
      btn(Perm.BusinessCustomerAudit, '注册审核', 'Review registrations'),
    ]),
    page(Perm.BusinessAccount, '账号列表', 'Accounts'),
    page(8030000, '资金', 'Capital'),
    page(8040000, '充值', 'Recharge', [
      btn(8040001, '审核', 'Audit'), btn(8040002, '下载', 'Download'), btn(8040003, '对公充值', 'Public recharge'),
      btn(8040004, '退款', 'Refund'), btn(8040005, '导出', 'Export'),
    ]),
    page(8050000, '提现', 'Withdrawal', [btn(8050001, '审核', 'Audit'), btn(8050002, '提现', 'Deposit'), btn(8050003, '导出', 'Export')]),
  ]),
  page(Perm.Financial, '财务', 'Financial', [
    page(9010000, '授信', 'Credit'), page(Perm.FinancialWriteOff, '核销', 'Write-off', [btn(Perm.FinancialWriteOffDo, '核销', 'Write off')]), page(Perm.FinancialOperateBill, '运营账单', 'Operating bills', [
      btn(Perm.FinancialOperateBillRefetch, '重新获取', 'Fetch again'), btn(Perm.FinancialOperateBillExport, '导出', 'Export'),
      btn(Perm.FinancialOperateBillConfirm, '确认', 'Confirm'),
    ]),
    page(9040000, 'C 端发票', 'Customer invoices'), page(Perm.FinancialReport, '对账报表', 'Accounting reports'),
  ]),
  page(Perm.Report, '报表', 'Reports', [
    page(Perm.ReportCard, '月度卡报表', 'Monthly SIM report'), page(Perm.ReportPrepaidCost, '预付费用扣缴', 'Prepaid cost withholding'),
    page(Perm.ReportUsage, '流量使用', 'Data usage'),
  ]),
  page(Perm.Stock, '库存', 'Stock', [
    page(11010000, '库存列表', 'Stock list'), page(11020000, '运营商套餐导入', 'Operator plan import', [
      btn(11020001, '开关', 'Switch'), btn(11020002, '删除', 'Delete'), btn(11020003, '导入', 'Import'),
    ]),
    page(11030000, '库存操作', 'Stock operations'),
  ]),
  page(Perm.Content, '内容权益', 'Content', [
    page(12010000, '产品', 'Products'), page(12020000, '订单', 'Orders'), page(12030000, '权益用户', 'Rights users'),
    page(12040000, '账单', 'Bills'), page(12050000, '权益管理', 'Rights management'), page(12060000, '图片配置', 'Images'),
  ]),
  page(Perm.Risk, '风控', 'Risk control', [
    page(13010000, '机卡分离设置', 'Card separation'), page(13020000, '机卡分离恢复', 'Separation recovery'),
    page(13030000, '实名记录', 'Real-name records'), page(13040000, '区域限制', 'Region limits'),
  ]),
  page(Perm.System, '系统', 'System', [
    page(Perm.SystemApiLog, 'API 请求日志', 'API request log'),
    page(Perm.SystemRole, '角色管理', 'Roles', [
      btn(Perm.SystemRoleAdd, '新增角色', 'Add role'), btn(Perm.SystemRoleEdit, '编辑角色', 'Edit role'),
      btn(Perm.SystemRoleDelete, '删除角色', 'Delete role'),
    ]),
    page(Perm.SystemDataPush, '文件推送', 'File push'),
    page(Perm.SystemUserBehavior, '用户行为日志', 'User behaviour log'),
  ]),
  page(Perm.CarNetwork, '车联网', 'Car network', [
    page(15010000, '车型上传', 'Car model upload'), page(15020000, '赠送流量', 'Gifted data'),
    page(15030000, '赠送配置', 'Gift configuration'), page(15040000, '配置失败', 'Configuration failures'),
    page(15050000, 'PCC 数据异常', 'PCC data errors'),
  ]),
  page(Perm.ChannelCard, '渠道卡', 'Channel cards', [
    page(Perm.ChannelCardImport, '渠道卡导入', 'Channel card imports', [btn(Perm.ChannelCardImportAdd, '导入', 'Import')]),
    page(Perm.ChannelCardList, '渠道卡列表', 'Channel card list', [btn(Perm.ChannelCardState, '变更状态', 'Change state')]),
    page(Perm.ChannelCardBill, '渠道卡账单', 'Channel card bills', [btn(Perm.ChannelCardBillGenerate, '生成账单', 'Generate bill')]),
  ]),
];

function flatten(nodes: PermissionNode[], out: PermissionNode[] = []): PermissionNode[] {
  for (const n of nodes) {
    out.push(n);
    if (n.children) flatten(n.children, out);
  }
  return out;
}

export const allPermissions: PermissionNode[] = flatten(permissionTree);
export const allPermissionCodes: number[] = allPermissions.map((n) => n.code);
const codeSet = new Set(allPermissionCodes);
export const isPermissionCode = (code: number): boolean => codeSet.has(code);

/** Every code under (and including) the given ones. */
export function expandCodes(roots: number[]): number[] {
  const out = new Set<number>();
  const walk = (n: PermissionNode, inside: boolean) => {
    const take = inside || roots.includes(n.code);
    if (take) out.add(n.code);
    n.children?.forEach((c) => walk(c, take));
  };
  permissionTree.forEach((n) => walk(n, false));
  return [...out];
}
