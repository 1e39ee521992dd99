import { useState } from 'react';
import { Button, DatePicker, Space, Typography } from 'antd';
import { CalculatorOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BillLineCategory, BillPublishState, BillStatus, Perm, STAFF_ROLE_TYPES, bill } from '@lynx/contract';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { useSession } from '../../../../stores/session.ts';
import { CustomerSelect } from '../../../home/customer/CustomerSelect.tsx';
import { MoneyCell } from '../../../business/capital/shared.tsx';
import { BILL_STATUS_COLORS, CATEGORY_FIELDS, PUBLISH_COLORS, WithHelp, billFilters, billPaths, daysInclusive, isPositive, type BillRow } from '../shared.tsx';
import { RunBillsModal } from '../RunBillsModal.tsx';
import { useBillActions } from '../useBillActions.tsx';

const { BillPerm } = bill;

/**
 * /billing/bill/list/:tab? (4020000): customers' spending bills with their status, publish state, totals and arrears;
 * expenses by category in columns the table scrolls to. Staff run a closed period's bills, publish a checked bill and re-run an
 * unpublished one. The :tab sub-path (spending, fenrun) is no tab of its own (spec §2): every sub-path lists these bills.
 */
export default function BillList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const staff = useSession((s) => s.roleId !== null && STAFF_ROLE_TYPES.includes(s.roleId));
  const canCustomers = usePerm([Perm.HomeCustomer, Perm.BusinessCustomer]);
  const canPublish = usePerm(BillPerm.Publish);
  const canRun = usePerm(BillPerm.Run);
  const canExport = usePerm(BillPerm.Export);
  const table = useSearchTable(bill.getBillListPage, { transform: billFilters });
  const [runsOpen, setRunsOpen] = useState(false);
  // a re-run rates in the background: the list shows the new totals as they land
  const { publish, rerun } = useBillActions(() => {
    void table.refresh();
    for (const ms of [1500, 4000, 8000]) setTimeout(() => void table.refresh(), ms);
  });
  const F = (k: string) => t(`bill.f.${k}`);
  const M = (k: string) => t('money.withCurrency', { label: F(k) });

  const fields: SearchField[] = [
    { name: 'period', label: F('period'), type: 'custom', control: <DatePicker picker="month" style={{ width: '100%' }} placeholder={t('bill.list.pickMonth')} /> },
    staff || canCustomers
      ? { name: 'custId', label: F('customer'), type: 'custom', control: <CustomerSelect allowClear placeholder={t('common.all')} /> }
      : { name: 'custName', label: F('customer') },
    { name: 'status', label: F('status'), type: 'enum', enumOf: BillStatus },
    { name: 'published', label: F('published'), type: 'enum', enumOf: BillPublishState },
    { name: 'billNo', label: F('billNo') },
  ];

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 12px' }}>{t(staff ? 'bill.list.introStaff' : 'bill.list.intro', { days: bill.BILL_DUE_DAYS })}</Typography.Paragraph>
      <SearchTable<BillRow>
        table={table}
        title={t('bill.list.title')}
        rowKey="billId"
        listKey="/billing/bill/list"
        emptyHint={t(canRun ? 'bill.list.emptyHintStaff' : 'bill.list.emptyHint')}
        fields={fields}
        exportVia={canExport ? bill.exportBills : undefined}
        toolbar={canRun && (
          <PermButton perm={BillPerm.Run} type="primary" icon={<CalculatorOutlined />} onClick={() => setRunsOpen(true)} data-testid="bill-run">{t('bill.action.run')}</PermButton>
        )}
        columns={[
          { title: F('billNo'), dataIndex: 'billNo', width: 180, fixed: 'left', render: (v: string, r) => <Link to={billPaths.detail(r.billId)} data-testid={`bill-no-${r.billId}`}>{v}</Link> },
          {
            title: F('period'), dataIndex: 'periodKey', width: 110,
            render: (v: string, r) => <WithHelp label={v} help={t('bill.f.periodRange', { from: r.periodFrom, to: r.periodTo, days: daysInclusive(r.periodFrom, r.periodTo) })} />,
          },
          { title: F('customer'), dataIndex: 'custName', width: 180, ellipsis: true },
          { title: F('status'), dataIndex: 'status', width: 130, render: (v: number) => <span data-testid="bill-status"><StatusTag enumOf={BillStatus} value={v} colors={BILL_STATUS_COLORS} /></span> },
          { title: F('published'), dataIndex: 'published', width: 100, render: (v: number) => <span data-testid="bill-published"><StatusTag enumOf={BillPublishState} value={v} colors={PUBLISH_COLORS} /></span> },
          { title: M('total'), dataIndex: 'total', width: 130, align: 'right', render: (v: string) => <Typography.Text strong><MoneyCell v={v} /></Typography.Text> },
          { title: M('arrears'), dataIndex: 'arrears', width: 130, align: 'right', render: (v: string) => <Typography.Text strong={isPositive(v)} type={isPositive(v) ? 'danger' : undefined}><MoneyCell v={v} /></Typography.Text> },
          { title: <WithHelp label={F('dueDate')} help={t('bill.help.dueDate', { days: bill.BILL_DUE_DAYS })} />, dataIndex: 'dueDate', width: 130, render: (v: string | null) => v ?? '-' },
          { title: F('cardCount'), dataIndex: 'cardCount', width: 80, align: 'right' },
          // the expenses by category (spec §3), tax included; the table scrolls sideways past them
          ...CATEGORY_FIELDS.map(({ key, category }) => ({
            title: t('money.withCurrency', { label: BillLineCategory.label(category, lang) }), key, width: 130, align: 'right' as const,
            render: (_: unknown, r: BillRow) => <MoneyCell v={r.categories[key]} />,
          })),
          { title: <WithHelp label={M('withheld')} help={t('bill.help.withheld')} />, dataIndex: 'withheld', width: 150, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          { title: <WithHelp label={M('amountDue')} help={t('bill.help.amountDue')} />, dataIndex: 'amountDue', width: 160, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          { title: M('writtenOff'), dataIndex: 'writtenOff', width: 130, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          ...(canPublish || canRun ? [{
            title: t('common.actions'), key: 'actions', fixed: 'right' as const, width: (canPublish ? 64 : 0) + (canRun ? 76 : 0) + 16,
            render: (_: unknown, r: BillRow) => (r.published === BillPublishState.Unpublished ? (
              <Space size={0}>
                {canPublish && <Button type="link" size="small" onClick={() => publish(r)} data-testid={`bill-publish-${r.billId}`}>{t('bill.action.publish')}</Button>}
                {canRun && <Button type="link" size="small" onClick={() => rerun(r)} data-testid={`bill-rerun-${r.billId}`}>{t('bill.action.rerun')}</Button>}
              </Space>
            ) : '-'),
          }] : []),
        ]}
      />
      {canRun && <RunBillsModal open={runsOpen} onClose={() => { setRunsOpen(false); void table.refresh(); }} onRunFinished={() => void table.refresh()} />}
    </>
  );
}
