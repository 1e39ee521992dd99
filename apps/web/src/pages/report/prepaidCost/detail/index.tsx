import { Alert, Button, Space } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { BillLineCategory, ChargeEvent, ChargeState, Perm, formatCount, formatDateTime, withZoneLabel, withholding } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { DetailPage } from '../../../../components/DetailPage.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { usePerm } from '../../../../components/PermButton.tsx';
import { MoneyCell } from '../../../business/capital/shared.tsx';
import { ChargeCards, EVENT_COLORS, STATE_COLORS, actorText } from '../shared.tsx';

/**
 * /report/prepaidCost/detail/:recordId/:channelCustId? : one withholding record and its cards. The optional
 * channelCustId is the first-level customer of the record's tree, kept so a link names whose record it is.
 */
export default function PrepaidCostDetail() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { recordId } = useParams();
  const chargeId = Number(recordId);
  const valid = Number.isInteger(chargeId) && chargeId > 0;
  const canCapital = usePerm(Perm.BusinessCapital);
  const W = (k: string, o?: Record<string, unknown>) => t(`withholding.${k}`, o);
  const q = useQuery({
    queryKey: [withholding.getChargeDetail.name, chargeId],
    queryFn: ({ signal }) => call(withholding.getChargeDetail, { chargeId }, { signal, silent: true }),
    enabled: valid,
  });
  const c = q.data;
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/report/prepaidCost/list')}>{W('detail.back')}</Button>
      </Space>
      <DetailPage
        loading={valid && q.isLoading}
        error={!valid || q.isError ? true : undefined}
        title={c ? W('detail.title', { no: c.chargeNo }) : ''}
        items={c ? [
          { label: W('customer'), value: canCapital ? <Link to={`/business/capital/detail/info/${c.custId}`}>{c.custName}</Link> : c.custName },
          { label: W('event'), value: <StatusTag enumOf={ChargeEvent} value={c.event} colors={EVENT_COLORS} /> },
          { label: W('category'), value: <StatusTag enumOf={BillLineCategory} value={c.category} /> },
          { label: W('goods'), value: c.goodsName || '-' },
          { label: W('period'), value: c.periodKey },
          { label: W('cards'), value: formatCount(c.cards) },
          { label: W('quantity'), value: formatCount(c.quantity) },
          { label: t('money.withCurrency', { label: W('amount') }), value: <MoneyCell v={c.amount} /> },
          { label: t('money.withCurrency', { label: W('tax') }), value: <MoneyCell v={c.tax} /> },
          { label: W('state'), value: <StatusTag enumOf={ChargeState} value={c.state} colors={STATE_COLORS} /> },
          { label: W('journal'), value: c.journalId ?? '-' },
          { label: W('by'), value: actorText(t, c.actor) },
          { label: withZoneLabel(W('at')), value: formatDateTime(c.createdAt) },
        ] : []}
      >
        {c && (
          <>
            <Alert type={c.state === ChargeState.Withheld ? 'success' : 'info'} showIcon style={{ margin: '12px 0' }}
              title={W(c.state === ChargeState.Withheld ? 'detail.withheldHint' : 'detail.onBillHint', { period: c.periodKey })}
              description={c.journalId ? W('detail.journalHint') : undefined} />
            <ChargeCards endpoint={withholding.getChargeCards} body={{ chargeId }} exportVia={withholding.exportChargeCards} />
          </>
        )}
      </DetailPage>
    </>
  );
}
