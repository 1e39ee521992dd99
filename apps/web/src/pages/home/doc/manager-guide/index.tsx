import { Alert, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  BehaviorAction, CustomerStatus, NoticeState, RoleType, SendMode, permissionTree, type EnumHelpers, type PermissionNode,
} from '@lynx/contract';
import { Bullets, DocArticle, DocSteps, Paras, type DocSection } from '../DocArticle.tsx';
import { withLocaleArea } from '../../../../components/LocaleArea.tsx';

const m = (k: string) => `doc.manager.${k}`;

/** Defaults of the settings the operations section explains (README, Configuration). */
const ENV_DEFAULTS: [name: string, defaultValue: string][] = [
  ['DATABASE_URL', '—'],
  ['DATA_DIR', './data'],
  ['REDIS_URL', '—'],
  ['CMP_RATE_LIMIT', '1200'],
  ['CMP_RATE_LIMIT_IP', '6000'],
  ['CMP_TRUSTED_PROXIES', '—'],
  ['CMP_LOGIN_CAPTCHA', 'after-failures'],
  ['CMP_SESSION_TTL_HOURS', '12'],
  ['CMP_API_LOG_RETENTION_DAYS', '90'],
  ['CMP_WORKERS', 'on'],
];

interface PermRow {
  code: number;
  name: string;
  kind: PermissionNode['kind'];
  children?: PermRow[];
}

/** /home/doc/manager-guide: for operator staff (roles 1000 and 2000; the route table restricts it). */
function ManagerGuidePage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const sep = lang === 'zh' ? '、' : ', ';
  const labels = (e: EnumHelpers<number>) => e.options(lang).map((o) => o.label).join(sep);

  const toRow = (n: PermissionNode): PermRow => ({
    code: n.code,
    name: n[lang],
    kind: n.kind,
    children: n.children?.length ? n.children.map(toRow) : undefined,
  });
  const small = { size: 'small' as const, pagination: false as const, scroll: { x: 640 }, style: { marginBottom: 16 } };

  const sections: DocSection[] = [
    {
      id: 'mg-registration',
      title: t(m('registration.title')),
      body: (
        <>
          <Paras keys={[m('registration.p1')]} />
          <DocSteps base={m('registration')} count={3} />
        </>
      ),
    },
    {
      id: 'mg-customers',
      title: t(m('customers.title')),
      body: <Paras keys={['p1', 'p2', 'p3'].map((k) => m(`customers.${k}`))} values={{ states: labels(CustomerStatus) }} />,
    },
    {
      id: 'mg-roles',
      title: t(m('roles.title')),
      body: (
        <>
          <Paras keys={['p1', 'p2', 'p3'].map((k) => m(`roles.${k}`))} />
          <Typography.Title level={5}>{t(m('roles.roleTypes'))}</Typography.Title>
          <Table
            {...small}
            rowKey="value"
            dataSource={RoleType.options(lang)}
            columns={[
              { title: t(m('roles.type')), dataIndex: 'value', width: 90, render: (v: number) => <Tag color="blue">{v}</Tag> },
              { title: t(m('roles.name')), dataIndex: 'label', width: 200 },
              { title: t(m('roles.scope')), dataIndex: 'value', key: 'scope', render: (v: number) => t(m(`roles.scope${v}`)) },
            ]}
          />
          <Alert type="info" showIcon title={t(m('roles.tenancyNote'))} style={{ marginBottom: 16 }} />
          <Typography.Title level={5}>{t(m('roles.pageCodes'))}</Typography.Title>
          <Typography.Paragraph type="secondary">{t(m('roles.treeHint'))}</Typography.Paragraph>
          <Table<PermRow>
            {...small}
            rowKey="code"
            dataSource={permissionTree.map(toRow)}
            columns={[
              { title: t(m('roles.code')), dataIndex: 'code', width: 200, render: (v: number) => <Typography.Text code>{v}</Typography.Text> },
              { title: t(m('roles.name')), dataIndex: 'name' },
              {
                title: t(m('roles.kind')),
                dataIndex: 'kind',
                width: 100,
                render: (v: PermRow['kind']) => <Tag color={v === 'page' ? 'geekblue' : 'default'}>{t(m(v === 'page' ? 'roles.kindPage' : 'roles.kindButton'))}</Tag>,
              },
            ]}
          />
        </>
      ),
    },
    {
      id: 'mg-notices',
      title: t(m('notices.title')),
      body: (
        <>
          <Paras keys={[m('notices.p1')]} />
          <Bullets keys={['l1', 'l2', 'l3', 'l4'].map((k) => m(`notices.${k}`))} values={{ modes: labels(SendMode), states: labels(NoticeState) }} />
        </>
      ),
    },
    {
      id: 'mg-logs',
      title: t(m('logs.title')),
      body: <Paras keys={['p1', 'p2'].map((k) => m(`logs.${k}`))} values={{ actions: labels(BehaviorAction) }} />,
    },
    { id: 'mg-audit', title: t(m('audit.title')), body: <Paras keys={['p1', 'p2'].map((k) => m(`audit.${k}`))} /> },
    {
      id: 'mg-ops',
      title: t(m('ops.title')),
      body: (
        <>
          <Paras keys={['p1', 'p2', 'p3'].map((k) => m(`ops.${k}`))} />
          <Table
            {...small}
            rowKey="name"
            dataSource={ENV_DEFAULTS.map(([name, defaultValue]) => ({ name, defaultValue }))}
            columns={[
              { title: t(m('ops.variable')), dataIndex: 'name', width: 260, render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
              { title: t(m('ops.defaultValue')), dataIndex: 'defaultValue', width: 140 },
              { title: t(m('ops.meaning')), dataIndex: 'name', key: 'meaning', render: (v: string) => t(m(`ops.env.${v}`)) },
            ]}
          />
          <Typography.Paragraph type="secondary">{t(m('ops.note'))}</Typography.Paragraph>
        </>
      ),
    },
  ];

  return <DocArticle title={t(m('title'))} intro={t(m('intro'))} sections={sections} />;
}

export default withLocaleArea('doc', ManagerGuidePage);
