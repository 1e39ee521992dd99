import type zh from '../zh/shell.ts';
import type { Messages } from '../types.ts';

const en: Messages<typeof zh> = {
  help: 'Help',
  apiManager: 'API manager',
  userGuide: 'User guide',
  managerGuide: 'Manager guide',
  faq: 'FAQ',
  downloads: 'Download tasks',
  accountManagement: 'Account management',
  customerManagement: 'Customer management',
  logoSetting: 'Logo setting',
  changePassword: 'Change password',
  signOut: 'Sign out',
  signOutConfirm: 'Sign out now?',
  collapseMenu: 'Collapse menu',
  expandMenu: 'Expand menu',
  tabReload: 'Reload',
  tabClose: 'Close this',
  tabCloseOthers: 'Close others',
  tabScrollLeft: 'Scroll left',
  tabScrollRight: 'Scroll right',
  notice: 'Announcement',
  sessionExpired: 'Your session has expired, please log in again',
  logoTitle: 'Logo setting',
  logoHint: 'jpg or png only, smaller than 1500 KB',
  logoUpload: 'Choose image',
  logoCurrent: 'Current logo',
  logoNone: 'No logo set yet',
  logoSaved: 'The logo was updated',
};
export default en;
