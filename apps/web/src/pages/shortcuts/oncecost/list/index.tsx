import { useState } from 'react';
import { App, Button, Typography, type ButtonProps } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { OneOffFeeState, bill, formatDateTime, formatMoney, withZoneLabel, type ResponseOf } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { CustomerSelect } from '../../../home/customer/CustomerSelect.tsx';
import { MoneyCell } from '../../../business/capital/shared.tsx';
import { billPaths } from '../../../billing/bill/shared.tsx';
import { AddFeeModal } from '../AddFeeModal.tsx';

type FeeRow = ResponseOf<typeof bill.getOneOffFeeListPage>['list'][number];
const { BillPerm } = bill;
export const FEE_STATE_COLORS: Record<number, string> = { [OneOffFeeState.Pending]: 'processing', [OneOffFeeState.Billed]: 'success', [OneOffFeeState.Cancelled]: 'default' };

/**
 * /shortcuts/oncecost/list (6090000): one-off fees put on a customer or one of its cards; the customer's next bill run
 * charges a pending one. Staff with 6090001 add fees and cancel pending ones.
 */
export default function OneOffFeeList() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const canAdd = usePerm(BillPerm.OneOffAdd);
  const canBills = usePerm(BillPerm.Page);
  const table = useSearchTable(bill.getOneOffFeeListPage);
  const [adding, setAdding] = useState(false);
  const O = (k: string, o?: Record<string, unknown>) => t(`bill.oneOff.${k}`, o);

  const cancel = (r: FeeRow) => modal.confirm({
    title: O('cancelTitle'),
    content: O('cancelConfirm', { cust: r.custName, amount: formatMoney(r.amount), reason: r.reason }),
    okText: O('cancel'),
    okButtonProps: { danger: true, 'data-testid': 'one-off-cancel-confirm' } as ButtonProps,
    cancelText: t('common.cancel'),
    onOk: async () => {
      try {
        await call(bill.cancelOneOffFee, { feeId: r.feeId });
        message.success(O('cancelled'));
      } finally {
        void table.refresh();
      }
    },
  });

  const fields: SearchField[] = [
    { name: 'custId', label: O('customer'), type: 'custom', control: <CustomerSelect allowClear placeholder={t('common.all')} /> },
    { name: 'iccid', label: 'ICCID' },
    { name: 'state', label: O('state'), type: 'enum', enumOf: OneOffFeeState },
  ];

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 12px' }}>{O('intro')}</Typography.Paragraph>
      <SearchTable<FeeRow>
        table={table}
        title={O('title')}
        rowKey="feeId"
        emptyHint={O(canAdd ? 'emptyHintStaff' : 'emptyHint')}
        fields={fields}
        toolbar={<PermButton perm={BillPerm.OneOffAdd} type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="one-off-add">{O('add')}</PermButton>}
        columns={[
          { title: O('customer'), dataIndex: 'custName', width: 200, ellipsis: true, fixed: 'left' },
          { title: 'ICCID', dataIndex: 'iccid', width: 200, render: (v: string | null) => (v ? <span translate="no">{v}</span> : <Typography.Text type="secondary">{O('wholeCustomer')}</Typography.Text>) },
          { title: t('money.withCurrency', { label: O('amount') }), dataIndex: 'amount', width: 140, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          { title: O('state'), dataIndex: 'state', width: 110, render: (v: number) => <span data-testid="one-off-state"><StatusTag enumOf={OneOffFeeState} value={v} colors={FEE_STATE_COLORS} /></span> },
          { title: O('feeDay'), dataIndex: 'feeDay', width: 120 },
          {
            title: O('bill'), dataIndex: 'billNo', width: 190,
            render: (v: string | null, r) => (v && r.billId ? (canBills ? <Link to={billPaths.detail(r.billId)}>{v}</Link> : v) : '-'),
          },
          { title: O('reason'), dataIndex: 'reason', width: 240, ellipsis: true },
          { title: O('taxRate'), dataIndex: 'taxRate', width: 90, align: 'right', render: (v: number) => `${v}%` },
          { title: O('createdBy'), dataIndex: 'createdBy', width: 120 },
          { title: withZoneLabel(O('createdAt')), dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
          ...(canAdd ? [{
            title: t('common.actions'), key: 'actions', fixed: 'right' as const, width: 100,
            render: (_: unknown, r: FeeRow) => (r.state === OneOffFeeState.Pending
              ? <Button type="link" size="small" danger onClick={() => cancel(r)} data-testid={`one-off-cancel-${r.feeId}`}>{O('cancel')}</Button>
              : '-'),
          }] : []),
        ]}
      />
      <AddFeeModal open={adding} onClose={() => setAdding(false)} onSaved={() => void table.refresh()} />
    </>
  );
}
