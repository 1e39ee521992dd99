import { useEffect, useState, type ReactNode } from 'react';
import { Empty, Select, Space, Tag, Typography } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { account, CustomerLevel, STAFF_ROLE_TYPES } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { useSession } from '../../../../stores/session.ts';

export const useIsStaff = () => useSession((s) => s.roleId !== null && STAFF_ROLE_TYPES.includes(s.roleId));

/** Searchable customer select (staff only), by name through the customer list endpoint. */
function CustomerSelect({ value, onChange }: { value: number | undefined; onChange: (custId: number | undefined) => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  // the chosen customer keeps its label while a later search shows other customers
  const [chosen, setChosen] = useState<{ value: number; label: string } | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), 300);
    return () => clearTimeout(timer);
  }, [typed]);
  const body = { current: 1, pageSize: 50, ...(search && { custName: search }) };
  const list = useQuery({
    queryKey: [account.getCustomerListPage.name, body],
    queryFn: ({ signal }) => call(account.getCustomerListPage, body, { signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: setTyped }}
      allowClear
      value={value}
      placeholder={t('doc.api.customerSearch')}
      loading={list.isFetching}
      style={{ width: 360, maxWidth: '100%' }}
      notFoundContent={list.isFetching ? undefined : t('common.empty')}
      onChange={(v: number | undefined) => {
        const c = list.data?.list.find((x) => x.custId === v);
        setChosen(c ? { value: c.custId, label: c.custName } : null);
        onChange(v);
      }}
      options={[
        ...(chosen && chosen.value === value && !list.data?.list.some((c) => c.custId === value) ? [chosen] : []),
        ...(list.data?.list ?? []).map((c) => ({
          value: c.custId,
          label: (
            <Space size={6}>
              <span>{c.custName}</span>
              <Tag color={c.level === CustomerLevel.First ? 'blue' : 'default'} style={{ marginInlineEnd: 0 }}>{CustomerLevel.label(c.level, lang)}</Tag>
              {c.parentCustName && <Typography.Text type="secondary">{c.parentCustName}</Typography.Text>}
            </Space>
          ),
        })),
      ]}
      data-testid="api-customer-select"
    />
  );
}

/**
 * Staff act for a customer they choose (the same choice for the key and the whitelist tabs); customers act
 * for themselves, so their calls carry no custId and the server takes it from the session.
 */
export function CustomerScope({ custId, onChange, children }: { custId: number | undefined; onChange: (custId: number | undefined) => void; children: (custId: number | undefined) => ReactNode }) {
  const { t } = useTranslation();
  const staff = useIsStaff();
  if (!staff) return <>{children(undefined)}</>;
  return (
    <>
      <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 12, marginBottom: 16 }}>
        <Typography.Text strong>{t('doc.api.customer')}</Typography.Text>
        <CustomerSelect value={custId} onChange={onChange} />
      </div>
      {custId === undefined ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={<>{t('doc.api.chooseCustomer')}<br /><Typography.Text type="secondary">{t('doc.api.chooseCustomerHint')}</Typography.Text></>}
        />
      ) : (
        children(custId)
      )}
    </>
  );
}
