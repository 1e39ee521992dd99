import { describe, it, expect } from 'vitest';
import type { RouteDef } from './types.ts';
import { breadcrumbKeys, filterRoutes, firstChildPath, flatten, matchRoute, menuKeysFor, menuTree, searchPages, hasRequiredParam } from './derive.ts';

const page = () => Promise.resolve({ default: () => null });
const table: RouteDef[] = [
  {
    path: 'home', titleKey: 'home', perm: 1000000, redirectToFirstChild: true,
    children: [
      { path: 'index', titleKey: 'homeIndex', page },
      { path: 'customer', titleKey: 'homeCustomer', perm: 1000003, hideForRoles: [5000], page },
      {
        path: 'account', titleKey: 'homeAccount', perm: 1000002, redirectToFirstChild: true, hideChildrenInMenu: true,
        children: [
          { path: 'list/:channelCustId?', titleKey: 'homeAccount', page },
          { path: 'freeze/:loginName', titleKey: 'homeAccountFreeze', page },
        ],
      },
      { path: 'doc', titleKey: 'homeFaq', hideInMenu: true, children: [{ path: 'manager-guide', titleKey: 'homeManagerGuide', onlyRoles: [1000, 2000], page }] },
    ],
  },
  { path: 'system', titleKey: 'system', perm: 14000000, redirectToFirstChild: true, children: [{ path: 'role/list', titleKey: 'systemRole', perm: 14020000, page }] },
];
const titles: Record<string, { zh: string; en: string }> = {
  home: { zh: '首页', en: 'Home' }, homeIndex: { zh: '概览', en: 'Overview' }, homeCustomer: { zh: '客户管理', en: 'Customers' },
  homeAccount: { zh: '账号管理', en: 'Accounts' }, homeAccountFreeze: { zh: '冻结记录', en: 'Freeze records' }, homeFaq: { zh: '常见问题', en: 'FAQ' },
  homeManagerGuide: { zh: '管理员指南', en: 'Manager guide' }, system: { zh: '系统', en: 'System' }, systemRole: { zh: '角色管理', en: 'Roles' },
};
const title = (k: string, l: 'zh' | 'en') => titles[k][l];
const viewer = (codes: number[], roleId = 3000) => ({ permissions: new Set(codes), roleId });

describe('route derivation', () => {
  it('keeps only routes whose permission code the user holds, and drops emptied groups', () => {
    const r = filterRoutes(table, viewer([1000000, 1000002]));
    const paths = flatten(r).map((f) => f.fullPath);
    expect(paths).toContain('/home/index');
    expect(paths).toContain('/home/account/list/:channelCustId?');
    expect(paths).not.toContain('/home/customer');
    expect(paths.some((p) => p.startsWith('/system'))).toBe(false);
  });

  it('hides account and customer management for role 5000 even with the codes', () => {
    const paths = flatten(filterRoutes(table, viewer([1000000, 1000002, 1000003], 5000))).map((f) => f.fullPath);
    expect(paths).not.toContain('/home/customer');
    expect(paths).toContain('/home/account/list/:channelCustId?'); // the code decides for accounts in this table
  });

  it('gives the manager guide only to roles 1000 and 2000', () => {
    const has = (roleId: number) => flatten(filterRoutes(table, viewer([1000000], roleId))).some((f) => f.fullPath === '/home/doc/manager-guide');
    expect(has(1000)).toBe(true);
    expect(has(2000)).toBe(true);
    expect(has(3000)).toBe(false);
    expect(has(5000)).toBe(false);
  });

  it('redirects a group to its first permitted child that needs no parameter', () => {
    const flat = flatten(filterRoutes(table, viewer([1000000, 1000002])));
    const account = flat.find((f) => f.fullPath === '/home/account')!;
    expect(firstChildPath(flat, account)).toBe('/home/account/list');
    const home = flat.find((f) => f.fullPath === '/home')!;
    expect(firstChildPath(flat, home)).toBe('/home/index');
  });

  it('builds the menu: hidden routes and children of hide-children groups are left out', () => {
    const menu = menuTree(filterRoutes(table, viewer([1000000, 1000002, 1000003, 14000000, 14020000], 1000)));
    const home = menu.find((m) => m.key === '/home')!;
    expect(home.children!.map((c) => c.key)).toEqual(['/home/index', '/home/customer', '/home/account']);
    expect(home.children!.find((c) => c.key === '/home/account')!.children).toBeUndefined();
    expect(menu.map((m) => m.key)).toEqual(['/home', '/system']);
  });

  it('matches paths with optional and required parameters', () => {
    const flat = flatten(table);
    expect(matchRoute(flat, '/home/account/list')!.route.fullPath).toBe('/home/account/list/:channelCustId?');
    expect(matchRoute(flat, '/home/account/list/100001')!.params.channelCustId).toBe('100001');
    expect(matchRoute(flat, '/home/account/freeze/alice')!.params.loginName).toBe('alice');
    expect(matchRoute(flat, '/home/nope')).toBeNull();
  });

  it('highlights the visible ancestor of a hidden child in the menu, and builds breadcrumbs', () => {
    const flat = flatten(table);
    expect(menuKeysFor(flat, '/home/account/freeze/alice')).toEqual({ selected: ['/home/account'], open: ['/home'] });
    expect(breadcrumbKeys(flat, '/home/account/freeze/alice').map((b) => b.titleKey)).toEqual(['home', 'homeAccount', 'homeAccountFreeze']);
    expect(breadcrumbKeys(flat, '/home/account/list')).toEqual([{ titleKey: 'home', path: null }, { titleKey: 'homeAccount', path: '/home/account/list' }]);
  });

  it('searches page titles in both languages, whatever the current language', () => {
    const flat = flatten(filterRoutes(table, viewer([1000000, 1000002, 1000003, 14000000, 14020000], 1000)));
    expect(searchPages(flat, '角色', title).map((m) => m.path)).toEqual(['/system/role/list']);
    expect(searchPages(flat, 'roles', title).map((m) => m.path)).toEqual(['/system/role/list']);
    expect(searchPages(flat, 'ACCOUNT', title).map((m) => m.path)).toEqual(['/home/account/list']);
    // detail pages with a required id and hidden pages are not offered
    expect(searchPages(flat, 'freeze', title)).toEqual([]);
    expect(searchPages(flat, 'guide', title)).toEqual([]);
    expect(searchPages(flat, '', title)).toEqual([]);
  });

  it('tells required from optional parameters', () => {
    expect(hasRequiredParam('/a/:id')).toBe(true);
    expect(hasRequiredParam('/a/:id?')).toBe(false);
    expect(hasRequiredParam('/a/b')).toBe(false);
  });
});
