import { Form, Input, Select, Space, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { search } from '@lynx/contract';
import type { SearchField } from '../../../../components/SearchForm.tsx';
import type { SearchTableHandle } from '../../../../components/useSearchTable.ts';
import { NUMBER_MATCH_DEFAULTS } from './query.ts';

export { NUMBER_MATCH_DEFAULTS, numberMatchFilters } from './query.ts';

/*
 * A number filter of the card list (ICCID, MSISDN, IMSI) with its match mode beside it: exact, prefix or contains
 * (issue 12: at least 6 digits anywhere, e.g. the last digits printed on the SIM). The box's placeholder says what the
 * chosen mode expects, and "contains" with fewer than 6 digits is refused in the form with the server's rule.
 */

export type NumberField = 'iccid' | 'msisdn' | 'imsi';
/** The ICCID has an "auto" mode (under 19 digits a prefix, 19-20 digits exact); MSISDN and IMSI are exact unless told. */
export const NUMBER_MODES: Record<NumberField, readonly string[]> = {
  iccid: ['auto', 'exact', 'prefix', 'contains'],
  msisdn: ['exact', 'prefix', 'contains'],
  imsi: ['exact', 'prefix', 'contains'],
};
const MAX: Record<NumberField, number> = { iccid: 20, msisdn: 15, imsi: 15 };


function NumberMatchItem({ field }: { field: NumberField }) {
  const { t } = useTranslation();
  const L = (k: string, o?: Record<string, unknown>) => t(`carddata.list.${k}`, o);
  const form = Form.useFormInstance();
  const mode = (Form.useWatch(`${field}Match`, form) as string | undefined) ?? NUMBER_MATCH_DEFAULTS[`${field}Match`];
  const min = search.CARD_FRAGMENT_MIN;
  const rules: Rule[] = [
    { pattern: new RegExp(`^\\d{1,${MAX[field]}}$`), message: L('digitsOnly') },
    ({ getFieldValue }) => ({
      validator: (_, v: string | undefined) =>
        getFieldValue(`${field}Match`) === 'contains' && v && v.length < min ? Promise.reject(new Error(L('containsMin', { min }))) : Promise.resolve(),
    }),
  ];
  const placeholder = mode === 'contains' ? L('containsPlaceholder', { min }) : mode === 'prefix' ? L('prefixPlaceholder') : L(field);
  return (
    <Form.Item label={L(field)} tooltip={L(field === 'iccid' ? 'matchHint' : 'numberMatchHint', { min })}>
      <Space.Compact style={{ width: '100%' }}>
        <Form.Item name={`${field}Match`} noStyle>
          <Select
            style={{ width: 104, flexShrink: 0 }} popupMatchSelectWidth={false} aria-label={`${L(field)} ${L('iccidMatch')}`} data-testid={`card-search-${field}-match`}
            options={NUMBER_MODES[field].map((m) => ({ value: m, label: L(`match${m[0].toUpperCase()}${m.slice(1)}`) }))}
            onChange={() => void form.validateFields([field]).catch(() => undefined)}
          />
        </Form.Item>
        <Form.Item name={field} noStyle rules={rules} dependencies={[`${field}Match`]}>
          <Input allowClear placeholder={placeholder} maxLength={MAX[field]} data-testid={`card-search-${field}`} />
        </Form.Item>
      </Space.Compact>
    </Form.Item>
  );
}

/** The search form field of a number with its match mode. */
export const numberField = (field: NumberField, label: string, primary = false): SearchField => ({
  name: field, label, type: 'item', primary, item: <NumberMatchItem field={field} />,
});

/**
 * The empty list's hint after a number search by its beginning (auto or prefix) of at least 6 digits: the digits may
 * be the end of the number (printed last on a SIM), so it offers the same search with "contains".
 */
export function ContainsHint({ table, fallback }: { table: SearchTableHandle; fallback: string }) {
  const { t } = useTranslation();
  const f = table.state.filters as Record<string, string | undefined>;
  const field = (['iccid', 'msisdn', 'imsi'] as const).find((k) => {
    const v = f[k];
    const mode = f[`${k}Match`];
    return v && v.length >= search.CARD_FRAGMENT_MIN && (mode === 'prefix' || (k === 'iccid' && !mode && v.length < 19));
  });
  if (!field) return <>{fallback}</>;
  const retry = () => {
    table.form.setFieldsValue({ [`${field}Match`]: 'contains' });
    table.form.submit();
  };
  return (
    <>
      {t('carddata.list.noneStartWith', { field: t(`carddata.list.${field}`), digits: f[field] })}{' '}
      <Typography.Link onClick={retry} data-testid="card-search-try-contains">{t('carddata.list.tryContains')}</Typography.Link>
    </>
  );
}
