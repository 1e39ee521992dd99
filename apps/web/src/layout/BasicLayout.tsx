import { useEffect } from 'react';
import { Breadcrumb, Layout } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation } from 'react-router';
import { matchPath } from 'react-router';
import { isLoggedIn, useSession } from '../stores/session.ts';
import { isExcludedFromTabs, useTabs } from '../stores/tabs.ts';
import { breadcrumbKeys, firstChildPath, matchRoute, hasRequiredParam } from '../routes/derive.ts';
import { useViewerRoutes } from '../routes/viewer.ts';
import { Header } from './Header.tsx';
import { Sider } from './Sider.tsx';
import { TabBar } from './TabBar.tsx';
import { KeepAlive } from './KeepAlive.tsx';

/** The shell: session check, redirects of groups, tab bookkeeping, side menu, header, breadcrumbs, pages. */
export default function BasicLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const session = useSession();
  const { flat } = useViewerRoutes();
  const open = useTabs((s) => s.open);
  const pathname = location.pathname.length > 1 ? location.pathname.replace(/\/+$/, '') : location.pathname;
  const match = matchRoute(flat, pathname);
  const transient = isExcludedFromTabs(pathname);

  useEffect(() => {
    if (!match || transient || match.route.def.noTab) return;
    const params = Object.values(match.params).filter(Boolean) as string[];
    open({
      key: pathname,
      search: location.search,
      titleKey: match.route.def.titleKey,
      suffix: hasRequiredParam(match.route.fullPath) ? params.join(' / ') : undefined,
    });
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

  const crumbs = breadcrumbKeys(flat, pathname);
  return (
    <Layout className="lx-root">
      <Sider pathname={pathname} />
      <Layout>
        <Layout.Header className="lx-header-bar">
          <Header />
        </Layout.Header>
        <TabBar activeKey={pathname} />
        <Layout.Content className="lx-content">
          {crumbs.length > 0 && (
            <Breadcrumb
              className="lx-breadcrumb"
              items={crumbs.map((c, i) => ({
                title: c.path && i < crumbs.length - 1 ? <Link to={c.path}>{t(`menu.${c.titleKey}`)}</Link> : t(`menu.${c.titleKey}`),
              }))}
            />
          )}
          <KeepAlive location={{ ...location, pathname }} transient={transient} />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
