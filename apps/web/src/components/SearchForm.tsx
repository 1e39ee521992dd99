import { useContext, useEffect, useState, type ReactNode } from 'react';
import { Button, Col, DatePicker, Form, Input, InputNumber, Row, Select, Space } from 'antd';
import type { FormInstance } from 'antd';
import { DownOutlined, SearchOutlined, UpOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { withZoneLabel, type EnumHelpers } from '@lynx/contract';
import { useSession } from '../stores/session.ts';
import { PageKeyContext } from '../layout/pageTitle.ts';
import { loadMoreFilters, saveMoreFilters } from './searchFormPrefs.ts';

interface FieldBase {
  name: string;
  label: string;
  /** shown while the extra filters are folded away (when no field of a form is primary, the first ones that fit one row are) */
  primary?: boolean;
  /** the form values this filter sets, when not just `name` (e.g. both ends of a range); they make it count as active */
  names?: string[];
}

export type SearchField = FieldBase & (
  | { type?: 'text'; placeholder?: string }
  | { type: 'number' }
  | { type: 'select'; options: { value: string | number; label: string }[] }
  | { type: 'enum'; enumOf: EnumHelpers<number> }
  | { type: 'dateRange' }
  /** any form control (e.g. the customer picker that searches the server) */
  | { type: 'custom'; control: ReactNode }
  /** a whole form item, label included (e.g. a match mode and a value side by side) */
  | { type: 'item'; item: ReactNode }
);

/** Fields beside the Search/Reset buttons in one row at 1440 px (four columns of six at ≥1200 px). */
export const FIELDS_PER_ROW = 3;

/** Which fields stay on screen while the rest are folded away; null when the form fits one row as it is. */
export function primaryFields(fields: SearchField[]): Set<string> | null {
  const marked = fields.filter((f) => f.primary);
  const shown = marked.length ? marked : fields.slice(0, FIELDS_PER_ROW);
  return shown.length === fields.length ? null : new Set(shown.map((f) => f.name));
}

const hasValue = (v: unknown) => {
  const s = typeof v === 'string' ? v.trim() : v;
  return !(s === undefined || s === null || s === '' || (Array.isArray(s) && !s.some((x) => x !== undefined && x !== null && x !== '')));
};

/** How many of the folded-away filters have a value. */
export function activeCount(fields: SearchField[], shown: Set<string>, values: Record<string, unknown>): number {
  return fields.filter((f) => !shown.has(f.name) && (f.names ?? [f.name]).some((n) => hasValue(values[n]))).length;
}

export interface SearchFormProps {
  form: FormInstance;
  fields: SearchField[];
  onFinish(values: Record<string, any>): void;
  onReset(): void;
  initialValues?: Record<string, unknown>;
  /** the list the open/closed state of "more filters" is remembered for; defaults to the page's path */
  listKey?: string;
  /** the open/closed state kept by the page itself (e.g. in the card list's settings) instead of by listKey */
  moreFilters?: { open: boolean; onChange(open: boolean): void };
  testId?: string;
}

/** The open/closed state of a list's extra filters, remembered per login name and per list. */
function useMoreFiltersOpen(listKey: string | undefined, own: SearchFormProps['moreFilters']) {
  const loginName = useSession((s) => s.loginName);
  const pageKey = useContext(PageKeyContext);
  const { pathname } = useLocation();
  // a cached page's location follows the screen: take the key once, when the page opens
  const [key] = useState(() => listKey ?? pageKey ?? pathname);
  const [open, setOpen] = useState(() => (own ? own.open : loadMoreFilters(loginName, key)));
  const change = (next: boolean) => {
    setOpen(next);
    if (own) own.onChange(next);
    else saveMoreFilters(loginName, key, next);
  };
  return [own ? own.open : open, change] as const;
}

/**
 * A list's search form: one row of the most used filters with Search/Reset, the rest behind "More filters"
 * (which counts the folded-away filters that have a value, so none is in force unseen).
 */
export function SearchForm({ form, fields, onFinish, onReset, initialValues, listKey, moreFilters, testId }: SearchFormProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const shown = primaryFields(fields);
  const [open, setOpen] = useMoreFiltersOpen(listKey, moreFilters);
  const hidden = shown && !open ? shown : null;
  const active = Form.useWatch((values: Record<string, unknown>) => (shown ? activeCount(fields, shown, values ?? {}) : 0), form);
  // the folded-away fields mount once the list has drawn (a dozen selects and pickers cost ~40 ms before the first
  // rows from the menu, ~100 ms on a deep link: docs/performance.md), or at once when the user opens them
  const [late, setLate] = useState(Boolean(hidden));
  useEffect(() => {
    if (!late) return;
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(() => setLate(false), { timeout: 300 });
      return () => cancelIdleCallback(id);
    }
    const id = setTimeout(() => setLate(false), 50);
    return () => clearTimeout(id);
  }, [late]);
  const unmounted = late && hidden ? hidden : null;

  const control = (f: SearchField) => {
    switch (f.type) {
      case 'number':
        return <InputNumber style={{ width: '100%' }} placeholder={f.label} />;
      case 'select':
        return <Select allowClear options={f.options} placeholder={t('common.all')} />;
      case 'enum':
        return <Select allowClear options={f.enumOf.options(lang)} placeholder={t('common.all')} />;
      case 'dateRange':
        return <DatePicker.RangePicker showTime style={{ width: '100%' }} />;
      case 'custom':
        return f.control;
      default:
        return <Input allowClear placeholder={'placeholder' in f && f.placeholder ? f.placeholder : f.label} />;
    }
  };
  // a folded-away filter that fails its rule opens them, so its message can be read
  const onFinishFailed = ({ errorFields }: { errorFields: { name: (string | number)[] }[] }) => {
    if (!hidden) return;
    const names = new Set(fields.filter((f) => !hidden.has(f.name)).flatMap((f) => f.names ?? [f.name]));
    if (errorFields.some((e) => names.has(String(e.name[0])))) setOpen(true);
  };

  return (
    <Form form={form} layout="vertical" initialValues={initialValues} data-testid={testId} onFinishFailed={onFinishFailed}
      // until the folded-away fields mount, their values (initial or remembered) are read from the form's store
      onFinish={(values) => onFinish(unmounted ? { ...form.getFieldsValue(true), ...values } : values)}>
      <Row gutter={16} align="bottom">
        {fields.map((f) => (unmounted && !unmounted.has(f.name) ? null : (
          // once mounted, folded-away filters stay mounted: their values and rules still apply, and the count reads them
          <Col key={f.name} xs={24} sm={12} md={8} xl={6} style={hidden && !hidden.has(f.name) ? { display: 'none' } : undefined}>
            {f.type === 'item' ? f.item : <Form.Item name={f.name} label={f.type === 'dateRange' ? withZoneLabel(f.label) : f.label}>{control(f)}</Form.Item>}
          </Col>
        )))}
        {/* the buttons keep to the fields' row while about 280 px are left there (three fields at 1440 px), else start the next */}
        <Col flex="1 1 280px">
          <Form.Item>
            <Space wrap size="small">
              <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>{t('common.search')}</Button>
              <Button onClick={onReset}>{t('common.reset')}</Button>
              {shown && (
                <Button type="link" onClick={() => { setLate(false); setOpen(!open); }} aria-expanded={open} data-testid="search-more"
                  icon={open ? <UpOutlined /> : <DownOutlined />} iconPlacement="end" style={{ paddingInline: 0 }}>
                  {!open && active ? t('common.moreFiltersActive', { count: active }) : t('common.moreFilters')}
                </Button>
              )}
            </Space>
          </Form.Item>
        </Col>
      </Row>
    </Form>
  );
}
