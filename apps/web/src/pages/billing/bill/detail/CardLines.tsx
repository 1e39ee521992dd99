import { useState } from 'react';
import { Button, Empty, Form, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { LeftOutlined, RightOutlined, SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BillLineCategory, Operator, bill, formatCount, formatSize } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { ExportButton } from '../../../../components/ExportButton.tsx';
import { usePerm } from '../../../../components/PermButton.tsx';
import { Section } from '../../../../components/Section.tsx';
import { MoneyCell } from '../../../business/capital/shared.tsx';
import { CATEGORY_COLORS, keysetNext, keysetPrev, keysetStart, type BillLine, type KeysetState } from '../shared.tsx';

const PAGE_SIZE = 20;

/** Used of quota, in human units ('1.5 GB / 2 GB'); lines without usage show a dash. */
export function usageText(used: number | null, quota: number | null): string {
  if (used == null) return '-';
  return quota ? `${formatSize(used)} / ${formatSize(quota)}` : formatSize(used);
}

/**
 * A bill's card lines in ICCID order, a page at a time by key (a bill can hold a million lines): "next" goes on from
 * the last line shown, "previous" goes back through the keys already seen. Filter by ICCID and category; export all.
 */
export function CardLines({ billId }: { billId: number }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const canExport = usePerm(bill.BillPerm.Export);
  const [form] = Form.useForm<{ iccid?: string; category?: number }>();
  const [filters, setFilters] = useState<{ iccid?: string; category?: number }>({});
  const [keys, setKeys] = useState<KeysetState>(keysetStart);
  const L = (k: string, o?: Record<string, unknown>) => t(`bill.line.${k}`, o);
  const body = { billId, pageSize: PAGE_SIZE, ...filters, ...(keys.after ? { after: keys.after } : {}) };
  const q = useQuery({
    queryKey: [bill.getBillCardLines.name, body],
    queryFn: ({ signal }) => call(bill.getBillCardLines, body, { signal }),
    placeholderData: keepPreviousData,
  });
  const page = keys.stack.length + 1;
  // the count is of the lines matching; never fewer pages than the keys walked so far show
  // (a count over the cap is not exact: the page then says "more than N lines" and gives no page count)
  const pages = Math.max(page + (q.data?.next ? 1 : 0), q.data ? Math.ceil(q.data.total / PAGE_SIZE) : 1);
  const apply = (v: { iccid?: string; category?: number }) => {
    setFilters({ ...(v.iccid?.trim() ? { iccid: v.iccid.trim() } : {}), ...(v.category ? { category: v.category } : {}) });
    setKeys(keysetStart);
  };

  return (
    <Section title={L('title')} testId="bill-lines"
      extra={canExport && <ExportButton via={bill.exportBillCardLines} filters={{ billId }} />}>
      <Form form={form} layout="inline" onFinish={apply} style={{ marginBottom: 12, rowGap: 8 }}>
        <Form.Item name="iccid" label="ICCID">
          <Input allowClear maxLength={20} placeholder={L('iccidPlaceholder')} style={{ width: 240 }} data-testid="bill-lines-iccid" />
        </Form.Item>
        <Form.Item name="category" label={L('category')}>
          <Select allowClear placeholder={t('common.all')} options={BillLineCategory.options(lang)} style={{ width: 200 }} data-testid="bill-lines-category" />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>{t('common.search')}</Button>
            <Button onClick={() => { form.resetFields(); apply({}); }}>{t('common.reset')}</Button>
          </Space>
        </Form.Item>
      </Form>
      <Table<BillLine>
        size="small"
        rowKey={(r) => `${r.iccid}-${r.category}-${r.fromDay}-${r.goodsReleaseId ?? 0}`}
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={<>{t('common.empty')}<br /><Typography.Text type="secondary">{L(filters.iccid || filters.category ? 'emptyFiltered' : 'empty')}</Typography.Text></>} /> }}
        columns={[
          { title: 'ICCID', dataIndex: 'iccid', width: 200, render: (v: string) => <Link to={`/card/card-list/detail/${v}`} translate="no">{v}</Link> },
          { title: L('category'), dataIndex: 'category', width: 160, render: (v: number) => <StatusTag enumOf={BillLineCategory} value={v} colors={CATEGORY_COLORS} /> },
          { title: L('days'), key: 'days', width: 200, render: (_: unknown, r) => (r.fromDay === r.toDay ? r.fromDay : `${r.fromDay} ~ ${r.toDay}`) },
          { title: L('plan'), dataIndex: 'planName', width: 180, ellipsis: true, render: (v: string | null) => v ?? '-' },
          { title: L('operator'), dataIndex: 'operatorId', width: 110, render: (v: number | null) => (v == null ? '-' : Operator.label(v, lang)) },
          { title: L('usage'), key: 'usage', width: 170, render: (_: unknown, r) => usageText(r.usedBytes, r.quotaBytes) },
          { title: L('quantity'), dataIndex: 'quantity', width: 80, align: 'right' },
          { title: t('money.withCurrency', { label: L('unitPrice') }), dataIndex: 'unitPrice', width: 130, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          { title: t('money.withCurrency', { label: L('amount') }), dataIndex: 'amount', width: 130, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          { title: t('money.withCurrency', { label: L('tax') }), dataIndex: 'tax', width: 120, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          { title: L('withheld'), dataIndex: 'withheld', width: 100, render: (v: boolean) => (v ? <Tag color="cyan">{L('withheldTag')}</Tag> : '-') },
        ]}
      />
      <div style={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: 12, marginTop: 12 }}>
        <Typography.Text type="secondary" data-testid="bill-lines-page">
          {q.data?.totalCapped
            ? L('pageMany', { page, total: formatCount(q.data.total) })
            : L('page', { page, pages: formatCount(pages), total: formatCount(q.data?.total ?? 0) })}
        </Typography.Text>
        <Button icon={<LeftOutlined />} disabled={!keys.stack.length || q.isFetching} onClick={() => setKeys(keysetPrev)} data-testid="bill-lines-prev">{L('prev')}</Button>
        <Button disabled={!q.data?.next || q.isFetching} onClick={() => setKeys((s) => keysetNext(s, q.data?.next))} data-testid="bill-lines-next">
          {L('next')} <RightOutlined />
        </Button>
      </div>
    </Section>
  );
}
