import { useEffect, useState } from 'react';
import { Typography } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { formatMoney, retail, type ResponseOf } from '@lynx/contract';
import { call } from '../../../../request/http.ts';

export type RetailRow = ResponseOf<typeof retail.getRetailListPage>['list'][number];
export type RetailDetail = ResponseOf<typeof retail.getRetailDetail>;

export const RETAIL_PERM_EDIT = 4010005;
export const RETAIL_PERM_EXPORT = retail.RETAIL_EXPORT;
export const RETAIL_LIST_PATH = '/billing/package/list/retail';

export const RETAIL_STATUS_COLORS: Record<number, string> = { [retail.RetailStatus.OnSale]: 'green', [retail.RetailStatus.OffSale]: 'default' };

export const retailPaths = {
  add: () => '/billing/package/addretail',
  edit: (id: number) => `/billing/package/editretail/${id}`,
  copy: (id: number) => `/billing/package/copyretail/${id}/1`,
  detail: (r: { retailId: number; tariffType: number }) => `/billing/package/retaildetail/${r.retailId}/${r.tariffType}`,
  record: (id: number) => `/billing/package/retailrecord/${id}`,
  basicDetail: (r: { goodsReleaseId: number; tariffType: number }) => `/billing/package/basicdetail/${r.goodsReleaseId}/${r.tariffType}`,
};

/** A price struck through, as end users see it next to the retail price. */
export function CrossedPrice({ value }: { value: string | null | undefined }) {
  if (value === null || value === undefined) return <>-</>;
  return <Typography.Text delete type="secondary">{formatMoney(value)}</Typography.Text>;
}

/** A percentage without trailing zeros ('15.5'); `withSign` adds the % where the label carries no unit. */
export const percent = (v: number | null | undefined, withSign = false) =>
  v === null || v === undefined ? '-' : `${Number(v).toFixed(2).replace(/\.?0+$/, '')}${withSign ? '%' : ''}`;

/** Customers the caller may pick (its own tenant, at most 200), found by part of the name. */
export function useRetailCustomers(custName = '') {
  const keyword = custName.trim();
  return useQuery({
    queryKey: [retail.getRetailCustomerOptions.name, { custName: keyword }],
    queryFn: ({ signal }) => call(retail.getRetailCustomerOptions, keyword ? { custName: keyword } : {}, { signal, silent: true }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/** A typed search term, settled after a short pause so each keystroke does not query the server. */
export function useDebounced(value: string, ms = 300): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** Published main plans or event packs, released to the customer when one is given. */
export function useRetailBasics(kind: 'main' | 'event', custId?: number, enabled = true) {
  return useQuery({
    queryKey: [retail.getRetailBasicOptions.name, { kind, custId }],
    queryFn: ({ signal }) => call(retail.getRetailBasicOptions, { kind, ...(custId ? { custId } : {}) }, { signal, silent: true }),
    enabled,
    staleTime: 30_000,
  });
}
