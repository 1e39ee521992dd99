import { Result, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { stock, type Lang } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { stockColumns, type StockRow } from '../shared.tsx';

/** /stock/stocklist/doublecard-detail/:sn?: the stock items of one dual / super SIM (every item sharing its SN). */
export default function StockDoubleCard() {
  const { t, i18n } = useTranslation();
  const lang = (i18n.language === 'zh' ? 'zh' : 'en') as Lang;
  const T = (k: string, o?: Record<string, unknown>) => t(`stock.${k}`, o);
  const { sn = '' } = useParams();
  const q = useQuery({
    queryKey: [stock.getStockDoubleCard.name, sn],
    queryFn: ({ signal }) => call(stock.getStockDoubleCard, { sn }, { signal, silent: true }),
    enabled: !!sn, retry: false,
  });
  if (!sn) return <div className="lx-card"><Result status="info" subTitle={T('noParam')} /></div>;
  if (q.error) return <div className="lx-card"><Result status="404" subTitle={t('common.notFound')} /></div>;
  return (
    <div className="lx-card">
      <Typography.Title level={5} style={{ marginTop: 0 }}>{T('doubleTitle')}</Typography.Title>
      <Typography.Paragraph type="secondary">{T('doubleIntro', { sn })}</Typography.Paragraph>
      <Table<StockRow> rowKey="iccid" loading={q.isLoading} dataSource={q.data?.items ?? []} columns={stockColumns(t, lang)} pagination={false} scroll={{ x: 1600 }} data-testid="stock-double" />
    </div>
  );
}
