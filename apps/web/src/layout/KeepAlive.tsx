import { Activity, useMemo } from 'react';
import { Route, Routes, type Location } from 'react-router';
import { LazyPage } from '../components/LazyPage.tsx';
import { useTabs } from '../stores/tabs.ts';
import { allowed } from '../routes/derive.ts';
import { useViewerRoutes } from '../routes/viewer.ts';
import NotFound from './NotFound.tsx';
import { PageKeyContext } from './pageTitle.ts';

/**
 * Renders every open tab's page, the active one visible and the others hidden but alive (React <Activity>).
 * Each cached page is rendered through <Routes location=…> with its own location, so useParams() inside it
 * keeps returning its own ids (ARCHITECTURE §5). A page that is not a tab (excluded paths) renders alone.
 */
export function KeepAlive({ location, transient }: { location: Location; transient: boolean }) {
  const tabs = useTabs((s) => s.tabs);
  const { all, viewer } = useViewerRoutes();
  const elements = useMemo(
    () =>
      all
        .filter((f) => f.def.page)
        .map((f) => (
          <Route
            key={f.fullPath}
            path={f.fullPath}
            element={[...f.parents, f.def].every((d) => allowed(d, viewer)) ? <LazyPage load={f.def.page!} /> : <NotFound />}
          />
        )),
    [all, viewer],
  );
  const active = location.pathname;
  // the page being opened renders in the slot its tab will have, so it mounts once, not twice
  const slots = transient || tabs.some((t) => t.key === active) ? tabs : [...tabs, { key: active, search: location.search, seq: 0 }];
  return (
    <>
      {slots.map((tab) => (
        <Activity key={`${tab.key}#${tab.seq}`} mode={!transient && tab.key === active ? 'visible' : 'hidden'}>
          <div className="lx-page" data-tab={tab.key}>
            <PageKeyContext value={tab.key}>
              <Routes location={{ ...location, pathname: tab.key, search: tab.search, hash: '', state: null, key: tab.key }}>
                {elements}
                <Route path="*" element={<NotFound />} />
              </Routes>
            </PageKeyContext>
          </div>
        </Activity>
      ))}
      {transient && (
        <div className="lx-page" data-tab={active}>
          <PageKeyContext value={active}>
            <Routes location={location}>
              {elements}
              <Route path="*" element={<NotFound />} />
            </Routes>
          </PageKeyContext>
        </div>
      )}
    </>
  );
}
