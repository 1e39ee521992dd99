import { useEffect } from 'react';
import { Layout } from 'antd';
import { Navigate, useLocation } from 'react-router';
import { matchPath } from 'react-router';
import { isLoggedIn, useSession } from '../stores/session.ts';
import { isExcludedFromTabs, useTabs } from '../stores/tabs.ts';
import { firstChildPath, matchRoute, hasRequiredParam } from '../routes/derive.ts';
import { useViewerRoutes } from '../routes/viewer.ts';
import { prefetchHotPages } from '../routes/prefetch.ts';
import { Header } from './Header.tsx';
import { Sider } from './Sider.tsx';
import { TabBar } from './TabBar.tsx';
import { KeepAlive } from './KeepAlive.tsx';
import { PageBreadcrumb } from './PageBreadcrumb.tsx';

/** The shell: session check, redirects of groups, tab bookkeeping, side menu, header, breadcrumbs, pages. */
export default function BasicLayout() {
  const location = useLocation();
  const session = useSession();
  const { flat } = useViewerRoutes();
  const open = useTabs((s) => s.open);
  const pathname = location.pathname.length > 1 ? location.pathname.replace(/\/+$/, '') : location.pathname;
  const match = matchRoute(flat, pathname);
  const transient = isExcludedFromTabs(pathname);

  // the most used pages' chunks load while the shell is idle (routes/prefetch.ts)
  useEffect(() => prefetchHotPages(), []);

  useEffect(() => {
    if (!match || transient || match.route.def.noTab) return;
    // a page with a record adds the record's name itself (usePageTitle), never its raw ids
    open({ key: pathname, search: location.search, titleKey: match.route.def.titleKey });
  }, [pathname, location.search, match?.route.fullPath, transient]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!isLoggedIn(session)) return <Navigate to={session.endedBecause ? `/login?status=${session.endedBecause}` : '/login'} replace />;
  if (session.mustResetPassword) return <Navigate to="/login?reset=1" replace />;
  if (pathname === '/') {
    // home when permitted, else the first page the user may open
    const first = flat.find((f) => f.def.page && !hasRequiredParam(f.fullPath));
    const to = flat.some((f) => f.fullPath === '/home') ? '/home' : first ? first.fullPath.replace(/\/:[^/]+\?/g, '') : '/home';
    return <Navigate to={to} replace />;
  }
  // groups flagged redirect-to-first-child forward to their first permitted child
  const group = flat.find((f) => f.def.redirectToFirstChild && matchPath({ path: f.fullPath, end: true }, pathname));
  if (group) {
    const to = firstChildPath(flat, group);
    if (to && to !== pathname) return <Navigate to={to} replace />;
  }

  return (
    <Layout className="lx-root">
      <Sider pathname={pathname} />
      <Layout>
        <Layout.Header className="lx-header-bar">
          <Header />
        </Layout.Header>
        <TabBar activeKey={pathname} />
        <Layout.Content className="lx-content">
          <PageBreadcrumb flat={flat} pathname={pathname} />
          <KeepAlive location={{ ...location, pathname }} transient={transient} />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
