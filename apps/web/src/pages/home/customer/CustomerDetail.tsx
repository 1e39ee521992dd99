import type { ReactNode } from 'react';
import { Button, Descriptions, Drawer, Result, Skeleton, Space } from 'antd';
import { EditOutlined, TeamOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  account, CustomerLevel, CustomerStatus, InvoiceType, PaymentModel, formatDateTime, formatMoney, type ResponseOf, withZoneLabel,
} from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { StatusTag } from '../../../components/StatusTag.tsx';
import { usePerm } from '../../../components/PermButton.tsx';
import { BalanceStats } from '../../business/capital/shared.tsx';

export type CustomerRecord = ResponseOf<typeof account.getCustomerInfo>;

export const CUSTOMER_STATUS_COLORS: Record<number, string> = {
  [CustomerStatus.Online]: 'blue', [CustomerStatus.MassProduction]: 'green', [CustomerStatus.Mature]: 'cyan', [CustomerStatus.Exited]: 'default',
};
export const CUSTOMER_LEVEL_COLORS: Record<number, string> = { [CustomerLevel.First]: 'geekblue', [CustomerLevel.Second]: 'purple' };

/** A customer's full record (spec §3) with its balances, read fresh from the server. */
export function CustomerDetail({ custId, onClose, onEdit, onAccounts }: {
  custId: number | null;
  onClose: () => void;
  onEdit: (c: CustomerRecord) => void;
  onAccounts: (custId: number) => void;
}) {
  const { t } = useTranslation();
  const canEdit = usePerm(account.updateCustomer.perm);
  const canAccounts = usePerm(account.getAccountListPage.perm);
  const query = useQuery({
    queryKey: [account.getCustomerInfo.name, { custId }],
    queryFn: ({ signal }) => call(account.getCustomerInfo, { custId: custId! }, { signal, silent: true }),
    enabled: custId !== null,
  });
  const c = query.data;
  return (
    <Drawer
      open={custId !== null}
      size={760}
      title={c?.custName ?? t('home.customer.detailTitle')}
      onClose={onClose}
      extra={c && (
        <Space>
          {canAccounts && <Button icon={<TeamOutlined />} onClick={() => onAccounts(c.custId)}>{t('home.customer.viewAccounts')}</Button>}
          {canEdit && <Button type="primary" icon={<EditOutlined />} onClick={() => onEdit(c)}>{t('common.edit')}</Button>}
        </Space>
      )}
    >
      {query.isLoading && <Skeleton active />}
      {(query.isError || (query.isFetched && !c)) && <Result status="404" subTitle={t('common.notFound')} />}
      {c && (
        <>
          <div style={{ marginBottom: 20 }}><BalanceStats b={c} testId="customer-balances" /></div>
          <CustomerInfoBody c={c} />
        </>
      )}
    </Drawer>
  );
}

/** A customer's §3 fields in sections (the drawer here and the business customer detail page). */
export function CustomerInfoBody({ c }: { c: CustomerRecord }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const f = (k: string) => t(`home.customer.fields.${k}`);
  const text = (v: ReactNode) => (v === null || v === undefined || v === '' ? '-' : v);
  // what people typed (names, bank, industry, sales person) shows as typed, in whatever language it was typed
  const typed = (v: string | null) => (v ? <span className="lx-user-text">{v}</span> : v);
  const section = (title: string, items: [string, ReactNode, boolean?][]) => (
    <Descriptions
      size="small"
      bordered
      title={title}
      column={2}
      style={{ marginBottom: 20 }}
      styles={{ label: { width: 150 }, content: { width: 'calc(50% - 150px)', wordBreak: 'break-all' } }}
      items={items.map(([label, value, filled], i) => ({ key: i, label, children: text(value), ...(filled && { span: 'filled' as const }) }))}
    />
  );
  return (
    <>
      {section(t('home.customer.sections.basic'), [
        [f('custId'), c.custId],
        [f('custName'), typed(c.custName)],
        [f('level'), <StatusTag key="l" enumOf={CustomerLevel} value={c.level} colors={CUSTOMER_LEVEL_COLORS} />],
        [t('common.status'), <StatusTag key="s" enumOf={CustomerStatus} value={c.status} colors={CUSTOMER_STATUS_COLORS} />],
        [f('parentCustName'), typed(c.parentCustName)],
        [f('businessUnit'), typed(c.businessUnit)],
      ])}
      {section(t('home.customer.sections.admin'), [
        [f('adminName'), typed(c.adminName)],
        [f('adminPhone'), c.adminPhone],
        [f('adminEmail'), c.adminEmail, true],
      ])}
      {section(t('home.customer.sections.enterprise'), [
        [f('businessLicense'), c.businessLicense],
        [f('website'), c.website],
        [f('registeredCapital'), c.registeredCapital === null ? null : formatMoney(c.registeredCapital)],
        [f('invoiceType'), c.invoiceType === null ? null : InvoiceType.label(c.invoiceType, lang)],
        [f('taxNumber'), c.taxNumber],
        [f('paymentModel'), c.paymentModel === null ? null : PaymentModel.label(c.paymentModel, lang)],
        [f('bankName'), typed(c.bankName)],
        [f('bankAccount'), c.bankAccount],
        [f('industryLevel1'), typed(c.industryLevel1)],
        [f('industryLevel2'), typed(c.industryLevel2)],
        [f('industryAttribute'), typed(c.industryAttribute), true],
      ])}
      {section(t('home.customer.sections.sales'), [
        [f('salesName'), typed(c.salesName)],
        [f('salesPhone'), c.salesPhone],
        [f('salesEmail'), c.salesEmail, true],
        [t('common.remark'), typed(c.remark), true],
        [withZoneLabel(t('common.createdAt')), formatDateTime(c.createdAt)],
        [withZoneLabel(t('common.updatedAt')), formatDateTime(c.updatedAt)],
      ])}
    </>
  );
}
