import { Empty, Space, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Operator, STAFF_ROLE_TYPES, formatCount, operatebill, type ResponseOf } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { Section } from '../../../../components/Section.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { usePerm } from '../../../../components/PermButton.tsx';
import { useSession } from '../../../../stores/session.ts';
import { MoneyCell } from '../../../business/capital/shared.tsx';
import { OperateBillPerm, OperatorBillState, STATE_COLORS, useAccountName } from '../../../financial/operate-bill/shared.tsx';

type Row = ResponseOf<typeof operatebill.getBillOperatorCost>[number];

/**
 * The bill detail's "operator's bill for the period" (spec §7 consume bill "operator bill"), for platform staff with
 * Operating bills (9030000) only: per operator, the carriers' per-card charges summed over this bill's cards, against
 * what the bill charged for them. Customers never see it (the server refuses them too).
 */
export function OperatorCost({ billId }: { billId: number }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const staff = useSession((s) => s.roleId !== null && STAFF_ROLE_TYPES.includes(s.roleId));
  const allowed = usePerm(OperateBillPerm.Page) && staff;
  const nameOf = useAccountName();
  const q = useQuery({
    queryKey: [operatebill.getBillOperatorCost.name, billId],
    queryFn: ({ signal }) => call(operatebill.getBillOperatorCost, { billId }, { signal, silent: true }),
    enabled: allowed,
  });
  if (!allowed) return null;
  const S = (k: string) => t(`operatebill.billSection.${k}`);
  const F = (k: string) => t(`operatebill.f.${k}`);
  const M = (label: string) => t('money.withCurrency', { label });
  return (
    <Section title={S('title')} testId="bill-operator-cost" extra={<Link to="/financial/operate-bill/list">{t('menu.financialOperateBill')}</Link>}>
      <Typography.Paragraph type="secondary" style={{ marginTop: -4 }}>{S('intro')}</Typography.Paragraph>
      <Table<Row> size="small" rowKey="operatorId" pagination={false} dataSource={q.data ?? []} loading={q.isLoading} scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={q.isError ? t('operatebill.loadFailed') : S('empty')} /> }}
        columns={[
          { title: F('operator'), dataIndex: 'operatorId', width: 120, render: (v: number) => Operator.label(v, lang) },
          { title: S('billCards'), dataIndex: 'billCards', width: 110, align: 'right', render: (v: number) => formatCount(v) },
          { title: S('costCards'), dataIndex: 'costCards', width: 130, align: 'right', render: (v: number) => formatCount(v) },
          { title: M(F('cost')), dataIndex: 'cost', width: 140, align: 'right', render: (v: string, r) => (r.costCards > 0 ? <MoneyCell v={v} /> : '-') },
          { title: M(F('revenue')), dataIndex: 'revenue', width: 140, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          { title: M(F('margin')), dataIndex: 'margin', width: 140, align: 'right', render: (v: string, r) => (r.costCards > 0 ? <MoneyCell v={v} /> : '-') },
          {
            title: S('operatorBills'), key: 'bills', width: 260,
            render: (_: unknown, r) => (r.operatorBills.length === 0 ? <Typography.Text type="secondary">{S('none')}</Typography.Text> : (
              <Space wrap size={4}>
                {r.operatorBills.map((b) => (
                  <span key={b.operatorBillId}>{nameOf(b.operAccountId, b.accountName)} <StatusTag enumOf={OperatorBillState} value={b.state} colors={STATE_COLORS} /></span>
                ))}
              </Space>
            )),
          },
        ]} />
    </Section>
  );
}
