import { createBrowserRouter } from 'react-router';
import { LazyPage } from '../components/LazyPage.tsx';
import BasicLayout from '../layout/BasicLayout.tsx';

/** Created once at module level (PITFALLS): session and permissions are checked at navigation time. */
export const router = createBrowserRouter([
  { path: '/login', element: <LazyPage load={() => import('../pages/login/index.tsx')} /> },
  { path: '/register', element: <LazyPage load={() => import('../pages/register/index.tsx')} /> },
  { path: '*', element: <BasicLayout /> },
]);
