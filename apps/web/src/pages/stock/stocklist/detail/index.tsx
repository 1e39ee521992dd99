import { Result, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { CardState, formatDateTime, Operator, StockBalanceType, StockChangeKind, StockMatchState, StockOutState, stock, type Lang, type ResponseOf } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { DetailPage } from '../../../../components/DetailPage.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { MATCH_COLORS, OUT_COLORS, doublePath } from '../shared.tsx';

type Change = ResponseOf<typeof stock.getStockChangePage>['list'][number];

/** A change's fields as people read them ("Match state: Matched; Remark: 首批"). */
function describe(v: Record<string, unknown> | null, T: (k: string) => string, lang: Lang): string {
  if (!v) return '-';
  const label: Record<string, (x: unknown) => string> = {
    matchState: (x) => StockMatchState.label(Number(x), lang), outState: (x) => StockOutState.label(Number(x), lang),
    balanceType: (x) => StockBalanceType.label(Number(x), lang),
  };
  const parts = Object.entries(v).filter(([k]) => k !== 'custId').map(([k, x]) => `${T(k)}: ${label[k] ? label[k](x) : x === '' ? '-' : String(x)}`);
  return parts.length ? parts.join('; ') : '-';
}

/** /stock/stocklist/detail/:iccid?: one stock item, its platform card (once matched) and its change list. */
export default function StockDetail() {
  const { t, i18n } = useTranslation();
  const lang = (i18n.language === 'zh' ? 'zh' : 'en') as Lang;
  const T = (k: string, o?: Record<string, unknown>) => t(`stock.${k}`, o);
  const { iccid = '' } = useParams();
  const detail = useQuery({
    queryKey: [stock.getStockDetail.name, iccid],
    queryFn: ({ signal }) => call(stock.getStockDetail, { iccid }, { signal, silent: true }),
    enabled: !!iccid, retry: false,
  });
  const changes = useQuery({
    queryKey: [stock.getStockChangePage.name, iccid],
    queryFn: ({ signal }) => call(stock.getStockChangePage, { iccid, pageSize: 100 }, { signal }),
    enabled: !!iccid && !!detail.data,
  });
  if (!iccid) return <div className="lx-card"><Result status="info" subTitle={T('noParam')} /></div>;
  const d = detail.data;
  const i = d?.item;
  return (
    <DetailPage
      loading={detail.isLoading} error={detail.error} title={T('detailTitle')}
      items={i ? [
        { label: T('iccid'), value: <span data-testid="stock-detail-iccid">{i.iccid}</span> },
        { label: T('imsi'), value: i.imsi },
        { label: T('msisdn'), value: i.msisdn },
        { label: T('sn'), value: i.sn ? <Link to={doublePath(i.sn)}>{i.sn}</Link> : null },
        { label: T('operator'), value: Operator.label(i.operatorId, lang) },
        { label: T('location'), value: i.location || null },
        { label: T('matchState'), value: <span data-testid="stock-detail-match"><StatusTag enumOf={StockMatchState} value={i.matchState} colors={MATCH_COLORS} /></span> },
        { label: T('outState'), value: <span data-testid="stock-detail-out"><StatusTag enumOf={StockOutState} value={i.outState} colors={OUT_COLORS} /></span> },
        { label: T('balanceType'), value: StockBalanceType.label(i.balanceType, lang) },
        { label: T('remark'), value: i.remark || null },
        { label: T('receivedAt'), value: formatDateTime(i.receivedAt) },
        { label: T('matchedAt'), value: i.matchedAt ? formatDateTime(i.matchedAt) : null },
        { label: T('outAt'), value: i.outAt ? formatDateTime(i.outAt) : null },
        { label: T('card'), value: d!.card ? CardState.label(d!.card.state, lang) : T('noCard') },
        { label: T('customer'), value: d!.card ? (d!.card.custName ?? T('platformStock')) : null },
      ] : []}
    >
      <div className="lx-card">
        <Typography.Title level={5} style={{ marginTop: 0 }}>{T('changes')}</Typography.Title>
        <Table<Change>
          rowKey="changeId" size="small" loading={changes.isFetching} dataSource={changes.data?.list ?? []} pagination={false} data-testid="stock-changes"
          scroll={{ x: 'max-content' }}
          columns={[
            { title: T('changeAt'), dataIndex: 'at', width: 170, render: (v: string) => formatDateTime(v) },
            { title: T('changeKind'), dataIndex: 'kind', width: 140, render: (v: number) => StockChangeKind.label(v, lang) },
            { title: T('changeBy'), dataIndex: 'loginName', width: 110 },
            { title: T('changeBefore'), dataIndex: 'before', render: (v: Change['before']) => describe(v, T, lang) },
            { title: T('changeAfter'), dataIndex: 'after', render: (v: Change['after']) => describe(v, T, lang) },
            {
              title: T('changeBatch'), dataIndex: 'batchId', width: 120,
              render: (v: string | null) => (v ? <Link to={`/stock/operationList/detail/${v}`}>{v.slice(0, 8)}</Link> : '-'),
            },
          ]}
        />
      </div>
    </DetailPage>
  );
}
