import { useCallback, useState } from 'react';
import { Form } from 'antd';
import type { FormInstance } from 'antd';
import type { TablePaginationConfig } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Endpoint, BodyOf, ResponseOf } from '@lynx/contract';
import { call } from '../request/http.ts';
import { cleanFilters } from './filters.ts';

export interface SearchTableState {
  current: number;
  pageSize: number;
  sortField?: string;
  sortOrder?: 'ascend' | 'descend';
  filters: Record<string, unknown>;
}

/** What SearchTable needs from the hook, independent of the row type. */
export interface SearchTableHandle {
  form: FormInstance;
  state: SearchTableState;
  body: Record<string, unknown>;
  query: { isFetching: boolean };
  list: unknown[];
  total: number;
  /** the server counted only up to `total` (a list of millions, e.g. the card list): there are more */
  totalCapped?: boolean;
  search(values: Record<string, any>): void;
  reset(): void;
  refresh(): unknown;
  onChange(...args: any[]): void;
}

type PageOf<E extends Endpoint> = ResponseOf<E> extends { list: (infer R)[] } ? R : never;

export { cleanFilters } from './filters.ts';

/**
 * Paging, sorting and filters of a list page in one hook (refine's useTable idea): the search form, the
 * table and the query share one state.
 */
export function useSearchTable<E extends Endpoint>(
  endpoint: E,
  opts: {
    pageSize?: number; fixed?: Record<string, unknown>;
    /** filters sent while the search form does not set them (e.g. the batch types of a screen, narrowed by its type filter) */
    defaults?: Record<string, unknown>;
    transform?: (values: Record<string, any>) => Record<string, unknown>;
    refetchInterval?: (data: ResponseOf<E> | undefined) => number | false;
    /** filters applied from the first query (a remembered search); the form shows them through its initialValues */
    initialFilters?: Record<string, unknown>;
  } = {},
) {
  const [form] = Form.useForm();
  const transform = opts.transform;
  const [state, setState] = useState<SearchTableState>({ current: 1, pageSize: opts.pageSize ?? 20, filters: opts.initialFilters ?? {} });
  const body = { ...opts.defaults, ...state.filters, ...opts.fixed, current: state.current, pageSize: state.pageSize, ...(state.sortField && { sortField: state.sortField, sortOrder: state.sortOrder }) };
  const query = useQuery({
    queryKey: [endpoint.name, body],
    queryFn: ({ signal }) => call(endpoint, body as BodyOf<E>, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: opts.refetchInterval ? (q) => opts.refetchInterval!(q.state.data as ResponseOf<E> | undefined) : undefined,
  });
  const page = query.data as unknown as { list: PageOf<E>[]; total: number; totalCapped?: boolean } | null | undefined;

  const search = useCallback(
    (values: Record<string, any>) => {
      const filters = cleanFilters(transform ? transform(values) : values);
      setState((s) => ({ ...s, current: 1, filters }));
    },
    [transform],
  );
  const reset = useCallback(() => {
    form.resetFields();
    setState((s) => ({ ...s, current: 1, filters: {} }));
  }, [form]);

  const onChange = (p: TablePaginationConfig, _f: unknown, sorter: SorterResult<PageOf<E>> | SorterResult<PageOf<E>>[]) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    setState((prev) => ({
      ...prev,
      current: p.pageSize !== prev.pageSize ? 1 : (p.current ?? 1),
      pageSize: p.pageSize ?? prev.pageSize,
      sortField: s?.order ? String(s.field) : undefined,
      sortOrder: s?.order ?? undefined,
    }));
  };

  return {
    form,
    state,
    body,
    query,
    list: page?.list ?? [],
    total: page?.total ?? 0,
    totalCapped: page?.totalCapped === true,
    search,
    reset,
    refresh: () => query.refetch(),
    onChange,
  };
}
