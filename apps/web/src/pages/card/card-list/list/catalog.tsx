import { withZoneLabel } from '@lynx/contract';
import { useEffect, useMemo, useState } from 'react';
import { Button, Checkbox, DatePicker, Divider, Form, Input, Popover, Select, Space, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../../stores/session.ts';
import { cleanFilters, type SearchTableHandle } from '../../../../components/useSearchTable.ts';
import type { SearchField } from '../../../../components/SearchForm.tsx';
import { LabelTags, cardTypeName, labelSelectOptions, useCardTypeOptions, useLabelOptions } from '../../label/shared.tsx';
import { CATALOG_SEARCH_DEFAULTS } from './query.ts';
import { loadCardListPrefs, restoreSearch, saveCardListPrefs, serializeSearch, type CardListPrefs } from './prefs.ts';

/*
 * The card list's catalogue search items (label, card type, first-use date, custom fields), its label and
 * card type columns, and the remembered settings (columns shown, rows per page, last search) per login name.
 */

type Transform = (values: Record<string, any>) => Record<string, unknown>;
const ALWAYS_SHOWN = 'iccid';
export { CATALOG_SEARCH_DEFAULTS, withCatalog } from './query.ts';

/** The remembered settings of the signed-in user, read once when the page opens. */
export function useCardListPrefs(transform: Transform) {
  const loginName = useSession((s) => s.loginName);
  const [prefs, setPrefs] = useState<CardListPrefs>(() => loadCardListPrefs(loginName));
  // the page opens with the last search already applied (no unfiltered first query)
  const [initial] = useState(() => {
    const values = { ...CATALOG_SEARCH_DEFAULTS, ...restoreSearch(prefs.search) };
    return { values, filters: cleanFilters(transform(values)) };
  });
  const save = (patch: Partial<CardListPrefs>) => setPrefs(saveCardListPrefs(loginName, patch));
  return {
    prefs,
    pageSize: prefs.pageSize ?? 20,
    initialValues: initial.values,
    initialFilters: initial.filters,
    rememberSearch: (values: Record<string, unknown>) => save({ search: serializeSearch(values) }),
    /** Reset: forget the remembered search and empty the form (not back to the remembered values). */
    reset: (table: SearchTableHandle, defaults: Record<string, unknown> = {}) => {
      save({ search: {} });
      table.reset();
      const f = table.form;
      f.setFieldsValue(Object.fromEntries(Object.keys(f.getFieldsValue(true)).map((k) => [k, undefined])));
      f.setFieldsValue({ ...CATALOG_SEARCH_DEFAULTS, ...defaults });
    },
    save,
    /** the columns the user has not hidden */
    visible: <T,>(columns: ColumnsType<T>) => columns.filter((c) => !prefs.hidden.includes(keyOf(c as { key?: unknown; dataIndex?: unknown }))),
  };
}
export type CardListPrefsHandle = ReturnType<typeof useCardListPrefs>;

const keyOf = (c: { key?: unknown; dataIndex?: unknown }) => String(c.dataIndex || c.key || '');

/** The "list settings" button: columns shown, and it remembers the rows per page as the user changes them. */
export function CardListSettings<T>({ prefs, table, columns }: { prefs: CardListPrefsHandle; table: SearchTableHandle; columns: ColumnsType<T> }) {
  const { t } = useTranslation();
  const C = (k: string) => t(`cardcat.cardList.${k}`);
  const pageSize = table.state.pageSize;
  useEffect(() => {
    if (pageSize !== (prefs.prefs.pageSize ?? 20)) prefs.save({ pageSize });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a page size change is remembered here
  }, [pageSize]);
  const all = columns.map((c) => ({ key: keyOf(c as { key?: unknown; dataIndex?: unknown }), title: c.title as string })).filter((c) => c.key);
  const shown = all.filter((c) => !prefs.prefs.hidden.includes(c.key)).map((c) => c.key);
  const content = (
    <div style={{ maxWidth: 320 }}>
      <Typography.Text strong>{C('columns')}</Typography.Text>
      <Checkbox.Group
        style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 4, marginTop: 8 }}
        value={shown}
        onChange={(keys) => prefs.save({ hidden: all.map((c) => c.key).filter((k) => k !== ALWAYS_SHOWN && !keys.includes(k)) })}
        options={all.map((c) => ({ value: c.key, label: c.title, disabled: c.key === ALWAYS_SHOWN }))}
      />
      <Divider style={{ margin: '12px 0' }} />
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>{C('rememberHint')}</Typography.Paragraph>
      <Button size="small" onClick={() => prefs.save({ hidden: [], pageSize: null })}>{C('restore')}</Button>
    </div>
  );
  return (
    <Popover content={content} title={C('settings')} trigger="click" placement="bottomRight">
      <Tooltip title={C('settings')}><Button icon={<SettingOutlined />} aria-label={C('settings')} data-testid="card-list-settings" /></Tooltip>
    </Popover>
  );
}

