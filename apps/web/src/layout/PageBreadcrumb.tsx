import { Breadcrumb } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { breadcrumbKeys } from '../routes/derive.ts';
import type { FlatRoute } from '../routes/types.ts';
import { useTabs } from '../stores/tabs.ts';

/** Route titles from the top group to the page, then the name the page published for its record. */
export function PageBreadcrumb({ flat, pathname }: { flat: FlatRoute[]; pathname: string }) {
  const { t } = useTranslation();
  const name = useTabs((s) => s.names[pathname]);
  const crumbs = breadcrumbKeys(flat, pathname);
  if (!crumbs.length) return null;
  const items = crumbs.map((c, i) => ({
    title: c.path && (i < crumbs.length - 1 || name) ? <Link to={c.path}>{t(`menu.${c.titleKey}`)}</Link> : t(`menu.${c.titleKey}`),
  }));
  return <Breadcrumb className="lx-breadcrumb" items={name ? [...items, { title: name }] : items} />;
}
