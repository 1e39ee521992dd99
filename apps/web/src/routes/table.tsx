import { AccountBookOutlined, HomeOutlined, CreditCardOutlined, ThunderboltOutlined, SettingOutlined, ApiOutlined } from '@ant-design/icons';
import { Perm, RoleType } from '@lynx/contract';
import type { RouteDef } from './types.ts';

/**
 * THE route table (ARCHITECTURE §5). Adding a screen = one entry here + its page folder + its i18n keys.
 * Only screens that work end to end are listed; the other areas of the spec arrive with their issues.
 */
export const routes: RouteDef[] = [
  {
    path: 'home', titleKey: 'home', perm: Perm.Home, icon: <HomeOutlined />, redirectToFirstChild: true,
    children: [
      { path: 'index', titleKey: 'homeIndex', page: () => import('../pages/home/index/index.tsx') },
      {
        path: 'customer', titleKey: 'homeCustomer', perm: Perm.HomeCustomer, hideForRoles: [RoleType.SubCustomer],
        page: () => import('../pages/home/customer/index.tsx'),
      },
      {
        path: 'account', titleKey: 'homeAccount', perm: Perm.HomeAccount, hideForRoles: [RoleType.SubCustomer],
        redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list/:channelCustId?', titleKey: 'homeAccount', page: () => import('../pages/home/account/list/index.tsx') },
          { path: 'freeze/:loginName', titleKey: 'homeAccountFreeze', page: () => import('../pages/home/account/freeze/index.tsx') },
        ],
      },
      {
        path: 'doc', titleKey: 'help', hideInMenu: true,
        children: [
          { path: 'api-manager', titleKey: 'homeApiManager', perm: Perm.HomeApiManage, page: () => import('../pages/home/doc/api-manager/index.tsx') },
          { path: 'faq', titleKey: 'homeFaq', page: () => import('../pages/home/doc/faq/index.tsx') },
          { path: 'guide', titleKey: 'homeGuide', page: () => import('../pages/home/doc/guide/index.tsx') },
          {
            path: 'manager-guide', titleKey: 'homeManagerGuide', onlyRoles: [RoleType.Admin, RoleType.Manager],
            page: () => import('../pages/home/doc/manager-guide/index.tsx'),
          },
        ],
      },
    ],
  },
  {
    path: 'billing', titleKey: 'billing', perm: Perm.Billing, icon: <AccountBookOutlined />, redirectToFirstChild: true,
    children: [
      {
        path: 'package', titleKey: 'billingPackage', perm: Perm.PackageManage, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          // plan routes (basic plans, supplementary packs, price adjustment, change list)
          // retail routes (addretail, editretail, copyretail, retaildetail, retailrecord)
        ],
      },
    ],
  },
  {
    path: 'card', titleKey: 'card', perm: Perm.Card, icon: <CreditCardOutlined />, redirectToFirstChild: true,
    children: [
      {
        path: 'downloadtask', titleKey: 'cardDownloadTask', redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list', titleKey: 'cardDownloadTask', page: () => import('../pages/card/downloadtask/list/index.tsx') }],
      },
    ],
  },
  {
    path: 'shortcuts', titleKey: 'shortcuts', perm: Perm.Shortcuts, icon: <ThunderboltOutlined />, redirectToFirstChild: true,
    children: [
      {
        path: 'notification', titleKey: 'shortcutsNotification', perm: Perm.Notification, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list', titleKey: 'shortcutsNotification', page: () => import('../pages/shortcuts/notification/list/index.tsx') }],
      },
    ],
  },
  {
    path: 'operator', titleKey: 'operator', perm: Perm.Operator, icon: <ApiOutlined />, redirectToFirstChild: true,
    children: [
      {
        path: 'name', titleKey: 'operatorName', perm: 7040000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list', titleKey: 'operatorName', page: () => import('../pages/operator/name/list/index.tsx') }],
      },
      {
        path: 'operator-apn', titleKey: 'operatorApn', perm: 7050000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list', titleKey: 'operatorApn', page: () => import('../pages/operator/operator-apn/list/index.tsx') }],
      },
      {
        path: 'apn', titleKey: 'operatorApnManage', perm: 7010000, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list', titleKey: 'operatorApnManage', page: () => import('../pages/operator/apn/list/index.tsx') }],
      },
      // commserv routes
      // opconfig routes
      // netconfig routes
    ],
  },
  // netconfig: stock group
  // opconfig: operationManagement group
  {
    path: 'system', titleKey: 'system', perm: Perm.System, icon: <SettingOutlined />, redirectToFirstChild: true,
    children: [
      {
        path: 'api', titleKey: 'systemApi', perm: Perm.SystemApiLog, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list', titleKey: 'systemApi', page: () => import('../pages/system/api/list/index.tsx') }],
      },
      {
        path: 'role', titleKey: 'systemRole', perm: Perm.SystemRole, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list', titleKey: 'systemRole', page: () => import('../pages/system/role/list/index.tsx') },
          { path: 'detail/:roleId', titleKey: 'systemRoleDetail', page: () => import('../pages/system/role/detail/index.tsx') },
        ],
      },
      {
        path: 'userBehavior', titleKey: 'systemUserBehavior', perm: Perm.SystemUserBehavior, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [{ path: 'list', titleKey: 'systemUserBehavior', page: () => import('../pages/system/userBehavior/list/index.tsx') }],
      },
    ],
  },
];