/** The catalogue search items as fields of the card list's search form (all under "more filters"). */
export function useCatalogFields(): SearchField[] {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const labels = useLabelOptions();
  const types = useCardTypeOptions();
  const C = (k: string) => t(`cardcat.cardList.${k}`);
  const matchOptions = useMemo(() => ['exact', 'prefix', 'contains'].map((m) => ({ value: m, label: C(`match${m[0].toUpperCase()}${m.slice(1)}`) })), [lang]); // eslint-disable-line react-hooks/exhaustive-deps
  const custom = (field: 'custom1' | 'custom2'): SearchField => ({
    name: field, label: C(field), type: 'item',
    item: (
      <Form.Item label={C(field)} tooltip={C('matchHint')}>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item name={`${field}Match`} noStyle>
            <Select style={{ width: 96 }} popupMatchSelectWidth={false} options={matchOptions} aria-label={`${C(field)} ${C('matchExact')}`} />
          </Form.Item>
          <Form.Item name={field} noStyle rules={[{ max: 64 }]}>
            <Input allowClear maxLength={64} placeholder={C(field)} />
          </Form.Item>
        </Space.Compact>
      </Form.Item>
    ),
  });
  return [
    {
      name: 'labelIds', label: C('label'), type: 'item',
      item: (
        <Form.Item label={C('label')}>
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="labelMatch" noStyle>
              <Select style={{ width: 80 }} popupMatchSelectWidth={false} aria-label={C('labelMatch')}
                options={[{ value: 'any', label: C('labelAny') }, { value: 'all', label: C('labelAll') }]} />
            </Form.Item>
            <Form.Item name="labelIds" noStyle>
              <Select mode="multiple" allowClear maxTagCount="responsive" placeholder={t('common.all')} loading={labels.isFetching}
                optionFilterProp="name" options={labelSelectOptions(labels.data)} maxCount={20} data-testid="card-search-labels" />
            </Form.Item>
          </Space.Compact>
        </Form.Item>
      ),
    },
    {
      name: 'cardTypeId', label: C('cardType'), type: 'custom',
      control: (
        <Select allowClear showSearch optionFilterProp="label" placeholder={t('common.all')} loading={types.isFetching}
          options={(types.data ?? []).map((c) => ({ value: c.cardTypeId, label: cardTypeName(c, lang) ?? '' }))} />
      ),
    },
    { name: 'firstUsed', label: withZoneLabel(C('firstUsedRange')), type: 'custom', control: <DatePicker.RangePicker style={{ width: '100%' }} /> },
    custom('custom1'),
    custom('custom2'),
  ];
}

/** The label and card type columns (names in the reader's language). */
export function useCatalogColumns<T extends { labels: { labelId: number; name: string; colour: string }[]; cardTypeNameZh: string | null; cardTypeNameEn: string | null }>(): ColumnsType<T> {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const C = (k: string) => t(`cardcat.cardList.${k}`);
  return [
    { title: C('labels'), dataIndex: 'labels', width: 200, render: (v: T['labels']) => <LabelTags labels={v} /> },
    {
      title: C('cardType'), dataIndex: 'cardTypeId', width: 160,
      render: (_: unknown, r: T) => (lang === 'zh' ? r.cardTypeNameZh : r.cardTypeNameEn) ?? '-',
    },
  ];
}
