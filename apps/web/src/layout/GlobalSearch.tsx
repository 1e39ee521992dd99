import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { AutoComplete, Input, Spin } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Perm, search } from '@lynx/contract';
import i18n, { currentLang } from '../locales/i18n.ts';
import { call } from '../request/http.ts';
import { useSession } from '../stores/session.ts';
import { searchPages } from '../routes/derive.ts';
import { useViewerRoutes } from '../routes/viewer.ts';
import { enterTarget, resultGroups, type SearchResult } from './globalSearchResults.tsx';

/** Typing pauses this long before the server is asked (pages are found at once, in the browser). */
export const SEARCH_DEBOUNCE_MS = 250;

/** `value` once it has stopped changing for `ms`; `flush` takes the current value at once (Enter). */
function useDebounced(value: string, ms: number): [string, () => void] {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return [settled, () => setSettled(value)];
}

/**
 * The header's one search box (issue 12, docs/cards.md "Search"): cards by 6 or more digits of any of their numbers,
 * customers, plans, pools, batches and card imports from the server (each kind only for users who may open it, inside
 * their tenant), pages from the route table. Results are grouped by kind, the best first and highlighted; ↑ ↓ choose,
 * Enter opens the highlighted one, Esc closes. Enter pressed before the answer came opens the only card found (or the
 * only result) once it is there, and otherwise shows the results.
 */
export function GlobalSearch() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { flat } = useViewerRoutes();
  const perms = useSession((s) => s.permissions);
  const [keyword, setKeyword] = useState('');
  const [open, setOpen] = useState(false);
  const trimmed = keyword.trim();
  const [settled, flush] = useDebounced(trimmed, SEARCH_DEBOUNCE_MS);
  /** Enter was pressed for this keyword before its results were there */
  const pendingEnter = useRef<string | null>(null);
  /** an option was chosen by the list itself during this key press */
  const chosen = useRef(false);

  const query = useQuery({
    queryKey: [search.globalSearch.name, settled],
    queryFn: ({ signal }) => call(search.globalSearch, { keyword: settled }, { signal, silent: true }),
    enabled: settled.length > 0,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
  // results are shown only for the keyword in the box: Enter never opens a hit of an older keyword
  const fresh = settled === trimmed && !query.isPlaceholderData && query.data ? (query.data as SearchResult) : null;
  const pending = trimmed.length > 0 && (settled !== trimmed || query.isFetching);

  const pages = useMemo(() => {
    const title = (key: string, lang: 'zh' | 'en') => i18n.getFixedT(lang)(`menu.${key}`);
    return searchPages(flat, trimmed, title).map((m) => ({ path: m.path, title: [...m.parentKeys, m.titleKey].map((k) => t(`menu.${k}`)).join(' / ') }));
  }, [flat, trimmed, t]);
  const groups = useMemo(
    () => resultGroups({ keyword: trimmed, result: fresh, pages, t, lang: currentLang(), has: (p) => perms.has(p) }),
    [trimmed, fresh, pages, t, perms],
  );
  const cardWord = search.cardKeyword(trimmed);
  const needDigits = perms.has(Perm.CardList) && cardWord.kind === 'short';

  const go = (path: string) => {
    pendingEnter.current = null;
    setKeyword('');
    setOpen(false);
    navigate(path);
  };
  // Enter before the answer came: open the only card once it is there
  useEffect(() => {
    if (!fresh || pendingEnter.current !== trimmed) return;
    pendingEnter.current = null;
    const target = enterTarget(groups);
    // several hits: show them (the list may have closed itself on that Enter, after the key handler reopened it)
    if (target) go(target.path);
    else setOpen(true);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fresh, groups, trimmed]);

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'Enter' || !trimmed) return;
    chosen.current = false;
    // the list handles Enter on an option chosen with the arrows first (onSelect); otherwise open the only hit
    // (the list closes itself on Enter without a chosen option: it stays open so the arrows can choose)
    setTimeout(() => {
      if (chosen.current) return;
      if (fresh && !pending) {
        const target = enterTarget(groups);
        if (target) go(target.path);
        else setOpen(true);
        return;
      }
      pendingEnter.current = trimmed;
      flush();
      setOpen(true);
    }, 0);
  };

  const options = groups.map((g) => ({
    label: <span className="lx-gs-group">{g.title}</span>,
    title: g.title,
    options: [
      ...g.items.map((i) => ({ value: i.value, label: i.label, title: i.text })),
      ...(g.more ? [{ value: `more:${g.kind}`, disabled: true, label: <span className="lx-gs-more">{g.more}</span> }] : []),
    ],
  }));
  const paths = new Map(groups.flatMap((g) => g.items.map((i) => [i.value, i.path] as const)));
  const failed = query.isError && settled === trimmed ? (query.error as Error).message : null;

  const footer = [
    needDigits && <div key="digits" className="lx-gs-hint" data-testid="global-search-digits">{t('search.cardsNeedDigits', { min: search.CARD_FRAGMENT_MIN })}</div>,
    failed && <div key="failed" className="lx-gs-hint lx-gs-error">{t('search.failed', { message: failed })}</div>,
    pending && groups.length > 0 && <div key="busy" className="lx-gs-hint"><Spin size="small" /> {t('search.searching')}</div>,
    groups.length > 0 && <div key="keys" className="lx-gs-hint lx-gs-keys">{t('search.enterHint')}</div>,
  ].filter(Boolean);

  return (
    <AutoComplete
      className="lx-header-search"
      value={keyword}
      options={options}
      open={open && trimmed.length > 0}
      onOpenChange={setOpen}
      onChange={(v: string) => {
        setKeyword(v ?? '');
        setOpen(true);
      }}
      onSelect={(value: string) => {
        chosen.current = true;
        const path = paths.get(value);
        if (path) go(path);
      }}
      onKeyDown={onKeyDown}
      showSearch={{ filterOption: false }}
      defaultActiveFirstOption
      popupMatchSelectWidth={460}
      listHeight={440}
      virtual={false}
      classNames={{ popup: { root: 'lx-gs-popup' } }}
      notFoundContent={
        pending ? <span className="lx-gs-hint"><Spin size="small" /> {t('search.searching')}</span>
          : failed ? null : <span className="lx-gs-hint" data-testid="global-search-empty">{t(cardWord.kind === 'search' && perms.has(Perm.CardList) ? 'search.noMatch' : 'search.noMatchOthers')}</span>
      }
      popupRender={(menu) => (
        <div data-testid="global-search-results">
          {menu}
          {footer.length > 0 && <div className="lx-gs-footer">{footer}</div>}
        </div>
      )}
    >
      <Input
        prefix={<SearchOutlined />}
        suffix={pending ? <Spin size="small" /> : <span />}
        placeholder={t('search.placeholder')}
        aria-label={t('search.label')}
        allowClear
        maxLength={search.SEARCH_KEYWORD_MAX}
        data-testid="global-search"
      />
    </AutoComplete>
  );
}
