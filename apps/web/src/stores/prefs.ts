import { create } from 'zustand';

const COLLAPSED = 'lx_sider_collapsed';

interface Prefs {
  collapsed: boolean;
  toggleCollapsed(): void;
}

export const usePrefs = create<Prefs>((set, get) => ({
  collapsed: localStorage.getItem(COLLAPSED) === '1',
  toggleCollapsed() {
    const collapsed = !get().collapsed;
    localStorage.setItem(COLLAPSED, collapsed ? '1' : '0');
    set({ collapsed });
  },
}));
