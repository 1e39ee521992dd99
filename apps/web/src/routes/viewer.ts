import { useMemo } from 'react';
import { useSession } from '../stores/session.ts';
import { routes } from './table.tsx';
import { filterRoutes, flatten, type Viewer } from './derive.ts';

/** The routes of the signed-in user, derived from the one table. */
export function useViewerRoutes() {
  const permissions = useSession((s) => s.permissions);
  const roleId = useSession((s) => s.roleId);
  return useMemo(() => {
    const viewer: Viewer = { permissions, roleId };
    const permitted = filterRoutes(routes, viewer);
    return { viewer, permitted, flat: flatten(permitted), all: flatten(routes) };
  }, [permissions, roleId]);
}
