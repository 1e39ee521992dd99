import { useMemo } from 'react';
import { Layout, Menu, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { prefetchRoute } from '../routes/prefetch.ts';
import { menuKeysFor, menuTree, type MenuNode } from '../routes/derive.ts';
import { useViewerRoutes } from '../routes/viewer.ts';
import { usePrefs } from '../stores/prefs.ts';
import { useLogo } from './useLogo.ts';

export function Sider({ pathname }: { pathname: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const collapsed = usePrefs((s) => s.collapsed);
  const { permitted, flat } = useViewerRoutes();
  const logo = useLogo();
  const items = useMemo(() => {
    const toItem = (n: MenuNode): NonNullable<MenuProps['items']>[number] => ({
      key: n.key,
      icon: n.icon,
      label: t(`menu.${n.titleKey}`),
      children: n.children?.map(toItem),
    });
    return menuTree(permitted).map(toItem);
  }, [permitted, t]);
  const keys = menuKeysFor(flat, pathname);
  return (
    <Layout.Sider collapsible collapsed={collapsed} trigger={null} width={220} className="lx-sider" theme="dark">
      <div className="lx-brand" onClick={() => navigate('/')}>
        {logo ? <img src={logo} alt="logo" className="lx-brand-logo" /> : <img src="/favicon.svg" alt="" className="lx-brand-logo" />}
        {!collapsed && <span className="lx-brand-name">{t('common.appShort')}</span>}
      </div>
      <Menu
        theme="dark"
        mode="inline"
        // a smaller step per level than antd's 24 px: English labels ("Standard cards operation") fit the 220 px menu
        // without taking width from the lists
        inlineIndent={16}
        items={items}
        selectedKeys={keys.selected}
        defaultOpenKeys={keys.open}
        key={collapsed ? 'c' : 'o'}
        onClick={({ key }) => {
          // the page's chunk and first request start now, not after the navigation's render (same call as the router's)
          prefetchRoute(client, { pathname: key, search: '' });
          void navigate(key);
        }}
      />
    </Layout.Sider>
  );
}
