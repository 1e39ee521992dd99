import { permissionTree, type PermissionNode } from '@lynx/contract';

/**
 * Selection rules of the role permission tree. A code only works together with the pages above it (the
 * console hides a button whose page is hidden), so checking a node also checks its ancestors and everything
 * below it; unchecking a node unchecks what is below it and leaves the ancestors alone, so "a page without
 * its buttons" can be expressed.
 */

interface Index {
  parent: Map<number, number>;
  node: Map<number, PermissionNode>;
}

function indexOf(nodes: PermissionNode[]): Index {
  const parent = new Map<number, number>();
  const node = new Map<number, PermissionNode>();
  const walk = (list: PermissionNode[], up: number | null) => {
    for (const n of list) {
      node.set(n.code, n);
      if (up !== null) parent.set(n.code, up);
      if (n.children) walk(n.children, n.code);
    }
  };
  walk(nodes, null);
  return { parent, node };
}

const defaultIndex = indexOf(permissionTree);
const indexFor = (tree: PermissionNode[]) => (tree === permissionTree ? defaultIndex : indexOf(tree));

/** The node's code and every code below it. */
export function subtreeCodes(node: PermissionNode): number[] {
  const out: number[] = [node.code];
  node.children?.forEach((c) => out.push(...subtreeCodes(c)));
  return out;
}

/** The codes above a node, nearest first. */
export function ancestorCodes(code: number, tree: PermissionNode[] = permissionTree): number[] {
  const { parent } = indexFor(tree);
  const out: number[] = [];
  for (let up = parent.get(code); up !== undefined; up = parent.get(up)) out.push(up);
  return out;
}

/** The selection after (un)checking one node, sorted and without duplicates. */
export function toggleCode(selected: readonly number[], code: number, on: boolean, tree: PermissionNode[] = permissionTree): number[] {
  const { node } = indexFor(tree);
  const n = node.get(code);
  if (!n) return [...selected];
  const next = new Set(selected);
  const below = subtreeCodes(n);
  if (on) {
    below.forEach((c) => next.add(c));
    ancestorCodes(code, tree).forEach((c) => next.add(c));
  } else {
    below.forEach((c) => next.delete(c));
  }
  return [...next].sort((a, b) => a - b);
}

/** Unchecked nodes with something checked below them (shown half-checked). */
export function partialCodes(selected: readonly number[], tree: PermissionNode[] = permissionTree): number[] {
  const set = new Set(selected);
  const out: number[] = [];
  const walk = (n: PermissionNode): boolean => {
    let below = false;
    n.children?.forEach((c) => {
      if (walk(c)) below = true;
    });
    if (below && !set.has(n.code)) out.push(n.code);
    return below || set.has(n.code);
  };
  tree.forEach(walk);
  return out;
}

/** The tree cut down to the granted codes (a node stays when it or something below it is granted). */
export function grantedTree(granted: readonly number[], tree: PermissionNode[] = permissionTree): PermissionNode[] {
  const set = new Set(granted);
  const prune = (list: PermissionNode[]): PermissionNode[] =>
    list.flatMap((n) => {
      const children = n.children ? prune(n.children) : [];
      if (!set.has(n.code) && !children.length) return [];
      return [{ ...n, children }];
    });
  return prune(tree);
}

/** Codes of the nodes that have children: the keys to expand for "expand all". */
export function branchCodes(tree: PermissionNode[] = permissionTree): number[] {
  const out: number[] = [];
  const walk = (n: PermissionNode) => {
    if (n.children?.length) {
      out.push(n.code);
      n.children.forEach(walk);
    }
  };
  tree.forEach(walk);
  return out;
}

/** How many of the selected codes exist in the tree (stale codes are not counted). */
export function countKnown(selected: readonly number[], tree: PermissionNode[] = permissionTree): number {
  const { node } = indexFor(tree);
  return new Set(selected.filter((c) => node.has(c))).size;
}

/**
 * The nodes whose name (either language) or code contains the keyword, with the pages above them; a
 * matching page keeps all its children. A blank keyword keeps the whole tree.
 */
export function filterTree(keyword: string, tree: PermissionNode[] = permissionTree): PermissionNode[] {
  const k = keyword.trim().toLowerCase();
  if (!k) return tree;
  const hit = (n: PermissionNode) => n.zh.toLowerCase().includes(k) || n.en.toLowerCase().includes(k) || String(n.code).includes(k);
  const walk = (list: PermissionNode[]): PermissionNode[] =>
    list.flatMap((n) => {
      if (hit(n)) return [n];
      const children = n.children ? walk(n.children) : [];
      return children.length ? [{ ...n, children }] : [];
    });
  return walk(tree);
}

/** A role's name in the UI language: built-in roles have an English name, custom roles one name. */
export const roleNameOf = (r: { roleName: string; roleNameEn?: string | null }, language: string): string =>
  language === 'en' && r.roleNameEn ? r.roleNameEn : r.roleName;
