import { useMemo, useState } from 'react';
import { LiveText } from '../../../../request/LiveText.tsx';
import { App, Button, Result, Space, Typography } from 'antd';
import { PlusOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { account, AccountStatus, FreezeAction, formatDateTime, withZoneLabel } from '@lynx/contract';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { call } from '../../../../request/http.ts';
import { useSession } from '../../../../stores/session.ts';
import { ACCOUNT_STATUS_COLORS, nextFreezeAction, parseCustId, roleLabel } from '../helpers.ts';
import { FreezeModal, invalidateAccounts } from '../FreezeModal.tsx';
import { OneTimePassword } from '../OneTimePassword.tsx';
import { AccountForm, type AccountRecord } from './AccountForm.tsx';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

/** /home/account/list/:channelCustId?: accounts in the user's scope; with a customer id, that customer's accounts. */
export default function AccountList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const { modal, message } = App.useApp();
  const qc = useQueryClient();
  const me = useSession((s) => s.loginName);
  const canManage = usePerm(account.saveAccount.perm);
  const parsed = parseCustId(useParams().channelCustId);
  const fixedCustId = typeof parsed === 'number' ? parsed : null;
  const fixed = useMemo(() => (fixedCustId !== null ? { custId: fixedCustId } : undefined), [fixedCustId]);
  const table = useSearchTable(account.getAccountListPage, { fixed });
  const customer = useQuery({
    queryKey: [account.getCustomerInfo.name, { custId: fixedCustId }],
    queryFn: ({ signal }) => call(account.getCustomerInfo, { custId: fixedCustId! }, { signal, silent: true }),
    enabled: fixedCustId !== null,
  });
  usePageTitle(customer.data?.custName);
  const roleBody = fixed ?? {};
  const roles = useQuery({
    queryKey: [account.getRoleList.name, roleBody],
    queryFn: ({ signal }) => call(account.getRoleList, roleBody, { signal, silent: fixedCustId !== null }),
  });
  const [form, setForm] = useState<{ record: AccountRecord | null } | null>(null);
  const [freezing, setFreezing] = useState<AccountRecord | null>(null);
  const [oneTime, setOneTime] = useState<{ loginName: string; password: string } | null>(null);

  if (parsed === 'invalid' || customer.isError) {
    return (
      <div className="lx-card">
        <Result status="404" subTitle={t('home.account.customerNotFound')}
          extra={<Button type="primary" onClick={() => navigate('/home/account/list')}>{t('home.account.allAccounts')}</Button>} />
      </div>
    );
  }

  const resetPassword = (row: AccountRecord) =>
    modal.confirm({
      title: t('home.account.resetConfirm', { loginName: row.loginName }),
      content: t('home.account.resetConfirmHint'),
      okText: t('home.account.resetPassword'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          const res = await call(account.resetAccountPassword, { loginName: row.loginName });
          invalidateAccounts(qc);
          if (res) setOneTime({ loginName: row.loginName, password: res.password });
        } catch {
          /* the request layer shows why */
        }
      },
    });

  const title = fixedCustId !== null
    ? t('home.account.titleOf', { name: customer.data?.custName ?? `#${fixedCustId}` })
    : t('home.account.title');
  return (
    <>
      <SearchTable<AccountRecord>
        table={table}
        title={title}
        exportSource={account.getAccountListPage}
        rowKey="accountId"
        emptyHint={canManage ? t('home.account.emptyHint') : undefined}
        toolbar={
          <>
            {fixedCustId !== null && (
              <Button icon={<UnorderedListOutlined />} onClick={() => navigate('/home/account/list')}>{t('home.account.allAccounts')}</Button>
            )}
            <PermButton perm={account.saveAccount.perm ?? []} type="primary" icon={<PlusOutlined />} onClick={() => setForm({ record: null })} data-testid="account-create">
              {t('home.account.create')}
            </PermButton>
          </>
        }
        fields={[
          { name: 'loginName', label: t('home.account.loginName') },
          { name: 'userName', label: t('home.account.userName') },
          { name: 'status', label: t('common.status'), type: 'enum', enumOf: AccountStatus },
          {
            name: 'roleId', label: t('home.account.role'), type: 'select',
            options: (roles.data ?? []).map((r) => ({ value: r.roleId, label: roleLabel(r, lang) })),
          },
        ]}
        columns={[
          { title: t('home.account.loginName'), dataIndex: 'loginName', sorter: true, fixed: 'left', width: 150, ellipsis: true },
          { title: t('home.account.userName'), dataIndex: 'userName', width: 140, ellipsis: true },
          { title: t('home.account.role'), dataIndex: 'roleName', width: 150, ellipsis: true, render: (_v, row) => roleLabel(row, lang) },
          {
            title: t('home.account.customer'), dataIndex: 'custName', width: 200, ellipsis: true,
            render: (v: string | null) => v ?? <Typography.Text type="secondary">{t('home.account.staffAccount')}</Typography.Text>,
          },
          { title: t('home.account.phone'), dataIndex: 'phone', width: 150, ellipsis: true, render: (v) => v ?? '-' },
          { title: t('home.account.email'), dataIndex: 'email', width: 200, ellipsis: true, render: (v) => v ?? '-' },
          { title: t('common.status'), dataIndex: 'status', width: 90, render: (v: number) => <StatusTag enumOf={AccountStatus} value={v} colors={ACCOUNT_STATUS_COLORS} /> },
          { title: withZoneLabel(t('home.account.lastLogin')), dataIndex: 'lastLoginAt', sorter: true, width: 170, render: (v) => formatDateTime(v) },
          { title: withZoneLabel(t('common.createdAt')), dataIndex: 'createdAt', sorter: true, width: 170, render: (v) => formatDateTime(v) },
          {
            title: t('common.actions'), key: 'actions', fixed: 'right', width: lang === 'en' ? 350 : 250,
            render: (_v, row) => {
              const self = row.loginName.toLowerCase() === me?.toLowerCase();
              const thaw = nextFreezeAction(row.status) === FreezeAction.Thaw;
              return (
                <Space size="small" wrap={false} style={{ whiteSpace: 'nowrap' }}>
                  {canManage && <a onClick={() => setForm({ record: row })}>{t('common.edit')}</a>}
                  {canManage && !self && (
                    <a onClick={() => setFreezing(row)} style={thaw ? undefined : { color: '#cf1322' }}>
                      {t(thaw ? 'home.account.thaw' : 'home.account.freeze')}
                    </a>
                  )}
                  {canManage && !self && <a onClick={() => resetPassword(row)}>{t('home.account.resetPassword')}</a>}
                  <a onClick={() => navigate(`/home/account/freeze/${encodeURIComponent(row.loginName)}`)}>{t('home.account.freezeRecords')}</a>
                </Space>
              );
            },
          },
        ]}
      />
      <AccountForm
        open={form !== null}
        record={form?.record ?? null}
        fixedCustId={fixedCustId}
        fixedCustName={customer.data?.custName}
        onClose={() => setForm(null)}
        onCreated={(loginName, password) => {
          message.success(<LiveText k="common.operationSuccess" />);
          if (password) setOneTime({ loginName, password });
        }}
      />
      <FreezeModal target={freezing} onClose={() => setFreezing(null)} />
      <OneTimePassword loginName={oneTime?.loginName ?? ''} password={oneTime?.password ?? null} onClose={() => setOneTime(null)} />
    </>
  );
}
