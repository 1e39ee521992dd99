import type { ReactNode } from 'react';
import { hasRequiredParam } from '../../../routes/derive.ts';
import type { FlatRoute } from '../../../routes/types.ts';

export interface Tile {
  path: string;
  titleKey: string;
  /** title key of the top-level group the page belongs to */
  groupKey: string | null;
  icon?: ReactNode;
}

const stripOptional = (path: string) => path.replace(/\/:[^/]+\?/g, '');

/**
 * The overview's shortcut tiles: every page of the viewer's permitted routes that opens without an id, except
 * the overview itself. Pages hidden from the menu are kept only when they carry a permission code of their
 * own (the API manager), because the permission-free help pages already sit in the header's help menu.
 */
export function shortcutTiles(flat: FlatRoute[], self = '/home/index'): Tile[] {
  const seen = new Set<string>([self]);
  const out: Tile[] = [];
  for (const f of flat) {
    if (!f.def.page || hasRequiredParam(f.fullPath)) continue;
    const path = stripOptional(f.fullPath);
    if (seen.has(path)) continue;
    const hidden = f.def.hideInMenu || f.parents.some((p) => p.hideInMenu);
    if (hidden && f.def.perm === undefined) continue;
    seen.add(path);
    out.push({ path, titleKey: f.def.titleKey, groupKey: f.parents[0]?.titleKey ?? null, icon: f.parents[0]?.icon ?? f.def.icon });
  }
  return out;
}
