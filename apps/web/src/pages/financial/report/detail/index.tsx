import { Button, Col, Result, Row, Space, Statistic, Table, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { CustomerLevel, ReportPeriod, formatCount, formatMoney, report } from '@lynx/contract';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { CUSTOMER_LEVEL_COLORS } from '../../../home/customer/CustomerDetail.tsx';
import { MoneyCell, isNegative } from '../../../business/capital/shared.tsx';
import { amountColumns, inAndOut, periodOf, shownKeys, type Amounts, type ReportCustomerRow } from '../shared.tsx';

const LIST = '/financial/report/list';

/** The report's own figures: opening, money in, money out, closing, and the customers in it. */
function ReportFigures({ r }: { r: Amounts & { customers: number } }) {
  const { t } = useTranslation();
  const io = inAndOut(r);
  const figures: [string, string, string][] = [
    ['opening', t('report.col.opening'), r.opening],
    ['in', t('report.in'), io.in],
    ['out', t('report.out'), io.out],
    ['closing', t('report.col.closing'), r.closing],
  ];
  return (
    <Row gutter={[16, 12]} data-testid="report-figures">
      {figures.map(([k, title, v]) => (
        <Col key={k} flex="1 0 160px" data-testid={`report-figure-${k}`}>
          <Statistic title={title} value={formatMoney(v)}
            styles={{ content: { fontVariantNumeric: 'tabular-nums', ...(isNegative(v) ? { color: '#cf1322' } : {}) } }} />
        </Col>
      ))}
      <Col flex="1 0 120px"><Statistic title={t('report.customers')} value={formatCount(r.customers)} /></Col>
    </Row>
  );
}

/** /financial/report/detail/:id/:type: one day's or month's report and every customer's statement in it. */
export default function ReportDetail() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const params = useParams();
  const type = periodOf(params.type) ?? ReportPeriod.Daily;
  const id = params.id ?? '';
  const table = useSearchTable(report.getAccountingReportDetail, { fixed: { id, type } });
  const head = table.query.data?.report;
  const keys = shownKeys(head);
  const T = (k: string) => t(`report.${k}`);
  const filtered = Boolean(table.state.filters.custName);
  const back = <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(LIST)}>{T('back')}</Button>;

  if ((table.query as { isError?: boolean }).isError && !head) {
    return <div className="lx-card"><Result status="404" subTitle={T('notFound')} extra={back} /></div>;
  }
  const typeText = ReportPeriod.label(type, lang);
  return (
    <>
      <div className="lx-card" data-testid="report-detail">
        <Space style={{ marginBottom: 12 }} wrap>
          {back}
          <Typography.Title level={5} style={{ margin: 0 }}>{t('report.detailTitle', { id, type: typeText })}</Typography.Title>
          {head && !head.complete && <Typography.Text type="secondary">{t('report.monthToDate', { start: head.periodStart, end: head.periodEnd })}</Typography.Text>}
        </Space>
        <Typography.Paragraph type="secondary" style={{ margin: '0 0 12px' }}>{T('formula')}</Typography.Paragraph>
        {head && <ReportFigures r={head} />}
      </div>
      <SearchTable<ReportCustomerRow>
        table={table}
        title={T('statements')}
        rowKey="custId"
        exportSource={report.getAccountingReportDetail}
        emptyHint={T('detailEmpty')}
        fields={[{ name: 'custName', label: T('custName') }]}
        summary={() => (head && table.list.length > 0 ? (
          <Table.Summary fixed>
            <Table.Summary.Row data-testid="report-detail-totals">
              <Table.Summary.Cell index={0} colSpan={3}>
                <Typography.Text strong>{T('total')}</Typography.Text>
                {filtered && <Typography.Text type="secondary" style={{ marginLeft: 8 }}>{T('totalFiltered')}</Typography.Text>}
              </Table.Summary.Cell>
              {keys.map((k, i) => (
                <Table.Summary.Cell key={k} index={i + 3} align="right">
                  {!filtered && <Typography.Text strong><MoneyCell v={head[k]} /></Typography.Text>}
                </Table.Summary.Cell>
              ))}
            </Table.Summary.Row>
          </Table.Summary>
        ) : null)}
        columns={[
          { title: T('customer'), dataIndex: 'custName', width: 220, fixed: 'left', ellipsis: true, sorter: true },
          { title: T('parent'), dataIndex: 'parentCustName', width: 180, ellipsis: true, render: (v: string | null) => v ?? '-' },
          { title: T('level'), dataIndex: 'level', width: 120, render: (v: number) => <StatusTag enumOf={CustomerLevel} value={v} colors={CUSTOMER_LEVEL_COLORS} /> },
          ...amountColumns<ReportCustomerRow>(keys, { sortable: true }),
        ]}
      />
    </>
  );
}
