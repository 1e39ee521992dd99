import type { ReactNode } from 'react';
import { Button, Descriptions, Drawer, Result, Skeleton, Space, Statistic, Row, Col } from 'antd';
import { EditOutlined, TeamOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  account, CustomerLevel, CustomerStatus, InvoiceType, PaymentModel, formatDateTime, formatMoney, type ResponseOf, withZoneLabel,
} from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { StatusTag } from '../../../components/StatusTag.tsx';
import { usePerm } from '../../../components/PermButton.tsx';

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
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const canEdit = usePerm(account.updateCustomer.perm);
  const canAccounts = usePerm(account.getAccountListPage.perm);
  const query = useQuery({
    queryKey: [account.getCustomerInfo.name, { custId }],
    queryFn: ({ signal }) => call(account.getCustomerInfo, { custId: custId! }, { signal, silent: true }),
    enabled: custId !== null,
  });
  const c = query.data;
  const f = (k: string) => t(`home.customer.fields.${k}`);
  const text = (v: ReactNode) => (v === null || v === undefined || v === '' ? '-' : v);
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
          <Row gutter={16} style={{ marginBottom: 20 }}>
            {([['preDeposit', c.preDeposit], ['grants', c.grants], ['contractPayment', c.contractPayment], ['credit', c.credit]] as const).map(([k, v]) => (
              <Col xs={12} md={6} key={k}>
                <Statistic title={`${f(k)} (${t('home.customer.currency')})`} value={formatMoney(v)} />
              </Col>
            ))}
          </Row>
          {section(t('home.customer.sections.basic'), [
            [f('custId'), c.custId],
            [f('custName'), c.custName],
            [f('level'), <StatusTag key="l" enumOf={CustomerLevel} value={c.level} colors={CUSTOMER_LEVEL_COLORS} />],
            [t('common.status'), <StatusTag key="s" enumOf={CustomerStatus} value={c.status} colors={CUSTOMER_STATUS_COLORS} />],
            [f('parentCustName'), c.parentCustName],
            [f('businessUnit'), c.businessUnit],
          ])}
          {section(t('home.customer.sections.admin'), [
            [f('adminName'), c.adminName],
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
            [f('bankName'), c.bankName],
            [f('bankAccount'), c.bankAccount],
            [f('industryLevel1'), c.industryLevel1],
            [f('industryLevel2'), c.industryLevel2],
            [f('industryAttribute'), c.industryAttribute, true],
          ])}
          {section(t('home.customer.sections.sales'), [
            [f('salesName'), c.salesName],
            [f('salesPhone'), c.salesPhone],
            [f('salesEmail'), c.salesEmail, true],
            [t('common.remark'), c.remark, true],
            [withZoneLabel(t('common.createdAt')), formatDateTime(c.createdAt)],
            [withZoneLabel(t('common.updatedAt')), formatDateTime(c.updatedAt)],
          ])}
        </>
      )}
    </Drawer>
  );
}
