import { describe, expect, it } from 'vitest';
import { HOME_TILES, allPermissionCodes } from '@lynx/contract';
import { filterRoutes, flatten, matchRoute } from '../../../routes/derive.ts';
import { routes } from '../../../routes/table.tsx';
import type { RouteDef } from '../../../routes/types.ts';
import { TILE_TARGETS, shortcutTiles } from './tiles.ts';

const page = () => Promise.resolve({ default: () => null });
const code = (key: string) => HOME_TILES.find((t) => t.key === key)!.code;
const ALL_TILES = HOME_TILES.map((t) => t.code);

// a small route table: diagnosis and download tasks exist, bills do not
const table: RouteDef[] = [
  {
    path: 'home', titleKey: 'home', perm: 1000000,
    children: [
      { path: 'index', titleKey: 'homeIndex', page },
      { path: 'customer', titleKey: 'homeCustomer', perm: 1000003, hideForRoles: [5000], page },
    ],
  },
  {
    path: 'shortcuts', titleKey: 'shortcuts', perm: 6000000,
    children: [{ path: 'diagnose', titleKey: 'shortcutsDiagnose', perm: 6050000, children: [{ path: 'detail/:iccId?', titleKey: 'shortcutsDiagnose', page }] }],
  },
  { path: 'card', titleKey: 'card', children: [{ path: 'downloadtask/list', titleKey: 'cardDownloadTask', page }] },
];
const tilesFor = (codes: number[], roleId = 3000, routeTable = table) =>
  shortcutTiles(flatten(filterRoutes(routeTable, { permissions: new Set(codes), roleId })), new Set(codes));

describe('shortcut tiles', () => {
  it('are the spec tiles whose code the viewer holds and whose screen exists, in code order', () => {
    const tiles = tilesFor([1000000, 1000003, 6000000, 6050000, ...ALL_TILES]);
    expect(tiles.map((t) => [t.key, t.code, t.path, t.screenKey])).toEqual([
      ['diagnose', 1000011, '/shortcuts/diagnose/detail', 'shortcutsDiagnose'],
      ['customer', 1000016, '/home/customer', 'homeCustomer'],
      ['jobs', 1000023, '/card/downloadtask/list', 'cardDownloadTask'],
    ]);
    expect(tiles[0].title).toEqual({ zh: '诊断', en: 'Diagnose' });
  });

  it('need the tile code: the screen alone is not enough', () => {
    const codes = [1000000, 1000003, 6000000, 6050000];
    expect(tilesFor(codes)).toEqual([]);
    expect(tilesFor([...codes, code('jobs')]).map((t) => t.key)).toEqual(['jobs']);
  });

  it('need the screen to be open to the viewer (its page code, its roles)', () => {
    // the diagnosis page code missing, customer management hidden for second-level customers
    expect(tilesFor([1000000, 1000003, 6000000, ...ALL_TILES], 5000).map((t) => t.key)).toEqual(['jobs']);
  });

  it('never link to a screen the product does not have: in the real route table every shown tile opens a real page', () => {
    const tiles = tilesFor(allPermissionCodes, 1000, routes);
    const flat = flatten(routes);
    for (const t of tiles) expect(matchRoute(flat, t.path), t.path).not.toBeNull();
    // every tile's screen exists now (resell since issue 16)
    const shown = new Set(tiles.map((t) => t.key));
    for (const present of ['diagnose', 'batch', 'notification', 'reduceData', 'jobs', 'customer', 'recharge', 'capital', 'withdraw', 'bill', 'autoRule', 'tip', 'unitedCustomer', 'resell']) {
      expect(shown.has(present), present).toBe(true);
    }
  });

  it('every tile has somewhere to go once its screen exists', () => {
    for (const t of HOME_TILES) expect(TILE_TARGETS[t.key]?.length, t.key).toBeGreaterThan(0);
  });
});
