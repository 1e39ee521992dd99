import type { ReactNode } from 'react';
import { Button, Descriptions, Empty, Result, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { ArrowLeftOutlined, ArrowRightOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { CreditChangeAction, CreditStatus, CreditType, credit, formatDateTime, type ResponseOf, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { MoneyCell } from '../../../business/capital/shared.tsx';
import { CREDIT_STATUS_COLORS, CREDIT_TYPE_COLORS, snapshotLines, termText, validityText } from '../shared.tsx';

type ChangeRow = ResponseOf<typeof credit.getCreditChangeLog>['list'][number];

const ACTION_COLORS: Record<number, string> = {
  [CreditChangeAction.Create]: 'green', [CreditChangeAction.Edit]: 'blue', [CreditChangeAction.Reset]: 'red', [CreditChangeAction.Expire]: 'default',
};

function Lines({ lines }: { lines: { label: string; value: string }[] }) {
  const { i18n } = useTranslation();
  const colon = i18n.language === 'en' ? ': ' : '：';
  if (!lines.length) return <>-</>;
  return (
    <Space orientation="vertical" size={0}>
      {lines.map((l) => (
        <Typography.Text key={l.label} style={{ whiteSpace: 'nowrap' }}><Typography.Text type="secondary">{l.label}{colon}</Typography.Text>{l.value}</Typography.Text>
      ))}
    </Space>
  );
}

/** /financial/credit/change-log/:creditId: a credit order and every change of it (who, when, before, after, reason). */
export default function CreditChangeLog() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const id = Number(useParams().creditId);
  const creditId = Number.isInteger(id) && id > 0 ? id : 0;
  const F = (k: string) => t(`credit.f.${k}`);
  const L = (k: string) => t(`credit.log.${k}`);
  const detail = useQuery({
    queryKey: [credit.getCreditDetail.name, { creditId }],
    queryFn: ({ signal }) => call(credit.getCreditDetail, { creditId }, { signal, silent: true }),
    enabled: creditId > 0,
  });
  const table = useSearchTable(credit.getCreditChangeLog, { fixed: { creditId } });
  const c = detail.data;
  const back = <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/financial/credit/list')}>{L('back')}</Button>;

  if (!creditId || detail.isError) {
    return <div className="lx-card"><Result status="404" subTitle={t('common.notFound')} extra={back} /></div>;
  }
  const items: [string, ReactNode][] = c ? [
    [F('creditNo'), c.creditNo],
    [F('customer'), c.custName],
    [F('creditType'), <StatusTag key="t" enumOf={CreditType} value={c.creditType} colors={CREDIT_TYPE_COLORS} />],
    [F('status'), <StatusTag key="s" enumOf={CreditStatus} value={c.status} colors={CREDIT_STATUS_COLORS} />],
    [F('amount'), <MoneyCell key="a" v={c.amount} />],
    [F('paymentTerm'), termText(t, lang, c.paymentTerm, c.paymentUnit)],
    [F('validity'), validityText(t, c.validFrom, c.validTo)],
    [F('remark'), c.remark ?? '-'],
    [F('createdBy'), c.createdBy],
    [withZoneLabel(F('createdAt')), formatDateTime(c.createdAt)],
    ...(c.resetAt ? [[F('resetBy'), c.resetBy ?? '-'], [withZoneLabel(F('resetAt')), formatDateTime(c.resetAt)], [F('resetReason'), c.resetReason ?? '-']] as [string, ReactNode][] : []),
  ] : [];

  return (
    <>
      <div className="lx-card" data-testid="credit-log-head">
        <Space style={{ marginBottom: 12 }} wrap>
          {back}
          <Typography.Title level={5} style={{ margin: 0 }}>{L('title')}{c ? ` · ${c.creditNo}` : ''}</Typography.Title>
        </Space>
        {detail.isLoading ? <Skeleton active paragraph={{ rows: 3 }} /> : (
          <Descriptions size="small" bordered column={{ xs: 1, md: 2, xl: 3 }} items={items.map(([label, children], i) => ({ key: i, label, children }))} />
        )}
      </div>
      <div className="lx-card">
        <Table<ChangeRow>
          rowKey="changeId"
          dataSource={table.list as ChangeRow[]}
          loading={table.query.isFetching}
          onChange={table.onChange as never}
          scroll={{ x: 'max-content' }}
          data-testid="credit-log-table"
          pagination={{ current: table.state.current, pageSize: table.state.pageSize, total: table.total, showSizeChanger: true, showTotal: (total) => t('common.total', { total }) }}
          locale={{ emptyText: <Empty description={L('empty')} /> }}
          columns={[
            { title: withZoneLabel(L('time')), dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
            { title: L('action'), dataIndex: 'action', width: 110, render: (v: number) => <StatusTag enumOf={CreditChangeAction} value={v} colors={ACTION_COLORS} /> },
            { title: L('by'), dataIndex: 'createdBy', width: 120, render: (v: string) => (v === 'system' ? <Tag>{L('system')}</Tag> : v) },
            { title: L('before'), key: 'before', render: (_: unknown, r) => <Lines lines={snapshotLines(t, lang, r.before, r.after)} /> },
            { title: '', key: 'arrow', width: 32, render: (_: unknown, r) => (r.before ? <ArrowRightOutlined style={{ color: 'rgba(0,0,0,.45)' }} /> : null) },
            { title: L('after'), key: 'after', render: (_: unknown, r) => <Lines lines={snapshotLines(t, lang, r.after, r.before)} /> },
            { title: L('reason'), dataIndex: 'reason', width: 220, ellipsis: true, render: (v: string | null) => v ?? '-' },
          ]}
        />
      </div>
    </>
  );
}
