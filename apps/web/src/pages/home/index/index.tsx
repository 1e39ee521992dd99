import type { ReactNode } from 'react';
import { Avatar, Button, Card, Col, Empty, Row, Skeleton, Space, Statistic, Table, Tag, Typography } from 'antd';
import {
  AppstoreOutlined, AuditOutlined, BellOutlined, CloudDownloadOutlined, DollarOutlined, MedicineBoxOutlined, NotificationOutlined, RetweetOutlined,
  RightOutlined, RobotOutlined, ShopOutlined, TeamOutlined, ThunderboltOutlined, UndoOutlined, UserOutlined, WalletOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  account, AccountStatus, BehaviorAction, CustomerLevel, notice, Perm, RoleType, STAFF_ROLE_TYPES, system, formatDateTime,
  type BodyOf, type Endpoint, withZoneLabel,
} from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { usePerm } from '../../../components/PermButton.tsx';
import { StatusTag } from '../../../components/StatusTag.tsx';
import { useSession } from '../../../stores/session.ts';
import { useViewerRoutes } from '../../../routes/viewer.ts';
import { shortcutTiles } from './tiles.ts';
import { UsageOverview } from './UsageOverview.tsx';
import { FleetHealth } from './FleetHealth.tsx';
import { CompanyBalances } from './CompanyBalances.tsx';
import { Section } from '../../../components/Section.tsx';

/** Icons of the shortcut tiles. */
const TILE_ICONS: Record<string, ReactNode> = {
  diagnose: <MedicineBoxOutlined />, tip: <BellOutlined />, autoRule: <RobotOutlined />, batch: <ThunderboltOutlined />, bill: <AuditOutlined />,
  customer: <TeamOutlined />, recharge: <WalletOutlined />, notification: <NotificationOutlined />, unitedCustomer: <ShopOutlined />,
  capital: <DollarOutlined />, reduceData: <UndoOutlined />, withdraw: <WalletOutlined />, jobs: <CloudDownloadOutlined />, resell: <RetweetOutlined />,
};

type ListEndpoint = typeof account.getCustomerListPage | typeof account.getAccountListPage;

/** The total of a list, read with a one-row page (every number on this screen comes from the server). */
function useTotal<E extends ListEndpoint>(endpoint: E, filters: Omit<BodyOf<E>, 'current' | 'pageSize'>, enabled: boolean) {
  const body = { ...filters, current: 1, pageSize: 1 };
  const q = useQuery({
    queryKey: [endpoint.name, body],
    queryFn: ({ signal }) => call(endpoint as Endpoint, body as never, { signal, silent: true }) as Promise<{ total: number } | null>,
    enabled,
  });
  return { total: q.data?.total ?? null, loading: q.isLoading, error: q.isError };
}

function Stat({ title, value, loading, onClick, color, testId }: {
  title: string; value: number | null; loading: boolean; onClick?: () => void; color?: string; testId: string;
}) {
  return (
    <Card hoverable={!!onClick} onClick={onClick} size="small" data-testid={testId}>
      <Statistic title={title} value={value ?? '-'} loading={loading} styles={{ content: color ? { color } : undefined }} />
    </Card>
  );
}

