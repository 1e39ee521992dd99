import { useState } from 'react';
import { Button, Input, Space, Table, Typography } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { Perm, channelcard, formatDateTime, withZoneLabel, type ResponseOf } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { DetailPage } from '../../../../components/DetailPage.tsx';
import { usePerm } from '../../../../components/PermButton.tsx';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

type Line = ResponseOf<typeof channelcard.getChannelCardBillLinePage>['list'][number];
const PAGE = 20;

/** /channelCard/channelCardBill/detail/:id: a channel card bill and its lines (one per card), the channel's own bill file linked. */
export default function ChannelCardBillDetail() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const T = (k: string, o?: Record<string, unknown>) => t(`channelcard.${k}`, o);
  const billId = Number(useParams().id);
  const valid = Number.isInteger(billId) && billId > 0;
  const canSeeReconcile = usePerm(Perm.BillingChannelBill);
  const [current, setCurrent] = useState(1);
  const [iccid, setIccid] = useState('');
  const bill = useQuery({
    queryKey: [channelcard.getChannelCardBillDetail.name, billId],
    queryFn: ({ signal }) => call(channelcard.getChannelCardBillDetail, { billId }, { signal, silent: true }),
    enabled: valid,
  });
  const lines = useQuery({
    queryKey: [channelcard.getChannelCardBillLinePage.name, billId, current, iccid],
    queryFn: ({ signal }) => call(channelcard.getChannelCardBillLinePage, { billId, current, pageSize: PAGE, ...(iccid ? { iccid } : {}) }, { signal, silent: true }),
    enabled: valid && bill.isSuccess,
    placeholderData: keepPreviousData,
  });
  const b = bill.data;
  usePageTitle(b ? `${b.channelName} ${b.periodKey}` : undefined);
  return (
    <DetailPage
      loading={valid && bill.isLoading}
      error={!valid || bill.error || (bill.isSuccess && !b) ? true : undefined}
      title={b && `${b.channelName} · ${b.periodKey}`}
      extra={<Button onClick={() => void navigate('/channelCard/channelCardBill/list')}>{T('back')}</Button>}
      items={b ? [
        { label: T('channel'), value: b.channelName },
        { label: T('bill.period'), value: b.periodKey },
        { label: T('customer'), value: b.custName ?? T('stockCustomer') },
        { label: T('bill.cardCount'), value: b.cardCount },
        { label: T('bill.totalAmount'), value: <span data-testid="cc-bill-total">{b.totalAmount}</span> },
        {
          label: T('bill.reconcile'),
          value: b.reconcileBillId == null ? T('bill.noReconcile')
            : canSeeReconcile ? <Link to={`/billing/channelbill/detail/${b.reconcileBillId}`}>{T('bill.reconcileOpen')}</Link> : `#${b.reconcileBillId}`,
        },
        { label: T('bill.createdBy'), value: b.createdBy },
        { label: withZoneLabel(T('bill.createdAt')), value: formatDateTime(b.createdAt) },
      ] : []}
    >
      {b && (
        <Table<Line>
          size="small" rowKey="iccid" loading={lines.isFetching} dataSource={lines.data?.list ?? []}
          title={() => (
            <Space style={{ justifyContent: 'space-between', width: '100%' }}>
              <Typography.Text strong>{T('bill.lines')}</Typography.Text>
              <Input.Search allowClear placeholder={T('iccidPlaceholder')} style={{ width: 260 }} onSearch={(v) => { setIccid(v.trim()); setCurrent(1); }} />
            </Space>
          )}
          pagination={{ current, pageSize: PAGE, total: lines.data?.total ?? 0, onChange: setCurrent, showSizeChanger: false }}
          columns={[
            {
              title: T('iccid'), dataIndex: 'iccid', key: 'iccid',
              render: (v: string, r) => (r.channelCardId ? <Link to={`/channelCard/channel-card/detail/${r.channelCardId}`}>{v}</Link> : v),
            },
            { title: T('monthlyCost'), dataIndex: 'monthlyCost', key: 'monthlyCost', align: 'right' },
            { title: T('cardDetail.amount'), dataIndex: 'amount', key: 'amount', align: 'right' },
          ]}
        />
      )}
    </DetailPage>
  );
}
