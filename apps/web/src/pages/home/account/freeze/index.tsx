import { useMemo, useState } from 'react';
import { Button, Typography } from 'antd';
import { LockOutlined, UnlockOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { account, AccountStatus, FreezeAction, formatDateTime, withZoneLabel } from '@lynx/contract';
import { DetailPage } from '../../../../components/DetailPage.tsx';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { usePerm } from '../../../../components/PermButton.tsx';
import { call } from '../../../../request/http.ts';
import { useSession } from '../../../../stores/session.ts';
import { ACCOUNT_STATUS_COLORS, FREEZE_ACTION_COLORS, nextFreezeAction, roleLabel } from '../helpers.ts';
import { FreezeModal } from '../FreezeModal.tsx';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

/** /home/account/freeze/:loginName: the account, its current state and every freeze and thaw with its reason. */
export default function AccountFreezeRecords() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const loginName = useParams().loginName ?? '';
  const me = useSession((s) => s.loginName);
  const canManage = usePerm(account.saveAccountFreeze.perm);
  const [freezeOpen, setFreezeOpen] = useState(false);
  const info = useQuery({
    queryKey: [account.getAccountInfoByLoginName.name, { loginName }],
    queryFn: ({ signal }) => call(account.getAccountInfoByLoginName, { loginName }, { signal, silent: true }),
    enabled: loginName !== '',
  });
  const a = info.data;
  usePageTitle(a?.loginName);
  const thaw = a ? nextFreezeAction(a.status) === FreezeAction.Thaw : false;
  const self = a ? a.loginName.toLowerCase() === me?.toLowerCase() : false;

  return (
    <DetailPage
      loading={info.isLoading}
      error={info.error ?? (!loginName || (info.isFetched && !a) ? true : undefined)}
      title={t('home.freeze.accountTitle', { loginName: a?.loginName ?? loginName })}
      extra={a && canManage && !self && (
        <Button danger={!thaw} icon={thaw ? <UnlockOutlined /> : <LockOutlined />} onClick={() => setFreezeOpen(true)} data-testid="freeze-toggle">
          {t(thaw ? 'home.account.thaw' : 'home.account.freeze')}
        </Button>
      )}
      items={a ? [
        { label: t('home.account.loginName'), value: a.loginName },
        { label: t('home.account.userName'), value: a.userName },
        { label: t('home.freeze.currentStatus'), value: <StatusTag enumOf={AccountStatus} value={a.status} colors={ACCOUNT_STATUS_COLORS} /> },
        { label: t('home.account.role'), value: roleLabel(a, lang) },
        { label: t('home.account.customer'), value: a.custName ?? <Typography.Text type="secondary">{t('home.account.staffAccount')}</Typography.Text> },
        { label: t('home.account.phone'), value: a.phone ?? '-' },
        { label: t('home.account.email'), value: a.email ?? '-' },
        { label: withZoneLabel(t('home.account.lastLogin')), value: formatDateTime(a.lastLoginAt) },
        { label: withZoneLabel(t('common.createdAt')), value: formatDateTime(a.createdAt) },
      ] : []}
    >
      <FreezeTable loginName={loginName} />
      {a && <FreezeModal target={freezeOpen ? { loginName: a.loginName, status: a.status } : null} onClose={() => setFreezeOpen(false)} />}
    </DetailPage>
  );
}

/** The records, mounted once the account is known to be in scope (so an unknown login name shows one 404, not a toast too). */
function FreezeTable({ loginName }: { loginName: string }) {
  const { t } = useTranslation();
  const fixed = useMemo(() => ({ loginName }), [loginName]);
  const table = useSearchTable(account.getAccountFreezeList, { fixed });
  return (
    <SearchTable
      table={table}
      title={t('home.freeze.title')}
      rowKey="id"
      emptyHint={t('home.freeze.emptyHint')}
      columns={[
        { title: withZoneLabel(t('home.freeze.time')), dataIndex: 'createdAt', width: 180, render: (v: string) => formatDateTime(v) },
        { title: t('home.freeze.action'), dataIndex: 'action', width: 110, render: (v: number) => <StatusTag enumOf={FreezeAction} value={v} colors={FREEZE_ACTION_COLORS} /> },
        { title: t('home.account.reason'), dataIndex: 'reason', ellipsis: true },
        { title: t('home.freeze.operator'), dataIndex: 'operator', width: 180, ellipsis: true },
      ]}
      scrollX={720}
    />
  );
}
