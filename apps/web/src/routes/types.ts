import type { ComponentType, ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';

/** What a page may start before it renders (routes/prefetch.ts): its first request, into the query cache. */
export interface PrefetchContext {
  client: QueryClient;
  /** the URL's query string (`?…`), for pages whose first request depends on it */
  search: string;
}

export type PageModule = { default: ComponentType };
/** A page's first request, in a module of its own (no components), so it can start before the page's chunk is in. */
export type DataModule = { prefetch: (ctx: PrefetchContext) => void };

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
  /** starts the page's first data request the moment the route is known (menu click, deep link): routes/prefetch.ts */
  data?: () => Promise<DataModule>;
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
