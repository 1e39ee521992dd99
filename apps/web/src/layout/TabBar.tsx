import { useEffect, useRef, useState } from 'react';
import { Button, Dropdown, Tooltip } from 'antd';
import { CloseOutlined, LeftOutlined, RightOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useTabs, type Tab } from '../stores/tabs.ts';
import { titleWithName } from './pageTitle.ts';

/** The spec's tab strip: up to 20 pages, each with reload / close this / close others, and scroll arrows. */
export function TabBar({ activeKey }: { activeKey: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { tabs, names, close, closeOthers, reload } = useTabs();
  const strip = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState(false);

  useEffect(() => {
    const el = strip.current;
    if (!el) return;
    const check = () => setOverflow(el.scrollWidth > el.clientWidth + 1);
    check();
    const ro = new ResizeObserver(check);
    ro.observe(el);
    return () => ro.disconnect();
  }, [tabs.length]);

  useEffect(() => {
    strip.current?.querySelector<HTMLElement>('[data-active="true"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [activeKey]);

  const go = (tab: Tab | null) => navigate(tab ? tab.key + tab.search : '/');
  const doClose = (key: string) => {
    const next = close(key);
    if (key === activeKey) go(next);
  };
  const scroll = (dx: number) => strip.current?.scrollBy({ left: dx, behavior: 'smooth' });

  if (!tabs.length) return null;
  return (
    <div className="lx-tabbar" role="tablist">
      {overflow && <Button type="text" size="small" icon={<LeftOutlined />} aria-label={t('shell.tabScrollLeft')} onClick={() => scroll(-240)} />}
      <div className="lx-tabbar-strip" ref={strip}>
        {tabs.map((tab) => {
          const active = tab.key === activeKey;
          const title = titleWithName(t(`menu.${tab.titleKey}`), names[tab.key]);
          return (
            <Dropdown
              key={tab.key}
              trigger={['contextMenu']}
              menu={{
                items: [
                  { key: 'reload', icon: <ReloadOutlined />, label: t('shell.tabReload') },
                  { key: 'close', icon: <CloseOutlined />, label: t('shell.tabClose') },
                  { key: 'others', label: t('shell.tabCloseOthers') },
                ],
                onClick: ({ key }) => {
                  if (key === 'reload') reload(tab.key);
                  if (key === 'close') doClose(tab.key);
                  if (key === 'others') {
                    closeOthers(tab.key);
                    if (!active) go(tab);
                  }
                },
              }}
            >
              <div
                className={`lx-tab${active ? ' lx-tab-active' : ''}`}
                role="tab"
                aria-selected={active}
                data-active={active}
                data-key={tab.key}
                title={title}
                onClick={() => !active && go(tab)}
                onAuxClick={(e) => e.button === 1 && doClose(tab.key)}
              >
                <span className="lx-tab-title">{title}</span>
                <Tooltip title={t('shell.tabClose')}>
                  <CloseOutlined
                    className="lx-tab-close"
                    aria-label={t('shell.tabClose')}
                    onClick={(e) => {
                      e.stopPropagation();
                      doClose(tab.key);
                    }}
                  />
                </Tooltip>
              </div>
            </Dropdown>
          );
        })}
      </div>
      {overflow && <Button type="text" size="small" icon={<RightOutlined />} aria-label={t('shell.tabScrollRight')} onClick={() => scroll(240)} />}
      <Dropdown
        menu={{
          items: [
            { key: 'reload', label: t('shell.tabReload') },
            { key: 'close', label: t('shell.tabClose') },
            { key: 'others', label: t('shell.tabCloseOthers') },
          ],
          onClick: ({ key }) => {
            if (key === 'reload') reload(activeKey);
            if (key === 'close') doClose(activeKey);
            if (key === 'others') closeOthers(activeKey);
          },
        }}
      >
        <Button type="text" size="small" className="lx-tab-menu" aria-label={t('common.more')}>⋯</Button>
      </Dropdown>
    </div>
  );
}
