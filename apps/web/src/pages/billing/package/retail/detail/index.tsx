import { Button, Space, Typography } from 'antd';
import { CopyOutlined, EditOutlined, HistoryOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ProfitShareMethod, TariffType, formatDateTime, formatMoney, retail, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../../request/http.ts';
import { DetailPage } from '../../../../../components/DetailPage.tsx';
import { StatusTag } from '../../../../../components/StatusTag.tsx';
import { usePerm } from '../../../../../components/PermButton.tsx';
import { CrossedPrice, RETAIL_PERM_EDIT, RETAIL_STATUS_COLORS, percent, retailPaths } from '../shared.tsx';
import { usePageTitle } from '../../../../../layout/pageTitle.ts';

/** /billing/package/retaildetail/:retailId/:tariffType: every field of a retail plan (spec §3). */
export default function RetailDetailPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const retailId = Number(useParams().retailId);
  const navigate = useNavigate();
  const canEdit = usePerm(RETAIL_PERM_EDIT);
  const query = useQuery({
    queryKey: [retail.getRetailDetail.name, { retailId }],
    queryFn: ({ signal }) => call(retail.getRetailDetail, { retailId }, { signal, silent: true }),
    enabled: Number.isInteger(retailId) && retailId > 0,
  });
  const r = query.data;
  usePageTitle(r?.retailName);
  const f = (k: string) => t(`retail.fields.${k}`);
  const invalid = !Number.isInteger(retailId) || retailId <= 0;
  return (
    <DetailPage
      loading={!invalid && query.isLoading}
      error={invalid || query.isError || (query.isFetched && !r)}
      title={r ? <Space>{r.retailName}<StatusTag enumOf={retail.RetailStatus} value={r.status} colors={RETAIL_STATUS_COLORS} /></Space> : t('retail.detail')}
      extra={r && (
        <Space>
          <Button icon={<HistoryOutlined />} onClick={() => navigate(retailPaths.record(r.retailId))}>{t('retail.records')}</Button>
          {canEdit && <Button icon={<CopyOutlined />} onClick={() => navigate(retailPaths.copy(r.retailId))}>{t('common.copy')}</Button>}
          {canEdit && <Button type="primary" icon={<EditOutlined />} onClick={() => navigate(retailPaths.edit(r.retailId))}>{t('common.edit')}</Button>}
        </Space>
      )}
      items={r ? [
        { label: f('retailId'), value: r.retailId },
        { label: f('retailName'), value: r.retailName },
        { label: f('custId'), value: r.custName },
        { label: f('goodsReleaseId'), value: <a onClick={() => navigate(retailPaths.basicDetail(r))}>{r.basicName}</a> },
        { label: f('tariffType'), value: TariffType.label(r.tariffType, lang) },
        { label: f('basicSalePrice'), value: formatMoney(r.basicSalePrice) },
        { label: f('price'), value: <Typography.Text strong>{formatMoney(r.price)}</Typography.Text> },
        { label: f('crossedPrice'), value: <CrossedPrice value={r.crossedPrice} /> },
        { label: f('taxRate'), value: percent(r.taxRate) },
        { label: f('dividendMethod'), value: ProfitShareMethod.label(r.dividendMethod, lang) },
        { label: f('dividendProportion'), value: percent(r.dividendProportion) },
        { label: f('eventGoodsReleaseId'), value: r.eventName ?? '-' },
        { label: f('createdBy'), value: r.createdBy },
        { label: withZoneLabel(f('createdAt')), value: formatDateTime(r.createdAt) },
        { label: f('updatedAt'), value: lang === 'zh' ? `${formatDateTime(r.updatedAt)}（${r.updatedBy}）` : `${formatDateTime(r.updatedAt)} (${r.updatedBy})` },
        { label: f('description'), value: r.description ? <span style={{ whiteSpace: 'pre-wrap' }}>{r.description}</span> : '-', span: 3 },
      ] : []}
    />
  );
}
