import { Link } from 'react-router';
import { formatDateTime, Operator, StockBalanceType, StockMatchState, StockOutState, stock, type Lang, type ResponseOf } from '@lynx/contract';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { StatusTag } from '../../../components/StatusTag.tsx';

export type StockRow = ResponseOf<typeof stock.getStockPage>['list'][number];

export const MATCH_COLORS: Record<number, string> = {
  [StockMatchState.NotMatched]: 'default', [StockMatchState.Matching]: 'processing', [StockMatchState.Matched]: 'success', [StockMatchState.Scrapped]: 'error',
};
export const OUT_COLORS: Record<number, string> = {
  [StockOutState.NotOut]: 'default', [StockOutState.Outgoing]: 'processing', [StockOutState.Out]: 'success', [StockOutState.Scrapped]: 'error',
};

export const detailPath = (iccid: string) => `/stock/stocklist/detail/${encodeURIComponent(iccid)}`;
export const doublePath = (sn: string) => `/stock/stocklist/doublecard-detail/${encodeURIComponent(sn)}`;

/** The columns of a stock item, shared by the list and the dual / super SIM screen. */
export function stockColumns(t: TFunction, lang: Lang): ColumnsType<StockRow> {
  const T = (k: string) => t(`stock.${k}`);
  return [
    { title: T('iccid'), dataIndex: 'iccid', key: 'iccid', fixed: 'left', width: 200, render: (v: string) => <Link to={detailPath(v)} data-testid="stock-detail-link">{v}</Link> },
    { title: T('imsi'), dataIndex: 'imsi', key: 'imsi', width: 160, render: (v: string | null) => v ?? '-' },
    { title: T('msisdn'), dataIndex: 'msisdn', key: 'msisdn', width: 150, render: (v: string | null) => v ?? '-' },
    { title: T('sn'), dataIndex: 'sn', key: 'sn', width: 160, render: (v: string | null) => (v ? <Link to={doublePath(v)}>{v}</Link> : '-') },
    { title: T('operator'), dataIndex: 'operatorId', key: 'operatorId', width: 110, render: (v: number) => Operator.label(v, lang) },
    { title: T('location'), dataIndex: 'location', key: 'location', width: 100, render: (v: string) => v || '-' },
    { title: T('matchState'), dataIndex: 'matchState', key: 'matchState', width: 110, render: (v: number) => <StatusTag enumOf={StockMatchState} value={v} colors={MATCH_COLORS} /> },
    { title: T('outState'), dataIndex: 'outState', key: 'outState', width: 110, render: (v: number) => <StatusTag enumOf={StockOutState} value={v} colors={OUT_COLORS} /> },
    { title: T('balanceType'), dataIndex: 'balanceType', key: 'balanceType', width: 110, render: (v: number) => StockBalanceType.label(v, lang) },
    { title: T('remark'), dataIndex: 'remark', key: 'remark', width: 140, render: (v: string) => v || '-' },
    { title: T('receivedAt'), dataIndex: 'receivedAt', key: 'receivedAt', width: 170, render: (v: string) => formatDateTime(v) },
  ];
}
