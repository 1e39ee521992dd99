import { useState } from 'react';
import { Button, Empty, Result, Skeleton, Space, Table, Typography } from 'antd';
import { ArrowLeftOutlined, DollarOutlined, EditOutlined, SafetyCertificateOutlined, TeamOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import {
  account, AccountStatus, capital, credit, CustomerLevel, CustomerStatus, Perm, plan, STAFF_ROLE_TYPES, TariffType, formatDateTime, formatMoney, withZoneLabel,
} from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { usePerm } from '../../../../components/PermButton.tsx';
import { useSession } from '../../../../stores/session.ts';
import { CUSTOMER_STATUS_COLORS, CustomerInfoBody } from '../../../home/customer/CustomerDetail.tsx';
import { CustomerForm } from '../../../home/customer/CustomerForm.tsx';
import { BalanceStats, MoneyCell, capitalDetailPath } from '../../capital/shared.tsx';
import { Section } from '../../../../components/Section.tsx';

const PREVIEW = 10;

/**
 * /business/customer/detail/:channelCustId: one enterprise customer: its §3 fields and balances, its second-level
 * customers, its accounts and the plans released to it (each list the first rows, with a link to the whole list).
 */
export default function BusinessCustomerDetail() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const id = Number(useParams().channelCustId);
  const custId = Number.isInteger(id) && id > 0 ? id : 0;
  const staff = useSession((s) => s.roleId !== null && STAFF_ROLE_TYPES.includes(s.roleId));
  const ownCustId = useSession((s) => s.custId);
  const canEdit = usePerm(account.updateCustomer.perm);
  const canAccounts = usePerm(account.getAccountListPage.perm);
  const canCapital = usePerm(capital.getCapitalLedgerPage.perm);
  const canCredit = usePerm(credit.getCreditListPage.perm);
  const canPlans = usePerm(Perm.PackageManage);
  const [editing, setEditing] = useState(false);
  const M = (k: string) => t(`money.customer.${k}`);

  const info = useQuery({
    queryKey: [account.getCustomerInfo.name, { custId }],
    queryFn: ({ signal }) => call(account.getCustomerInfo, { custId }, { signal, silent: true }),
    enabled: custId > 0,
  });
  const c = info.data;
  const childrenBody = { parentCustId: custId, current: 1, pageSize: PREVIEW };
  const children = useQuery({
    queryKey: [account.getCustomerListPage.name, childrenBody],
    queryFn: ({ signal }) => call(account.getCustomerListPage, childrenBody, { signal, silent: true }),
    enabled: !!c && c.level === CustomerLevel.First,
  });
  const accountsBody = { custId, current: 1, pageSize: PREVIEW };
  const accounts = useQuery({
    queryKey: [account.getAccountListPage.name, accountsBody],
    queryFn: ({ signal }) => call(account.getAccountListPage, accountsBody, { signal, silent: true }),
    enabled: !!c && canAccounts,
  });
  // staff read the plans released to this customer; a customer reads its own tenant's plans
  const showPlans = canPlans && (staff || custId === ownCustId);
  const plansBody = { ...(staff ? { custId } : {}), current: 1, pageSize: PREVIEW };
  const plans = useQuery({
    queryKey: [plan.getBasicPlanListPage.name, plansBody],
    queryFn: ({ signal }) => call(plan.getBasicPlanListPage, plansBody, { signal, silent: true }),
    enabled: !!c && showPlans,
  });
  const back = <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/business/customer/list')}>{M('back')}</Button>;

  if (!custId || info.isError || (info.isFetched && !c)) {
    return <div className="lx-card"><Result status="404" subTitle={t('common.notFound')} extra={back} /></div>;
  }
  if (!c) return <div className="lx-card"><Skeleton active /></div>;
  const more = (total: number | undefined, to: string) => (total !== undefined && total > PREVIEW ? <Link to={to}>{M('viewAll')} ({total})</Link> : null);

  return (
    <div data-testid="business-customer-detail">
      <div className="lx-card">
        <div style={{ display: 'flex', alignItems: 'center', gap: 8, flexWrap: 'wrap', marginBottom: 16 }}>
          {back}
          <Typography.Title level={5} style={{ margin: 0 }}>{c.custName}</Typography.Title>
          <StatusTag enumOf={CustomerStatus} value={c.status} colors={CUSTOMER_STATUS_COLORS} />
          <Space wrap style={{ marginLeft: 'auto' }}>
            {canCapital && <Button icon={<DollarOutlined />} onClick={() => navigate(capitalDetailPath(c.custId))}>{M('capital')}</Button>}
            {canCredit && <Button icon={<SafetyCertificateOutlined />} onClick={() => navigate(`/financial/credit/list?custId=${c.custId}`)}>{M('credit')}</Button>}
            {canAccounts && <Button icon={<TeamOutlined />} onClick={() => navigate(`/business/account/detail/${c.custId}`)}>{t('home.customer.viewAccounts')}</Button>}
            {canEdit && <Button type="primary" icon={<EditOutlined />} onClick={() => setEditing(true)}>{t('common.edit')}</Button>}
          </Space>
        </div>
        <Typography.Title level={5} style={{ marginTop: 0 }}>{M('balances')}</Typography.Title>
        <div style={{ marginBottom: 20 }}><BalanceStats b={c} testId="customer-balances" /></div>
        <CustomerInfoBody c={c} />
      </div>

      {c.level === CustomerLevel.First && (
        <Section title={M('children')} testId="customer-children" extra={more(children.data?.total, '/business/customer/list')}>
          <Table
            size="small"
            rowKey="custId"
            pagination={false}
            loading={children.isLoading}
            dataSource={children.data?.list ?? []}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={M('childrenEmpty')} /> }}
            columns={[
              { title: t('home.customer.fields.custName'), dataIndex: 'custName', render: (v: string, r) => <Link to={`/business/customer/detail/${r.custId}`}>{v}</Link> },
              { title: t('common.status'), dataIndex: 'status', render: (v: number) => <StatusTag enumOf={CustomerStatus} value={v} colors={CUSTOMER_STATUS_COLORS} /> },
              { title: t('money.withCurrency', { label: t('money.balance.preDeposit') }), dataIndex: 'preDeposit', align: 'right', render: (v: string) => <MoneyCell v={v} /> },
              { title: t('money.withCurrency', { label: t('money.balance.available') }), dataIndex: 'available', align: 'right', render: (v: string) => <MoneyCell v={v} /> },
            ]}
          />
        </Section>
      )}

      {canAccounts && (
        <Section title={M('accounts')} testId="customer-accounts" extra={more(accounts.data?.total, `/business/account/detail/${c.custId}`)}>
          <Table
            size="small"
            rowKey="accountId"
            pagination={false}
            loading={accounts.isLoading}
            dataSource={accounts.data?.list ?? []}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={M('accountsEmpty')} /> }}
            columns={[
              { title: M('loginName'), dataIndex: 'loginName' },
              { title: M('userName'), dataIndex: 'userName' },
              { title: M('role'), dataIndex: 'roleName' },
              { title: M('status'), dataIndex: 'status', render: (v: number) => <StatusTag enumOf={AccountStatus} value={v} /> },
              { title: withZoneLabel(t('common.createdAt')), dataIndex: 'createdAt', render: (v: string) => formatDateTime(v) },
            ]}
          />
        </Section>
      )}

      {showPlans && (
        <Section title={M('plans')} testId="customer-plans" extra={more(plans.data?.total, '/billing/package/list')}>
          <Table
            size="small"
            rowKey="goodsReleaseId"
            pagination={false}
            loading={plans.isLoading}
            dataSource={plans.data?.list ?? []}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={M('plansEmpty')} /> }}
            columns={[
              { title: M('planName'), dataIndex: 'name', render: (v: string, r) => <Link className="lx-user-text" to={`/billing/package/basicdetail/${r.goodsReleaseId}/${r.tariffType}`}>{v}</Link> },
              { title: M('planCode'), dataIndex: 'code' },
              { title: t('plan.fields.tariffType'), dataIndex: 'tariffType', render: (v: number) => TariffType.label(v, lang) },
              { title: M('salePrice'), dataIndex: 'salePrice', align: 'right', render: (v: string) => formatMoney(v) },
            ]}
          />
        </Section>
      )}

      <CustomerForm open={editing} record={editing ? c : null} onClose={() => { setEditing(false); void info.refetch(); }} />
    </div>
  );
}
