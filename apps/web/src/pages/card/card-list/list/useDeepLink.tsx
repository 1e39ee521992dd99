import { useEffect, useRef, useState } from 'react';
import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { SearchTableHandle } from '../../../../components/useSearchTable.ts';
import type { SearchField } from '../../../../components/SearchForm.tsx';
import { filtersFromSearch, splitLinkFilters, type LinkOnlyKey } from './deepLink.ts';

type LinkOnly = Partial<Record<LinkOnlyKey, string>>;

/**
 * The card list opened from a link with filters in its URL (deepLink.ts): the link's filters replace the remembered
 * search when the page opens, and again whenever the tab is opened by another link. Filters the form has no field
 * for (recent alerts, batch failures) are kept beside it as removable tags. Once the user searches, resets or removes
 * a tag, the URL drops the link's filters (so the same link opened again applies again).
 */
export function useCardListDeepLink() {
  const location = useLocation();
  const navigate = useNavigate();
  const [initial] = useState(() => {
    const f = filtersFromSearch(location.search);
    return f ? splitLinkFilters(f) : null;
  });
  const [linkOnly, setLinkOnly] = useState<LinkOnly>(initial?.linkOnly ?? {});
  const applied = useRef(location.search);

  const leave = () => {
    if (filtersFromSearch(location.search)) void navigate(location.pathname, { replace: true });
  };

  /** Applies a link opened while the page is already open (a cached tab). */
  const useFollow = (table: SearchTableHandle, defaults: Record<string, unknown>) => {
    useEffect(() => {
      if (location.search === applied.current) return;
      applied.current = location.search;
      const f = filtersFromSearch(location.search);
      if (!f) return;
      const { form, linkOnly: next } = splitLinkFilters(f);
      const values = { ...defaults, ...form };
      table.form.setFieldsValue(Object.fromEntries(Object.keys(table.form.getFieldsValue(true)).map((k) => [k, undefined])));
      table.form.setFieldsValue(values);
      setLinkOnly(next);
      table.search(values);
      // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new link re-applies
    }, [location.search]);
  };

  return {
    /** the form values and link-only filters of the link the page was opened with (null: a plain visit) */
    initial,
    /** filters sent with every query until removed (useSearchTable `fixed`) */
    linkOnly,
    useFollow,
    /** the user took over the filters (searched): the URL no longer describes the list */
    leave,
    /** reset: the link-only filters go too */
    clear: () => {
      setLinkOnly({});
      leave();
    },
    remove: (key: LinkOnlyKey) => {
      setLinkOnly(({ [key]: _gone, ...rest }) => rest);
      leave();
    },
  };
}
export type CardListDeepLink = ReturnType<typeof useCardListDeepLink>;

/** The link-only filters as tags (e.g. "Recent alerts since 2026-11-20"), each removable. */
export function LinkFilterTags({ link, table }: { link: CardListDeepLink; table: SearchTableHandle }) {
  const { t } = useTranslation();
  const entries = Object.entries(link.linkOnly) as [LinkOnlyKey, string][];
  if (entries.length === 0) return null;
  const text = (k: LinkOnlyKey, v: string) => t(`carddata.list.link.${k}`, { value: k === 'failedBatchId' ? v.slice(0, 8) : v });
  return (
    <Space size={[8, 4]} wrap style={{ marginTop: 4 }} data-testid="card-link-filters">
      <Typography.Text type="secondary">{t('carddata.list.link.title')}</Typography.Text>
      {entries.map(([k, v]) => (
        <Tag key={k} color="blue" closable
          onClose={(e) => { e.preventDefault(); link.remove(k); table.search(table.form.getFieldsValue(true)); }} data-testid={`card-link-filter-${k}`}>
          {text(k, v)}
        </Tag>
      ))}
    </Space>
  );
}

/** The search form's quota field ("Quota this cycle": near / over), a filter the Home overview links to. */
export function useQuotaLevelField(): SearchField {
  const { t } = useTranslation();
  return {
    name: 'quotaLevel', label: t('carddata.list.quotaLevel'), type: 'select',
    options: [{ value: 'near', label: t('carddata.list.quotaNear') }, { value: 'over', label: t('carddata.list.quotaOver') }],
  };
}
