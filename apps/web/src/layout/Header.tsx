import { useState } from 'react';
import { Button, Dropdown, Space, Tooltip, App } from 'antd';
import {
  GlobalOutlined, MenuFoldOutlined, MenuUnfoldOutlined, QuestionCircleOutlined, UserOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { auth, Perm, RoleType, STAFF_ROLE_TYPES } from '@lynx/contract';
import { currentLang, setLanguage } from '../locales/i18n.ts';
import { useSession } from '../stores/session.ts';
import { usePrefs } from '../stores/prefs.ts';
import { useTabs } from '../stores/tabs.ts';
import { call } from '../request/http.ts';
import { NoticeBanner } from './NoticeBanner.tsx';
import { LogoModal } from './LogoModal.tsx';
import { ChangePasswordModal } from './ChangePasswordModal.tsx';
import { GlobalSearch } from './GlobalSearch.tsx';
import { DownloadBadge } from './DownloadBadge.tsx';
import { ReviewBadge } from './ReviewBadge.tsx';

export function Header() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const { collapsed, toggleCollapsed } = usePrefs();
  const perms = useSession((s) => s.permissions);
  const roleId = useSession((s) => s.roleId);
  const userName = useSession((s) => s.userName);
  const loginName = useSession((s) => s.loginName);
  const [logoOpen, setLogoOpen] = useState(false);
  const [passwordOpen, setPasswordOpen] = useState(false);

  const isSub = roleId === RoleType.SubCustomer;
  const helpItems = [
    perms.has(Perm.HomeApiManage) && { key: '/home/doc/api-manager', label: t('shell.apiManager') },
    { key: '/home/doc/guide', label: t('shell.userGuide') },
    roleId !== null && STAFF_ROLE_TYPES.includes(roleId) && { key: '/home/doc/manager-guide', label: t('shell.managerGuide') },
    { key: '/home/doc/faq', label: t('shell.faq') },
  ].filter(Boolean) as { key: string; label: string }[];

  const userItems = [
    !isSub && perms.has(Perm.HomeAccount) && { key: '/home/account/list', label: t('shell.accountManagement') },
    !isSub && perms.has(Perm.HomeCustomer) && { key: '/home/customer', label: t('shell.customerManagement') },
    perms.has(Perm.HomeLogo) && { key: 'logo', label: t('shell.logoSetting') },
    { key: 'password', label: t('shell.changePassword') },
    { type: 'divider' as const },
    { key: 'signout', label: t('shell.signOut') },
  ].filter(Boolean) as { key: string; label: string }[];

  const signOut = () =>
    modal.confirm({
      title: t('shell.signOutConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await call(auth.logout, {}, { silent: true }).catch(() => null);
        useSession.getState().clear();
        useTabs.getState().clear();
        navigate('/login');
      },
    });

  return (
    <div className="lx-header">
      <Tooltip title={collapsed ? t('shell.expandMenu') : t('shell.collapseMenu')}>
        <Button type="text" icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />} onClick={toggleCollapsed} aria-label={t('shell.collapseMenu')} />
      </Tooltip>
      <GlobalSearch />
      <NoticeBanner />
      <Space size={4} className="lx-header-actions">
        <Dropdown menu={{ items: helpItems, onClick: ({ key }) => navigate(key) }}>
          <Button type="text" icon={<QuestionCircleOutlined />}>{t('shell.help')}</Button>
        </Dropdown>
        <ReviewBadge />
        <DownloadBadge />
        <Button type="text" icon={<GlobalOutlined />} onClick={() => setLanguage(currentLang() === 'zh' ? 'en' : 'zh')} data-testid="lang-toggle"
          lang={currentLang() === 'zh' ? 'en' : 'zh-CN'}>
          {t('common.langSwitch')}
        </Button>
        <Dropdown
          menu={{
            items: userItems,
            onClick: ({ key }) => {
              if (key === 'signout') signOut();
              else if (key === 'logo') setLogoOpen(true);
              else if (key === 'password') setPasswordOpen(true);
              else navigate(key);
            },
          }}
        >
          <Button type="text" icon={<UserOutlined />} data-testid="user-menu">{userName || loginName}</Button>
        </Dropdown>
      </Space>
      <LogoModal open={logoOpen} onClose={() => setLogoOpen(false)} />
      <ChangePasswordModal open={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </div>
  );
}
