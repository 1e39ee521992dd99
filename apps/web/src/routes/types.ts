import type { ComponentType, ReactNode } from 'react';

export type PageModule = { default: ComponentType };

/** One entry of the route table: router, menu, breadcrumbs, header search and tab titles come from it. */
export interface RouteDef {
  /** segment(s) below the parent, react-router syntax (`:id`, `:id?`) */
  path: string;
  /** key under `menu.` in the locale files */
  titleKey: string;
  perm?: number;
  /** role types that must NOT see it (spec: account and customer management hidden for 5000) */
  hideForRoles?: number[];
  /** only these role types see it (spec: the manager guide for 1000 and 2000) */
  onlyRoles?: number[];
  icon?: ReactNode;
  page?: () => Promise<PageModule>;
  hideInMenu?: boolean;
  redirectToFirstChild?: boolean;
  hideChildrenInMenu?: boolean;
  /** cached in a tab while open (default true) */
  keepAlive?: boolean;
  noTab?: boolean;
  children?: RouteDef[];
}

/** A route with its full path and its ancestors, for matching. */
export interface FlatRoute {
  fullPath: string;
  def: RouteDef;
  parents: RouteDef[];
}