/** /home/index: who is signed in, what exists so far in their scope, cards and usage, the current announcement and shortcuts. */
export default function HomeOverview() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const loginName = useSession((s) => s.loginName) ?? '';
  const userName = useSession((s) => s.userName);
  const roleType = useSession((s) => s.roleId);
  const { flat } = useViewerRoutes();
  const permissions = useSession((s) => s.permissions);
  const isSub = roleType === RoleType.SubCustomer;
  const seeCustomers = usePerm(account.getCustomerListPage.perm) && !isSub;
  const seeAccounts = usePerm(account.getAccountListPage.perm) && !isSub;
  const seeBehavior = usePerm(system.getBehaviorLogListPage.perm);
  const manageNotices = usePerm(Perm.Notification);

  const me = useQuery({
    queryKey: [account.getAccountInfoByLoginName.name, { loginName }],
    queryFn: ({ signal }) => call(account.getAccountInfoByLoginName, { loginName }, { signal, silent: true }),
    enabled: loginName !== '',
  });
  const customers = useTotal(account.getCustomerListPage, {}, seeCustomers);
  const firstLevel = useTotal(account.getCustomerListPage, { level: CustomerLevel.First }, seeCustomers);
  const secondLevel = useTotal(account.getCustomerListPage, { level: CustomerLevel.Second }, seeCustomers);
  const accounts = useTotal(account.getAccountListPage, {}, seeAccounts);
  const frozen = useTotal(account.getAccountListPage, { status: AccountStatus.Frozen }, seeAccounts);
  const announcement = useQuery({
    queryKey: [notice.getNewestNotification.name],
    queryFn: ({ signal }) => call(notice.getNewestNotification, {}, { signal, silent: true }),
  });
  const behaviorBody = { current: 1, pageSize: 5 };
  const behavior = useQuery({
    queryKey: [system.getBehaviorLogListPage.name, behaviorBody],
    queryFn: ({ signal }) => call(system.getBehaviorLogListPage, behaviorBody, { signal, silent: true }),
    enabled: seeBehavior,
  });
  const tiles = shortcutTiles(flat, permissions);
  const note = announcement.data;
  const custName = me.data?.custName;

  return (
    <div data-testid="home-overview">
      <div className="lx-card" style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap', paddingBlock: 12 }}>
        <Avatar size={40} icon={<UserOutlined />} style={{ background: '#1668dc', flexShrink: 0 }} />
        <div style={{ minWidth: 0, flex: 1, display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
          <Typography.Title level={5} style={{ margin: 0 }} data-testid="home-welcome">
            {t('home.index.welcome', { name: userName || loginName })}
          </Typography.Title>
          <Space size={[8, 4]} wrap>
            {roleType !== null && <Tag color="blue">{RoleType.label(roleType, lang)}</Tag>}
            <Typography.Text type="secondary">{t('home.index.loginAs', { loginName })}</Typography.Text>
            {custName && <Typography.Text type="secondary">· {t('home.index.customerOf', { name: custName })}</Typography.Text>}
          </Space>
        </div>
      </div>

      {roleType !== null && !STAFF_ROLE_TYPES.includes(roleType) && <CompanyBalances />}

      <FleetHealth />

      <Section title={<Space><AppstoreOutlined />{t('home.index.shortcuts')}</Space>} testId="home-shortcuts">
        {tiles.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('home.index.noShortcuts')} />
        ) : (
          <Row gutter={[12, 12]}>
            {tiles.map((tile) => (
              <Col key={tile.key} xs={12} md={8} xl={4}>
                <Card hoverable size="small" onClick={() => navigate(tile.path)} data-testid={`tile-${tile.key}`} role="link" tabIndex={0}
                  onKeyDown={(e) => { if (e.key === 'Enter') navigate(tile.path); }}>
                  <Space align="start">
                    <span style={{ fontSize: 20, color: '#1668dc' }}>{TILE_ICONS[tile.key] ?? <AppstoreOutlined />}</span>
                    <div style={{ minWidth: 0 }}>
                      <Typography.Text strong ellipsis style={{ display: 'block' }}>{tile.title[lang]}</Typography.Text>
                      <Typography.Text type="secondary" ellipsis style={{ fontSize: 12, display: 'block' }}>{t(`menu.${tile.screenKey}`)}</Typography.Text>
                    </div>
                  </Space>
                </Card>
              </Col>
            ))}
          </Row>
        )}
      </Section>
      {(seeCustomers || seeAccounts) && (
        <Row gutter={[12, 12]} style={{ marginBottom: 12 }}>
          {seeCustomers && (
            <>
              <Col xs={12} md={8} xl={seeAccounts ? 4 : 8}>
                <Stat testId="stat-customers" title={t('home.index.customers')} value={customers.total} loading={customers.loading} onClick={() => navigate('/home/customer')} />
              </Col>
              <Col xs={12} md={8} xl={seeAccounts ? 5 : 8}>
                <Stat testId="stat-first" title={t('home.index.firstLevel')} value={firstLevel.total} loading={firstLevel.loading} onClick={() => navigate('/home/customer')} />
              </Col>
              <Col xs={12} md={8} xl={seeAccounts ? 5 : 8}>
                <Stat testId="stat-second" title={t('home.index.secondLevel')} value={secondLevel.total} loading={secondLevel.loading} onClick={() => navigate('/home/customer')} />
              </Col>
            </>
          )}
          {seeAccounts && (
            <>
              <Col xs={12} md={12} xl={seeCustomers ? 5 : 12}>
                <Stat testId="stat-accounts" title={t('home.index.accounts')} value={accounts.total} loading={accounts.loading} onClick={() => navigate('/home/account/list')} />
              </Col>
              <Col xs={12} md={12} xl={seeCustomers ? 5 : 12}>
                <Stat testId="stat-frozen" title={t('home.index.frozenAccounts')} value={frozen.total} loading={frozen.loading}
                  color={frozen.total ? '#cf1322' : undefined} onClick={() => navigate('/home/account/list')} />
              </Col>
            </>
          )}
        </Row>
      )}

      <UsageOverview />

      <Row gutter={12}>
        <Col xs={24} xl={seeBehavior ? 10 : 24}>
          <Section title={<Space><NotificationOutlined />{t('home.index.announcement')}</Space>} testId="home-announcement"
            extra={manageNotices && <Button type="link" size="small" onClick={() => navigate('/shortcuts/notification/list')}>{t('home.index.manage')} <RightOutlined /></Button>}>
            {announcement.isLoading ? <Skeleton active paragraph={{ rows: 2 }} /> : note ? (
              <>
                <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 8 }}>{lang === 'en' ? note.englishContent : note.content}</Typography.Paragraph>
                <Typography.Text type="secondary">{t('home.index.announcementUntil', { time: formatDateTime(note.endDate) })}</Typography.Text>
              </>
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={<>{t('home.index.noAnnouncement')}<br /><Typography.Text type="secondary">{t(manageNotices ? 'home.index.noAnnouncementManage' : 'home.index.noAnnouncementHint')}</Typography.Text></>} />
            )}
          </Section>
        </Col>
        {seeBehavior && (
          <Col xs={24} xl={14}>
            <Section title={t('home.index.recentBehavior')} testId="home-behavior"
              extra={<Button type="link" size="small" onClick={() => navigate('/system/userBehavior/list')}>{t('home.index.viewAll')} <RightOutlined /></Button>}>
              <Table
                size="small"
                rowKey="id"
                pagination={false}
                loading={behavior.isLoading}
                dataSource={behavior.data?.list ?? []}
                scroll={{ x: 'max-content' }}
                locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('home.index.noBehavior')} /> }}
                columns={[
                  { title: withZoneLabel(t('home.index.behaviorTime')), dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
                  { title: t('home.index.behaviorUser'), dataIndex: 'loginName', ellipsis: true },
                  { title: t('home.index.behaviorAction'), dataIndex: 'action', render: (v: number) => <StatusTag enumOf={BehaviorAction} value={v} /> },
                  { title: t('home.index.behaviorTarget'), dataIndex: 'target', ellipsis: true, render: (v) => v ?? '-' },
                ]}
              />
            </Section>
          </Col>
        )}
      </Row>

    </div>
  );
}
