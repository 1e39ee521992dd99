import { useState } from 'react';
import { Empty, Table, Typography } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BillLineCategory, ChargeEvent, formatCount, formatDateTime, withZoneLabel, withholding, type ResponseOf } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { Section } from '../../../../components/Section.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { MoneyCell } from '../shared.tsx';
import { EVENT_COLORS } from '../../../report/prepaidCost/shared.tsx';

type Group = ResponseOf<typeof withholding.getPrepayGroups>['list'][number];

/** The prepay-card route of one group (spec §2: goodsReleaseId, elementId = category, cycle = period, contractType = event). */
export const prepayCardPath = (g: Pick<Group, 'goodsReleaseId' | 'category' | 'periodKey' | 'event'>, custId: number | undefined) =>
  `/business/capital/detail/prepay-card/${g.goodsReleaseId}/${g.category}/${g.periodKey}/${g.event}${custId ? `?custId=${custId}` : ''}`;

/** A customer's charges at the event grouped by plan or pack, period and event; each group opens its cards. */
export function PrepaySection({ custId }: { custId: number | undefined }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [page, setPage] = useState(1);
  const W = (k: string) => t(`withholding.${k}`);
  const body = { current: page, pageSize: 10, ...(custId ? { custId } : {}) };
  const q = useQuery({
    queryKey: [withholding.getPrepayGroups.name, body],
    queryFn: ({ signal }) => call(withholding.getPrepayGroups, body, { signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <Section title={W('prepay.title')} testId="capital-prepay">
      <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>{W('prepay.intro')}</Typography.Paragraph>
      <Table<Group>
        size="small"
        rowKey={(g) => `${g.goodsReleaseId}-${g.category}-${g.periodKey}-${g.event}`}
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{ current: page, pageSize: 10, total: q.data?.total ?? 0, onChange: setPage, hideOnSinglePage: true }}
        locale={{ emptyText: <Empty description={<>{t('common.empty')}<br /><Typography.Text type="secondary">{W('prepay.emptyHint')}</Typography.Text></>} /> }}
        columns={[
          { title: W('period'), dataIndex: 'periodKey', width: 100 },
          { title: W('goods'), dataIndex: 'goodsName', width: 200, ellipsis: true },
          { title: W('category'), dataIndex: 'category', width: 150, render: (v: number) => BillLineCategory.label(v, lang) },
          { title: W('event'), dataIndex: 'event', width: 170, render: (v: number) => <StatusTag enumOf={ChargeEvent} value={v} colors={EVENT_COLORS} /> },
          { title: W('prepay.records'), dataIndex: 'records', width: 80, align: 'right', render: (v: number) => formatCount(v) },
          {
            title: W('cards'), dataIndex: 'cards', width: 80, align: 'right',
            render: (v: number, g) => <Link to={prepayCardPath(g, custId)} data-testid="prepay-cards-link">{formatCount(v)}</Link>,
          },
          { title: W('quantity'), dataIndex: 'quantity', width: 100, align: 'right', render: (v: number) => formatCount(v) },
          { title: t('money.withCurrency', { label: W('amount') }), dataIndex: 'amount', width: 130, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          { title: t('money.withCurrency', { label: W('prepay.withheld') }), dataIndex: 'withheld', width: 130, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          { title: t('money.withCurrency', { label: W('prepay.onBill') }), dataIndex: 'onBill', width: 130, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          { title: withZoneLabel(W('prepay.lastAt')), dataIndex: 'lastAt', width: 170, render: (v: string) => formatDateTime(v) },
        ]}
      />
    </Section>
  );
}
