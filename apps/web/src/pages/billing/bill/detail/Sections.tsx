import { Empty, Table, Tabs, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { BillLineCategory, BillSummaryDim, formatCount, formatDateTime, formatSize, moneyToFen, fenToMoney, withZoneLabel } from '@lynx/contract';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { Section } from '../../../../components/Section.tsx';
import { MoneyCell } from '../../../business/capital/shared.tsx';
import { CATEGORY_COLORS, CATEGORY_FIELDS, type BillDetailData } from '../shared.tsx';

type Summary = BillDetailData['summaries'][number];
type WriteOff = BillDetailData['writeOffs'][number];
type Fee = BillDetailData['oneOffFees'][number];

const empty = (hint: string, t: (k: string) => string) => <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<>{t('common.empty')}<br /><Typography.Text type="secondary">{hint}</Typography.Text></>} />;

/** One category's cards and tax, summed over the bill's plan breakdown (each line is in exactly one plan row). */
export function categoryTotals(d: BillDetailData) {
  return CATEGORY_FIELDS.map(({ key, category }) => {
    const rows = d.summaries.filter((s) => s.dim === BillSummaryDim.Plan && s.category === category);
    const tax = rows.reduce((n, s) => n + (moneyToFen(s.tax) ?? 0n), 0n);
    return { key, category, amount: d.bill.categories[key], cards: rows.reduce((n, s) => n + s.cards, 0), tax: fenToMoney(tax) };
  });
}

/** The bill's expenses by category (spec §3 "per-category expenses"), with the cards each came from. */
export function CategoryTotals({ d }: { d: BillDetailData }) {
  const { t } = useTranslation();
  const C = (k: string) => t(`bill.detail.${k}`);
  const rows = categoryTotals(d);
  return (
    <Section title={C('categories')} testId="bill-categories">
      <Table size="small" rowKey="key" pagination={false} dataSource={rows} scroll={{ x: 'max-content' }}
        columns={[
          { title: C('category'), dataIndex: 'category', width: 200, render: (v: number) => <StatusTag enumOf={BillLineCategory} value={v} colors={CATEGORY_COLORS} /> },
          { title: C('cards'), dataIndex: 'cards', width: 100, align: 'right', render: (v: number) => formatCount(v) },
          { title: t('money.withCurrency', { label: C('amount') }), dataIndex: 'amount', width: 160, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          { title: t('money.withCurrency', { label: C('taxOf') }), dataIndex: 'tax', width: 160, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
        ]}
        summary={() => (
          <Table.Summary.Row>
            <Table.Summary.Cell index={0}><Typography.Text strong>{C('sum')}</Typography.Text></Table.Summary.Cell>
            <Table.Summary.Cell index={1} align="right">{formatCount(d.bill.cardCount)}</Table.Summary.Cell>
            <Table.Summary.Cell index={2} align="right"><Typography.Text strong data-testid="bill-categories-total"><MoneyCell v={d.bill.total} /></Typography.Text></Table.Summary.Cell>
            <Table.Summary.Cell index={3} align="right"><MoneyCell v={d.bill.tax} /></Table.Summary.Cell>
          </Table.Summary.Row>
        )}
      />
    </Section>
  );
}

/** The bill by plan, by operator and by card type: each row one name × category (the consume bill's statistics). */
export function Breakdowns({ d }: { d: BillDetailData }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const C = (k: string) => t(`bill.detail.${k}`);
  const table = (dim: number) => (
    <Table<Summary> size="small" rowKey={(r) => `${r.key}-${r.category}`} pagination={false} scroll={{ x: 'max-content' }}
      dataSource={d.summaries.filter((s) => s.dim === dim)}
      locale={{ emptyText: empty(C('noSummaries'), t) }}
      columns={[
        { title: C(`dimName.${dim}`), dataIndex: 'name', width: 220, ellipsis: true, render: (v: string) => v || C('none') },
        { title: C('category'), dataIndex: 'category', width: 180, render: (v: number) => <StatusTag enumOf={BillLineCategory} value={v} colors={CATEGORY_COLORS} /> },
        { title: C('cards'), dataIndex: 'cards', width: 90, align: 'right', render: (v: number) => formatCount(v) },
        { title: C('quantity'), dataIndex: 'quantity', width: 90, align: 'right', render: (v: number) => formatCount(v) },
        { title: C('usage'), dataIndex: 'usedBytes', width: 120, align: 'right', render: (v: number) => formatSize(v) },
        { title: t('money.withCurrency', { label: C('amount') }), dataIndex: 'amount', width: 150, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
        { title: t('money.withCurrency', { label: C('taxOf') }), dataIndex: 'tax', width: 150, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
      ]} />
  );
  return (
    <Section title={C('breakdowns')} testId="bill-breakdowns">
      <Tabs size="small" items={BillSummaryDim.values.map((dim) => ({ key: String(dim), label: BillSummaryDim.label(dim, lang), children: table(dim) }))} />
    </Section>
  );
}

/** The write-offs of the bill: how much, from grants and from pre-deposit, by whom, and the ledger journal. */
export function WriteOffs({ d }: { d: BillDetailData }) {
  const { t } = useTranslation();
  const W = (k: string) => t(`bill.detail.wo.${k}`);
  const money = (k: string) => t('money.withCurrency', { label: W(k) });
  return (
    <Section title={t('bill.detail.writeOffs')} testId="bill-write-offs">
      <Table<WriteOff> size="small" rowKey="writeOffId" pagination={false} dataSource={d.writeOffs} scroll={{ x: 'max-content' }}
        locale={{ emptyText: empty(t(d.bill.published ? 'bill.detail.noWriteOffs' : 'bill.detail.noWriteOffsUnpublished'), t) }}
        columns={[
          { title: withZoneLabel(W('at')), dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
          { title: money('amount'), dataIndex: 'amount', width: 140, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          { title: money('fromGrants'), dataIndex: 'fromGrants', width: 140, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          { title: money('fromPreDeposit'), dataIndex: 'fromPreDeposit', width: 150, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          { title: W('overdue'), dataIndex: 'overdue', width: 90, render: (v: boolean) => (v ? <Tag color="gold">{t('common.yes')}</Tag> : t('common.no')) },
          { title: W('source'), dataIndex: 'source', width: 120, render: (v: number) => W(v === 2 ? 'auto' : 'manual') },
          { title: W('by'), dataIndex: 'createdBy', width: 120 },
          { title: W('journal'), dataIndex: 'journalId', width: 100 },
          { title: W('remark'), dataIndex: 'remark', width: 200, ellipsis: true, render: (v: string | null) => v ?? '-' },
        ]} />
    </Section>
  );
}

/** The one-off fees this bill charged. */
export function OneOffFees({ d }: { d: BillDetailData }) {
  const { t } = useTranslation();
  const C = (k: string) => t(`bill.detail.${k}`);
  return (
    <Section title={C('oneOffFees')} testId="bill-one-off-fees">
      <Table<Fee> size="small" rowKey="feeId" pagination={false} dataSource={d.oneOffFees} scroll={{ x: 'max-content' }}
        locale={{ emptyText: empty(C('noFees'), t) }}
        columns={[
          { title: C('feeDay'), dataIndex: 'feeDay', width: 120 },
          { title: 'ICCID', dataIndex: 'iccid', width: 200, render: (v: string | null) => v ?? C('wholeCustomer') },
          { title: C('reason'), dataIndex: 'reason', width: 260, ellipsis: true },
          { title: t('money.withCurrency', { label: C('amount') }), dataIndex: 'amount', width: 140, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
        ]} />
    </Section>
  );
}
