import { HOME_TILES } from '@lynx/contract';
import { matchRoute } from '../../../routes/derive.ts';
import type { FlatRoute } from '../../../routes/types.ts';

export interface Tile {
  key: string;
  /** the tile's permission code (1000011–1000024) */
  code: number;
  /** the screen it opens */
  path: string;
  title: { zh: string; en: string };
  /** menu title key of the screen it opens (shown under the tile's name) */
  screenKey: string;
}

/**
 * Where each of the spec's 14 shortcut tiles leads (§2 Shortcuts and its aliases): the screens in order of
 * preference; the first one the viewer may open wins. A screen that is not built yet has no route, so its tile
 * stays hidden until the screen's route lands in the route table (docs/decisions.md, "Home shortcut tiles").
 */
export const TILE_TARGETS: Record<string, readonly string[]> = {
  diagnose: ['/shortcuts/diagnose/detail'],
  // "tip": the alerts raised by automation rules (trigger records)
  tip: ['/autorule/alarm-list/list'],
  autoRule: ['/autorule/autorule-list/list'],
  batch: ['/card/batchoperate/list', '/shortcuts/batchoperate/list'],
  bill: ['/billing/bill/list'],
  // the spec's alias /shortcuts/customer shows the business customer list; until it exists, customer management
  customer: ['/shortcuts/customer', '/business/customer/list', '/home/customer'],
  recharge: ['/shortcuts/recharge/list', '/business/recharge/list'],
  notification: ['/shortcuts/notification/list'],
  unitedCustomer: ['/shortcuts/cust-operation/list'],
  capital: ['/shortcuts/capital', '/business/capital/list'],
  reduceData: ['/shortcuts/data-recovery/list'],
  withdraw: ['/shortcuts/withdraw/list', '/business/withdraw/list'],
  // "jobs": the user's export tasks
  jobs: ['/card/downloadtask/list'],
  resell: ['/shortcuts/resell/list'],
};

/**
 * The overview's shortcut tiles: a tile shows when the viewer holds its code and its screen exists and is open to
 * the viewer (`flat`: the viewer's permitted routes), in the spec's order.
 */
export function shortcutTiles(flat: FlatRoute[], permissions: ReadonlySet<number>): Tile[] {
  const out: Tile[] = [];
  for (const tile of HOME_TILES) {
    if (!permissions.has(tile.code)) continue;
    for (const path of TILE_TARGETS[tile.key] ?? []) {
      const m = matchRoute(flat, path);
      if (!m) continue;
      out.push({ key: tile.key, code: tile.code, path, title: { zh: tile.zh, en: tile.en }, screenKey: m.route.def.titleKey });
      break;
    }
  }
  return out;
}
