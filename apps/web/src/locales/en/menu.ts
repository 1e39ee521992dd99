import type zh from '../zh/menu.ts';
import type { Messages } from '../types.ts';

const en: Messages<typeof zh> = {
  home: 'Home',
  homeIndex: 'Overview',
  homeCustomer: 'Customers',
  homeAccount: 'Accounts',
  homeAccountFreeze: 'Freeze records',
  homeApiManager: 'API manager',
  help: 'Help',
  homeFaq: 'FAQ',
  homeGuide: 'User guide',
  homeManagerGuide: 'Manager guide',
  card: 'Cards',
  cardDownloadTask: 'Download tasks',
  shortcuts: 'Shortcuts',
  shortcutsNotification: 'Announcements',
  operator: 'Operators',
  operatorName: 'Operator names',
  operatorApn: 'Operator APNs',
  operatorApnManage: 'APN management',
  billing: 'Billing',
  billingPackage: 'Packages',
  // commserv menu keys
  // plan menu keys
  // opconfig menu keys
  // netconfig menu keys
  // retail menu keys
  system: 'System',
  systemApi: 'API request log',
  systemRole: 'Roles',
  systemRoleDetail: 'Role detail',
  systemUserBehavior: 'User behaviour log',
};
export default en;
