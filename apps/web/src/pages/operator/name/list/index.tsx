import { Empty, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime, withZoneLabel } from '@lynx/contract';
import { operatorName, useOperators, type OperatorRow } from '../../shared.tsx';

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st, 26th */
const ordinal = (n: number): string => {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${s}`;
};

/** /operator/name/list: the operators with their billing period start day and number of APNs (no paging). */
export default function OperatorNameList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const query = useOperators();
  return (
    <div className="lx-card">
      <Typography.Title level={5} style={{ marginTop: 0, marginBottom: 12 }}>{t('operator.name.title')}</Typography.Title>
      <Table<OperatorRow>
        rowKey="operatorId"
        dataSource={query.data ?? []}
        loading={query.isFetching}
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: t('operator.name.code'), dataIndex: 'code', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
          { title: t('operator.name.name'), key: 'name', render: (_, o) => operatorName(o, lang) },
          { title: t('operator.name.billingDay'), dataIndex: 'billingDay', render: (v: number) => t('operator.name.billingDayValue', { day: lang === 'en' ? ordinal(v) : v }) },
          { title: t('operator.name.apnCount'), dataIndex: 'apnCount', align: 'right' },
          { title: withZoneLabel(t('common.createdAt')), dataIndex: 'createdAt', render: (v: string) => formatDateTime(v) },
        ]}
        locale={{ emptyText: <Empty description={<>{t('common.empty')}<br /><Typography.Text type="secondary">{t('operator.name.emptyHint')}</Typography.Text></>} /> }}
      />
    </div>
  );
}
