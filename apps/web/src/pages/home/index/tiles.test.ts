import { describe, expect, it } from 'vitest';
import { filterRoutes, flatten } from '../../../routes/derive.ts';
import type { RouteDef } from '../../../routes/types.ts';
import { shortcutTiles } from './tiles.ts';

const page = () => Promise.resolve({ default: () => null });
const table: RouteDef[] = [
  {
    path: 'home', titleKey: 'home', perm: 1, icon: 'H', redirectToFirstChild: true,
    children: [
      { path: 'index', titleKey: 'homeIndex', page },
      { path: 'customer', titleKey: 'homeCustomer', perm: 3, hideForRoles: [5000], page },
      {
        path: 'account', titleKey: 'homeAccount', perm: 2, hideChildrenInMenu: true,
        children: [
          { path: 'list/:channelCustId?', titleKey: 'homeAccount', page },
          { path: 'freeze/:loginName', titleKey: 'homeAccountFreeze', page },
        ],
      },
      {
        path: 'doc', titleKey: 'homeFaq', hideInMenu: true,
        children: [
          { path: 'api-manager', titleKey: 'homeApiManager', perm: 4, page },
          { path: 'faq', titleKey: 'homeFaq', page },
        ],
      },
    ],
  },
  { path: 'system', titleKey: 'system', perm: 10, icon: 'S', children: [{ path: 'role/list', titleKey: 'systemRole', perm: 11, page }] },
];

const tilesFor = (codes: number[], roleId: number) =>
  shortcutTiles(flatten(filterRoutes(table, { permissions: new Set(codes), roleId })));

describe('shortcutTiles', () => {
  it('lists the permitted pages that open without an id, with their group and its icon', () => {
    expect(tilesFor([1, 2, 3, 4, 10, 11], 1000)).toEqual([
      { path: '/home/customer', titleKey: 'homeCustomer', groupKey: 'home', icon: 'H' },
      { path: '/home/account/list', titleKey: 'homeAccount', groupKey: 'home', icon: 'H' },
      { path: '/home/doc/api-manager', titleKey: 'homeApiManager', groupKey: 'home', icon: 'H' },
      { path: '/system/role/list', titleKey: 'systemRole', groupKey: 'system', icon: 'S' },
    ]);
  });

  it('leaves out the overview itself, pages with a required id and help pages without a code', () => {
    const paths = tilesFor([1, 2, 3, 4, 10, 11], 1000).map((t) => t.path);
    expect(paths).not.toContain('/home/index');
    expect(paths).not.toContain('/home/account/freeze/:loginName');
    expect(paths).not.toContain('/home/doc/faq');
  });

  it('follows the permission codes and the hidden roles', () => {
    expect(tilesFor([1, 4], 5000).map((t) => t.path)).toEqual(['/home/doc/api-manager']);
    expect(tilesFor([1, 2, 3], 5000).map((t) => t.path)).toEqual(['/home/account/list']);
    expect(tilesFor([1, 2, 3], 3000).map((t) => t.path)).toEqual(['/home/customer', '/home/account/list']);
    expect(tilesFor([10], 1000)).toEqual([]);
  });
});
