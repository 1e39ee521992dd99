import { useState } from 'react';
import { Button, Empty, Form, Input, Space, Table, Typography } from 'antd';
import { LeftOutlined, RightOutlined, SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Dayjs } from 'dayjs';
import { ChargeEvent, ChargeState, formatCount, withholding, type Endpoint, type ResponseOf } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { pickedDays } from '../../../components/businessTime.ts';
import { ExportButton } from '../../../components/ExportButton.tsx';
import { Section } from '../../../components/Section.tsx';
import { MoneyCell } from '../../business/capital/shared.tsx';
import { keysetNext, keysetPrev, keysetStart, type KeysetState } from '../../billing/bill/shared.tsx';

export type ChargeRow = ResponseOf<typeof withholding.getChargeListPage>['list'][number];
export type ChargeCardRow = ResponseOf<typeof withholding.getChargeCards>['list'][number];

export const EVENT_COLORS: Record<number, string> = {
  [ChargeEvent.ContractStart]: 'blue', [ChargeEvent.Renewal]: 'green', [ChargeEvent.AutoRenewal]: 'cyan', [ChargeEvent.PackOrder]: 'purple',
};
export const STATE_COLORS: Record<number, string> = {
  [ChargeState.Withheld]: 'green', [ChargeState.OnBill]: 'blue', [ChargeState.OnBillShort]: 'orange',
};

/** The list's search form → its filters: the picked days and the billing period month as 'YYYY-MM'. */
export function chargeFilters(v: Record<string, any>): Record<string, unknown> {
  const { range, period, ...rest } = v as { range?: [Dayjs | null, Dayjs | null] | null; period?: Dayjs | null } & Record<string, unknown>;
  const days = pickedDays(range);
  return { ...rest, ...(days ? { from: days[0], to: days[1] } : {}), ...(period ? { periodKey: period.format('YYYY-MM') } : {}) };
}

/** Who caused a charge: a login name, or the platform's scheduler in words. */
export const actorText = (t: (k: string) => string, actor: string) => (actor === 'scheduler' ? t('withholding.scheduler') : actor);

type CardsEndpoint = typeof withholding.getChargeCards | typeof withholding.getPrepayCards;

/**
 * Cards of charges in key order, a page at a time ("next" goes on from the last card shown, "previous" back through
 * the keys seen), filtered by ICCID or a prefix; exported whole when `exportVia` is given.
 */
export function ChargeCards({ endpoint, body, exportVia, title }: {
  endpoint: CardsEndpoint; body: Record<string, unknown>; exportVia?: Endpoint; title?: string;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ iccid?: string }>();
  const [iccid, setIccid] = useState<string | undefined>();
  const [keys, setKeys] = useState<KeysetState>(keysetStart);
  const C = (k: string, o?: Record<string, unknown>) => t(`withholding.cardList.${k}`, o);
  const PAGE = 20;
  const full = { ...body, pageSize: PAGE, ...(iccid ? { iccid } : {}), ...(keys.after ? { after: keys.after } : {}) };
  const q = useQuery({
    queryKey: [endpoint.name, full],
    // both endpoints answer the same page of cards
    queryFn: ({ signal }) => call(endpoint as typeof withholding.getChargeCards, full as never, { signal }),
    placeholderData: keepPreviousData,
  });
  const page = keys.stack.length + 1;
  const pages = Math.max(page + (q.data?.next ? 1 : 0), q.data ? Math.ceil(q.data.total / PAGE) : 1);
  return (
    <Section title={title ?? C('title')} testId="charge-cards" extra={exportVia && <ExportButton via={exportVia} filters={body} />}>
      <Form form={form} layout="inline" style={{ marginBottom: 12, rowGap: 8 }}
        onFinish={(v) => { setIccid(v.iccid?.trim() || undefined); setKeys(keysetStart); }}>
        <Form.Item name="iccid" label="ICCID">
          <Input allowClear maxLength={20} placeholder={C('iccidPlaceholder')} style={{ width: 240 }} data-testid="charge-cards-iccid" />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>{t('common.search')}</Button>
            <Button onClick={() => { form.resetFields(); setIccid(undefined); setKeys(keysetStart); }}>{t('common.reset')}</Button>
          </Space>
        </Form.Item>
      </Form>
      <Table<ChargeCardRow>
        size="small"
        rowKey={(r) => `${r.chargeId}-${r.iccid}`}
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={<>{t('common.empty')}<br /><Typography.Text type="secondary">{C(iccid ? 'emptyFiltered' : 'empty')}</Typography.Text></>} /> }}
        columns={[
          { title: 'ICCID', dataIndex: 'iccid', width: 200, render: (v: string) => <Link to={`/card/card-list/detail/${v}`} translate="no">{v}</Link> },
          { title: C('msisdn'), dataIndex: 'msisdn', width: 140, render: (v: string | null) => v ?? '-' },
          { title: C('days'), key: 'days', width: 210, render: (_: unknown, r) => (r.fromDay === r.toDay ? r.fromDay : `${r.fromDay} ~ ${r.toDay}`) },
          { title: t('withholding.quantity'), dataIndex: 'quantity', width: 100, align: 'right' },
          { title: t('money.withCurrency', { label: C('unitPrice') }), dataIndex: 'unitPrice', width: 130, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          { title: t('money.withCurrency', { label: t('withholding.amount') }), dataIndex: 'amount', width: 130, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          { title: t('money.withCurrency', { label: t('withholding.tax') }), dataIndex: 'tax', width: 120, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
        ]}
      />
      <div style={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: 12, marginTop: 12 }}>
        <Typography.Text type="secondary" data-testid="charge-cards-page">
          {C('page', { page, pages: formatCount(pages), total: formatCount(q.data?.total ?? 0) })}
        </Typography.Text>
        <Button icon={<LeftOutlined />} disabled={!keys.stack.length || q.isFetching} onClick={() => setKeys(keysetPrev)}>{C('prev')}</Button>
        <Button disabled={!q.data?.next || q.isFetching} onClick={() => setKeys((s) => keysetNext(s, q.data?.next))} data-testid="charge-cards-next">
          {C('next')} <RightOutlined />
        </Button>
      </div>
    </Section>
  );
}
