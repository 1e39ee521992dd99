import { useEffect, useMemo, useRef, useState } from 'react';
import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { account, CustomerLevel } from '@lynx/contract';
import { call } from '../../../request/http.ts';

const PICKER_SIZE = 100;

/**
 * Picks a customer the signed-in user may see (the server scopes the list to the tenant): staff see every
 * customer, a channel customer its own tree. Typing searches the server by name; names already seen stay
 * known, so the chosen customer keeps its label while another search runs.
 */
export function CustomerSelect({ value, onChange, level, placeholder, allowClear, disabled, initialLabel, id }: {
  value?: number | null;
  onChange?: (v: number | undefined) => void;
  level?: number;
  placeholder?: string;
  allowClear?: boolean;
  disabled?: boolean;
  /** the name of the preset value, when it is known before the list loads */
  initialLabel?: string | null;
  id?: string;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setKeyword(typed.trim()), 300);
    return () => clearTimeout(timer);
  }, [typed]);
  const body = { current: 1, pageSize: PICKER_SIZE, ...(level !== undefined && { level }), ...(keyword && { custName: keyword }) };
  const query = useQuery({
    queryKey: [account.getCustomerListPage.name, body],
    queryFn: ({ signal }) => call(account.getCustomerListPage, body, { signal, silent: true }),
  });
  const known = useRef(new Map<number, { name: string; level: number }>());
  const list = query.data?.list;
  const options = useMemo(() => {
    for (const c of list ?? []) known.current.set(c.custId, { name: c.custName, level: c.level });
    const label = (name: string, lv: number) => (level === undefined ? `${name} · ${CustomerLevel.label(lv, lang)}` : name);
    const opts = (list ?? []).map((c) => ({ value: c.custId, label: label(c.custName, c.level) }));
    if (value != null && !opts.some((o) => o.value === value)) {
      const seen = known.current.get(value);
      opts.unshift({ value, label: seen ? label(seen.name, seen.level) : (initialLabel ?? `#${value}`) });
    }
    return opts;
  }, [list, value, level, lang, initialLabel]);
  return (
    <Select<number>
      id={id}
      showSearch={{ filterOption: false, onSearch: setTyped }}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? undefined)}
      onOpenChange={(open) => !open && setTyped('')}
      options={options}
      loading={query.isFetching}
      placeholder={placeholder ?? t('home.customer.pickCustomer')}
      allowClear={allowClear}
      disabled={disabled}
      notFoundContent={query.isFetching ? t('common.loading') : t('home.customer.noCustomerFound')}
      style={{ width: '100%' }}
    />
  );
}
