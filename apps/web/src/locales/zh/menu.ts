/** Titles of routes: menu, breadcrumbs, tabs and header search use them. */
export default {
  home: '首页',
  homeIndex: '概览',
  homeCustomer: '客户管理',
  homeAccount: '账号管理',
  homeAccountFreeze: '冻结记录',
  homeApiManager: 'API 管理',
  help: '帮助',
  homeFaq: '常见问题',
  homeGuide: '用户指南',
  homeManagerGuide: '管理员指南',
  card: '卡管理',
  cardDownloadTask: '下载任务',
  shortcuts: '快捷操作',
  shortcutsNotification: '公告管理',
  operator: '运营商',
  operatorName: '运营商名称',
  operatorApn: '运营商 APN',
  operatorApnManage: 'APN 管理',
  billing: '计费',
  billingPackage: '套餐管理',
  // commserv menu keys
  // plan menu keys
  // opconfig menu keys
  // netconfig menu keys
  // retail menu keys
  system: '系统',
  systemApi: 'API 请求日志',
  systemRole: '角色管理',
  systemRoleDetail: '角色详情',
  systemUserBehavior: '用户行为日志',
};
