import { useState } from 'react';
import { Button, DatePicker, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { BillStatus, Perm, STAFF_ROLE_TYPES, bill, formatDateTime, withZoneLabel, type ResponseOf } from '@lynx/contract';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { usePerm } from '../../../../components/PermButton.tsx';
import { useSession } from '../../../../stores/session.ts';
import { CustomerSelect } from '../../../home/customer/CustomerSelect.tsx';
import { MoneyCell } from '../../../business/capital/shared.tsx';
import { BILL_STATUS_COLORS, WRITE_OFF_TABS, WithHelp, billFilters, billPaths, isPositive, writeOffTabOf, type WriteOffTabName } from '../../../billing/bill/shared.tsx';
import { WriteOffModal, type WriteOffTarget } from '../WriteOffModal.tsx';

type WriteOffRow = ResponseOf<typeof bill.getWriteOffListPage>['list'][number];
const { BillPerm } = bill;

/** One tab's bills: published bills with money due, written off, or overdue. */
function WriteOffTable({ tab }: { tab: WriteOffTabName }) {
  const { t } = useTranslation();
  const staff = useSession((s) => s.roleId !== null && STAFF_ROLE_TYPES.includes(s.roleId));
  const canCustomers = usePerm([Perm.HomeCustomer, Perm.BusinessCustomer]);
  const canDo = usePerm(BillPerm.WriteOffDo);
  const canBills = usePerm(BillPerm.Page);
  const table = useSearchTable(bill.getWriteOffListPage, { fixed: { tab: WRITE_OFF_TABS[tab] }, transform: billFilters });
  const [writing, setWriting] = useState<WriteOffTarget | null>(null);
  const F = (k: string) => t(`bill.f.${k}`);
  const M = (k: string) => t('money.withCurrency', { label: F(k) });
  const pickCustomer = staff || canCustomers;
  const fields: SearchField[] = [
    { name: 'period', label: F('period'), type: 'custom', control: <DatePicker picker="month" style={{ width: '100%' }} placeholder={t('bill.list.pickMonth')} /> },
    pickCustomer
      ? { name: 'custId', label: F('customer'), type: 'custom', control: <CustomerSelect allowClear placeholder={t('common.all')} /> }
      : { name: 'custName', label: F('customer') },
  ];
  const open = tab !== 'done';
  return (
    <>
      <SearchTable<WriteOffRow>
        table={table}
        title={t(`bill.writeOff.tabs.${tab}`)}
        rowKey="billId"
        listKey={`/financial/cancel-bill/list/${tab}`}
        emptyHint={t(`bill.writeOff.empty.${tab}`)}
        fields={fields}
        columns={[
          {
            title: F('billNo'), dataIndex: 'billNo', width: 190, fixed: 'left',
            render: (v: string, r) => (canBills ? <Link to={billPaths.detail(r.billId)} data-testid={`write-off-bill-${r.billId}`}>{v}</Link> : v),
          },
          { title: F('period'), dataIndex: 'periodKey', width: 100 },
          { title: F('customer'), dataIndex: 'custName', width: 180, ellipsis: true },
          { title: F('status'), dataIndex: 'status', width: 130, render: (v: number) => <StatusTag enumOf={BillStatus} value={v} colors={BILL_STATUS_COLORS} /> },
          { title: M('arrears'), dataIndex: 'arrears', width: 150, align: 'right', render: (v: string) => <Typography.Text strong={isPositive(v)}><MoneyCell v={v} /></Typography.Text> },
          ...(open ? [{
            title: <WithHelp label={M('payable')} help={t('bill.help.payable')} />, dataIndex: 'payable', width: 170, align: 'right' as const,
            render: (v: string) => <MoneyCell v={v} />,
          }] : []),
          { title: <WithHelp label={F('dueDate')} help={t('bill.help.dueDate', { days: bill.BILL_DUE_DAYS })} />, dataIndex: 'dueDate', width: 130, render: (v: string | null) => v ?? '-' },
          { title: M('amountDue'), dataIndex: 'amountDue', width: 150, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          { title: M('writtenOff'), dataIndex: 'writtenOff', width: 150, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          ...(!open ? [{ title: withZoneLabel(F('writtenOffAt')), dataIndex: 'writtenOffAt', width: 170, render: (v: string | null) => (v ? formatDateTime(v) : '-') }] : []),
          ...(canDo && open ? [{
            title: t('common.actions'), key: 'actions', fixed: 'right' as const, width: 110,
            render: (_: unknown, r: WriteOffRow) => (isPositive(r.arrears) ? (
              <Button type="link" size="small" data-testid={`write-off-${r.billId}`}
                onClick={() => setWriting({ billId: r.billId, billNo: r.billNo, custName: r.custName, periodKey: r.periodKey, dueDate: r.dueDate, arrears: r.arrears, payable: r.payable })}>
                {t('bill.action.writeOff')}
              </Button>
            ) : '-'),
          }] : []),
        ]}
      />
      <WriteOffModal target={writing} onClose={() => setWriting(null)} onDone={() => void table.refresh()} />
    </>
  );
}

/** /financial/cancel-bill/list/:tab? (9020000): bills to write off, written off and overdue; write off from grants and pre-deposit. */
export default function WriteOffList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const active = writeOffTabOf(useParams().tab);
  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 12px' }}>{t('bill.writeOff.intro', { days: bill.BILL_DUE_DAYS })}</Typography.Paragraph>
      <Tabs
        activeKey={active}
        onChange={(k) => navigate(billPaths.writeOff(k as WriteOffTabName), { replace: true })}
        destroyOnHidden
        items={(Object.keys(WRITE_OFF_TABS) as WriteOffTabName[]).map((k) => ({
          key: k, label: <span data-testid={`write-off-tab-${k}`}>{t(`bill.writeOff.tabs.${k}`)}</span>, children: <WriteOffTable tab={k} />,
        }))}
      />
    </>
  );
}
