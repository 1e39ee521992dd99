import { useEffect, useState } from 'react';
import { Space, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { account, capital, CustomerLevel, CustomerStatus, formatDateTime, withZoneLabel } from '@lynx/contract';
import { SearchTable } from '../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../components/useSearchTable.ts';
import { StatusTag } from '../../../components/StatusTag.tsx';
import { PermButton, usePerm } from '../../../components/PermButton.tsx';
import { CustomerForm } from './CustomerForm.tsx';
import { CUSTOMER_LEVEL_COLORS, CUSTOMER_STATUS_COLORS, CustomerDetail, type CustomerRecord } from './CustomerDetail.tsx';
import { BalanceTitle, MoneyCell, balanceColumns, capitalDetailPath } from '../../business/capital/shared.tsx';

/**
 * Customers in the user's scope (staff: all; a channel customer: its own tree) with create, edit, detail. The
 * business variant (/business/customer/list, /shortcuts/customer) shows all six balances and opens the detail page.
 */
export function CustomerList({ variant = 'home' }: { variant?: 'home' | 'business' }) {
  const business = variant === 'business';
  const canCapital = usePerm(capital.getCapitalLedgerPage.perm);
  const { t } = useTranslation();
  const navigate = useNavigate();
  const table = useSearchTable(account.getCustomerListPage);
  const canEdit = usePerm(account.updateCustomer.perm);
  const canAccounts = usePerm(account.getAccountListPage.perm);
  const [detailId, setDetailId] = useState<number | null>(null);
  // ?custId= opens that customer's detail (the header search links here); closing it drops the parameter
  const [params, setParams] = useSearchParams();
  useEffect(() => {
    const id = Number(params.get('custId'));
    if (Number.isInteger(id) && id > 0) setDetailId(id);
  }, [params]);
  const closeDetail = () => {
    setDetailId(null);
    if (params.has('custId')) setParams({}, { replace: true });
  };
  const [form, setForm] = useState<{ record: CustomerRecord | null } | null>(null);
  const toAccounts = (custId: number) => navigate(business ? `/business/account/detail/${custId}` : `/home/account/list/${custId}`);
  const open = (custId: number) => (business ? navigate(`/business/customer/detail/${custId}`) : setDetailId(custId));
  const f = (k: string) => t(`home.customer.fields.${k}`);

  return (
    <>
      <SearchTable<CustomerRecord>
        table={table}
        title={business ? t('money.customer.title') : t('home.customer.title')}
        exportSource={account.getCustomerListPage}
        rowKey="custId"
        emptyHint={canEdit ? t('home.customer.emptyHint') : undefined}
        toolbar={
          <PermButton perm={account.saveCustomer.perm ?? []} type="primary" icon={<PlusOutlined />} onClick={() => setForm({ record: null })} data-testid="customer-create">
            {t('home.customer.create')}
          </PermButton>
        }
        fields={[
          { name: 'custName', label: f('custName') },
          { name: 'status', label: t('common.status'), type: 'enum', enumOf: CustomerStatus },
          { name: 'level', label: f('level'), type: 'enum', enumOf: CustomerLevel },
        ]}
        columns={[
          {
            title: f('custName'), dataIndex: 'custName', sorter: true, fixed: 'left', width: 220, ellipsis: true,
            render: (v: string, row) => <a onClick={() => open(row.custId)} data-testid={`customer-row-${row.custId}`}>{v}</a>,
          },
          { title: f('parentCustName'), dataIndex: 'parentCustName', width: 200, ellipsis: true, render: (v) => v ?? '-' },
          { title: f('level'), dataIndex: 'level', width: 130, render: (v: number) => <StatusTag enumOf={CustomerLevel} value={v} colors={CUSTOMER_LEVEL_COLORS} /> },
          { title: t('common.status'), dataIndex: 'status', sorter: true, width: 120, render: (v: number) => <StatusTag enumOf={CustomerStatus} value={v} colors={CUSTOMER_STATUS_COLORS} /> },
          { title: f('adminName'), dataIndex: 'adminName', width: 120, ellipsis: true },
          { title: f('adminPhone'), dataIndex: 'adminPhone', width: 150, ellipsis: true },
          { title: f('adminEmail'), dataIndex: 'adminEmail', width: 220, ellipsis: true },
          ...(business
            ? balanceColumns<CustomerRecord>()
            : [
              { title: <BalanceTitle k="preDeposit" />, dataIndex: 'preDeposit', width: 150, align: 'right' as const, render: (v: string) => <MoneyCell v={v} /> },
              { title: <BalanceTitle k="credit" />, dataIndex: 'credit', width: 150, align: 'right' as const, render: (v: string) => <MoneyCell v={v} /> },
            ]),
          { title: withZoneLabel(t('common.createdAt')), dataIndex: 'createdAt', sorter: true, width: 170, render: (v) => formatDateTime(v) },
          {
            title: t('common.actions'), key: 'actions', fixed: 'right', width: business ? 260 : 200,
            render: (_v, row) => (
              <Space size="small">
                <a onClick={() => open(row.custId)}>{t('common.detail')}</a>
                {business && canCapital && <Typography.Link onClick={() => navigate(capitalDetailPath(row.custId))}>{t('money.customer.capital')}</Typography.Link>}
                {canEdit && <a onClick={() => setForm({ record: row })}>{t('common.edit')}</a>}
                {canAccounts && <Typography.Link onClick={() => toAccounts(row.custId)}>{t('home.customer.accounts')}</Typography.Link>}
              </Space>
            ),
          },
        ]}
      />
      <CustomerDetail
        custId={detailId}
        onClose={closeDetail}
        onEdit={(c) => setForm({ record: c })}
        onAccounts={(id) => {
          closeDetail();
          toAccounts(id);
        }}
      />
      <CustomerForm open={form !== null} record={form?.record ?? null} onClose={() => setForm(null)} />
    </>
  );
}
