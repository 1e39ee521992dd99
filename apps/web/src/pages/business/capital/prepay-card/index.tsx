import { Button, Result, Space, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { BillLineCategory, ChargeEvent, withholding } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { ChargeCards } from '../../../report/prepaidCost/shared.tsx';

const PERIOD = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * /business/capital/detail/prepay-card/:goodsReleaseId/:elementId/:cycle/:contractType (8030000): the cards of one
 * customer's charges at the event for one plan or pack (goodsReleaseId), category (elementId: 2 prepaid plan fee, 6
 * pack), billing period (cycle) and event (contractType); ?custId= names the customer (else the viewer's own).
 */
export default function PrepayCards() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const p = useParams();
  const [search] = useSearchParams();
  const custId = Number(search.get('custId')) || undefined;
  const goodsReleaseId = Number(p.goodsReleaseId);
  const category = Number(p.elementId);
  const event = Number(p.contractType);
  const periodKey = p.cycle ?? '';
  const valid = goodsReleaseId > 0 && (category === BillLineCategory.PrepaidPlanFee || category === BillLineCategory.PackFee)
    && ChargeEvent.values.includes(event as never) && PERIOD.test(periodKey);
  const W = (k: string, o?: Record<string, unknown>) => t(`withholding.${k}`, o);
  // the group's own row, for its plan name
  const groups = useQuery({
    queryKey: [withholding.getPrepayGroups.name, 'one', custId, periodKey],
    queryFn: ({ signal }) => call(withholding.getPrepayGroups, { current: 1, pageSize: 200, periodKey, ...(custId ? { custId } : {}) }, { signal, silent: true }),
    enabled: valid,
  });
  const group = groups.data?.list.find((g) => g.goodsReleaseId === goodsReleaseId && g.category === category && g.event === event);
  const back = () => navigate(`/business/capital/detail/info${custId ? `/${custId}` : ''}`);
  if (!valid || groups.isError) {
    return <div className="lx-card"><Result status="404" subTitle={t('common.notFound')} extra={<Button onClick={back}>{W('prepay.back')}</Button>} /></div>;
  }
  return (
    <>
      <Space style={{ marginBottom: 12 }} wrap>
        <Button icon={<ArrowLeftOutlined />} onClick={back}>{W('prepay.back')}</Button>
        <Typography.Title level={5} style={{ margin: 0 }} data-testid="prepay-cards-title">
          {W('prepay.cardsTitle', { goods: group?.goodsName ?? `#${goodsReleaseId}`, period: periodKey, event: ChargeEvent.label(event, lang) })}
        </Typography.Title>
      </Space>
      <ChargeCards endpoint={withholding.getPrepayCards}
        body={{ goodsReleaseId, category, periodKey, event, ...(custId ? { custId } : {}) }}
        title={`${W('cardList.title')} · ${BillLineCategory.label(category, lang)}`} />
    </>
  );
}
