import { matchPath } from 'react-router';
import type { FlatRoute, RouteDef } from './types.ts';

export interface Viewer {
  permissions: ReadonlySet<number>;
  roleId: number | null;
}

const join = (a: string, b: string) => (a.endsWith('/') ? a : a + '/') + b.replace(/^\//, '');
/** A path with a required parameter (`:id`) cannot be opened from a menu or search; `:id?` can. */
export const hasRequiredParam = (path: string) => path.split('/').some((s) => s.startsWith(':') && !s.endsWith('?'));
const stripOptional = (path: string) => path.replace(/\/:[^/]+\?/g, '');

export function allowed(def: RouteDef, viewer: Viewer): boolean {
  if (def.perm !== undefined && !viewer.permissions.has(def.perm)) return false;
  if (def.hideForRoles && viewer.roleId !== null && def.hideForRoles.includes(viewer.roleId)) return false;
  if (def.onlyRoles && (viewer.roleId === null || !def.onlyRoles.includes(viewer.roleId))) return false;
  return true;
}

/** The routes this viewer may open; a group left with no page and no children disappears. */
export function filterRoutes(routes: RouteDef[], viewer: Viewer): RouteDef[] {
  const out: RouteDef[] = [];
  for (const r of routes) {
    if (!allowed(r, viewer)) continue;
    const children = r.children ? filterRoutes(r.children, viewer) : undefined;
    if (r.children && !children?.length && !r.page) continue;
    out.push({ ...r, children });
  }
  return out;
}

export function flatten(routes: RouteDef[], base = '/', parents: RouteDef[] = []): FlatRoute[] {
  return routes.flatMap((r) => {
    const fullPath = join(base, r.path);
    return [{ fullPath, def: r, parents }, ...(r.children ? flatten(r.children, fullPath, [...parents, r]) : [])];
  });
}

/** The route a pathname shows, with its params, among routes with a page. */
export function matchRoute(flat: FlatRoute[], pathname: string) {
  for (const f of flat) {
    if (!f.def.page) continue;
    const m = matchPath({ path: f.fullPath, end: true }, pathname);
    if (m) return { route: f, params: m.params };
  }
  return null;
}

/** Where a redirect-to-first-child group goes: its first child the viewer may open. */
export function firstChildPath(flat: FlatRoute[], group: FlatRoute): string | null {
  const child = flat.find((f) => f.parents.includes(group.def) && f.def.page && !hasRequiredParam(f.fullPath) && !f.def.hideInMenu);
  return child ? stripOptional(child.fullPath) : null;
}

export interface MenuNode {
  key: string;
  titleKey: string;
  icon?: RouteDef['icon'];
  children?: MenuNode[];
}

/** Sidebar items: hidden routes and the list/detail children of hide-children groups are left out. */
export function menuTree(routes: RouteDef[], base = '/'): MenuNode[] {
  return routes
    .filter((r) => !r.hideInMenu)
    .map((r) => {
      const fullPath = join(base, r.path);
      const kids = r.children && !r.hideChildrenInMenu ? menuTree(r.children, fullPath) : [];
      return { key: stripOptional(fullPath), titleKey: r.titleKey, icon: r.icon, ...(kids.length ? { children: kids } : {}) };
    });
}

/** The menu keys to highlight and open for a pathname. */
export function menuKeysFor(flat: FlatRoute[], pathname: string): { selected: string[]; open: string[] } {
  const m = matchRoute(flat, pathname);
  if (!m) return { selected: [], open: [] };
  const chain = [...m.route.parents, m.route.def];
  // the deepest ancestor shown in the menu is what gets highlighted
  const keys: string[] = [];
  let base = '/';
  for (const r of chain) {
    base = join(base, r.path);
    keys.push(stripOptional(base));
  }
  const visible = [];
  for (let i = 0; i < chain.length; i++) {
    visible.push(keys[i]);
    if (chain[i].hideChildrenInMenu) break;
  }
  return { selected: [visible[visible.length - 1]], open: visible.slice(0, -1) };
}

/** Breadcrumb title keys from the top group to the page. */
export function breadcrumbKeys(flat: FlatRoute[], pathname: string): { titleKey: string; path: string | null }[] {
  const m = matchRoute(flat, pathname);
  if (!m) return [];
  const out: { titleKey: string; path: string | null }[] = [];
  let base = '/';
  for (const r of [...m.route.parents, m.route.def]) {
    base = join(base, r.path);
    const crumb = { titleKey: r.titleKey, path: r.page && !hasRequiredParam(base) ? stripOptional(base) : null };
    // a group and its list page often share a title: show it once
    if (out.length && out[out.length - 1].titleKey === crumb.titleKey) out[out.length - 1] = crumb;
    else out.push(crumb);
  }
  return out;
}

/** Header search: pages whose Chinese or English title contains the keyword (menu pages only). */
export function searchPages(flat: FlatRoute[], keyword: string, title: (key: string, lang: 'zh' | 'en') => string) {
  const k = keyword.trim().toLowerCase();
  if (!k) return [];
  return flat
    .filter((f) => f.def.page && !f.def.hideInMenu && !hasRequiredParam(f.fullPath) && !f.parents.some((p) => p.hideInMenu))
    .filter((f) => [title(f.def.titleKey, 'zh'), title(f.def.titleKey, 'en')].some((t) => t.toLowerCase().includes(k)))
    
    .map((f) => ({
      path: stripOptional(f.fullPath),
      titleKey: f.def.titleKey,
      // a list page titled like its group is shown once
      parentKeys: f.parents.map((p) => p.titleKey).filter((k, i, all) => k !== (all[i + 1] ?? f.def.titleKey)),
    }));
}
