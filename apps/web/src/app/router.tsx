import { createBrowserRouter } from 'react-router';
import { LazyPage } from '../components/LazyPage.tsx';
import { loadLayout } from '../routes/hot.ts';

/** Created once at module level (PITFALLS): session and permissions are checked at navigation time. */
export const router = createBrowserRouter([
  { path: '/login', element: <LazyPage load={() => import('../pages/login/index.tsx')} /> },
  { path: '/register', element: <LazyPage load={() => import('../pages/register/index.tsx')} /> },
  // the shell loads after login, so the login page stays small
  { path: '*', element: <LazyPage load={loadLayout} /> },
]);
