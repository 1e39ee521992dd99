import { useState } from 'react';
import { Alert, Button, Descriptions, Result, Skeleton, Space, Table, Typography } from 'antd';
import { ArrowLeftOutlined, DeleteOutlined, EditOutlined, ExperimentOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import {
  AUTO_RULE_DRY_RUN_TYPES, AutoRuleLevel, AutoRuleRunKind, AutoRuleRunState, AutoRuleStatus, AutoRuleType, autorule, formatDateTime, withZoneLabel,
  type ResponseOf,
} from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { PermButton } from '../../../../components/PermButton.tsx';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { usePageTitle } from '../../../../layout/pageTitle.ts';
import { RuleFormModal } from '../RuleFormModal.tsx';
import {
  AutoRulePerm, LEVEL_COLORS, RUN_COLORS, RuleSwitch, STATUS_COLORS, autoRulePaths, useActionText, useConditionText, useRuleActions, useScopeText,
} from '../../shared.tsx';

type RunRow = ResponseOf<typeof autorule.getRuleRunPage>['list'][number];
type DryRun = ResponseOf<typeof autorule.dryRunRule>;

/** The runs that covered the rule, with what each recorded for it. */
function RunTable({ ruleId }: { ruleId: number }) {
  const { t } = useTranslation();
  const table = useSearchTable(autorule.getRuleRunPage, { fixed: { ruleId } });
  const R = (k: string) => t(`autorule.run.${k}`);
  return (
    <SearchTable<RunRow>
      table={table} title={t('autorule.detail.runs')} rowKey="runId"
      columns={[
        { title: R('kind'), dataIndex: 'kind', width: 140, render: (v: number) => <StatusTag enumOf={AutoRuleRunKind} value={v} /> },
        { title: R('state'), dataIndex: 'state', width: 100, render: (v: number) => <StatusTag enumOf={AutoRuleRunState} value={v} colors={RUN_COLORS} /> },
        { title: withZoneLabel(R('asOf')), dataIndex: 'asOf', width: 170, render: (v: string) => formatDateTime(v) },
        { title: R('cards'), dataIndex: 'cardsTriggered', width: 100, align: 'right' },
        { title: R('finishedAt'), dataIndex: 'finishedAt', width: 170, render: (v: string | null) => (v ? formatDateTime(v) : '-') },
        { title: R('error'), dataIndex: 'error', ellipsis: true, render: (v: string | null) => v ?? '-' },
      ]}
    />
  );
}

/** The dry run: what the last 30 days would have triggered, per day and card. */
function DryRunPanel({ ruleId }: { ruleId: number }) {
  const { t } = useTranslation();
  const D = (k: string, o?: Record<string, unknown>) => t(`autorule.detail.${k}`, o);
  const run = useMutation({ mutationFn: () => call(autorule.dryRunRule, { ruleId }) });
  const r: DryRun | undefined = run.data ?? undefined;
  return (
    <div className="lx-card" style={{ marginTop: 16 }} data-testid="autorule-dry-run">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space>
          <Typography.Title level={5} style={{ margin: 0 }}>{D('dryRunTitle')}</Typography.Title>
          <Button icon={<ExperimentOutlined />} loading={run.isPending} onClick={() => run.mutate()} data-testid="autorule-dry-run-go">{t('autorule.action.dryRun')}</Button>
        </Space>
        <Typography.Text type="secondary">{D('dryRunHelp')}</Typography.Text>
        {r && (
          <>
            <Alert type={r.cards ? 'warning' : 'info'} showIcon message={D('dryRunResult', { from: r.from, to: r.to, cards: r.cards })}
              description={r.truncated ? D('dryRunTruncated') : undefined} />
            <Table size="small" rowKey="day" pagination={false} scroll={{ x: true }}
              dataSource={[Object.fromEntries([['day', 'cards'], ...r.days.map((d) => [d.day, d.cards])])]}
              columns={[{ title: D('day'), dataIndex: 'day', fixed: 'left', render: () => D('cards') },
                ...r.days.map((d) => ({ title: d.day.slice(5), dataIndex: d.day, width: 56, align: 'right' as const }))]} />
            <Table size="small" rowKey={(h) => `${h.iccid}-${h.day}-${h.value}`} dataSource={r.hits} pagination={{ pageSize: 10, showSizeChanger: false }}
              columns={[
                { title: D('day'), dataIndex: 'day', width: 120 },
                { title: 'ICCID', dataIndex: 'iccid', width: 220 },
                { title: D('value'), dataIndex: 'value', render: (v: string | null) => v ?? '-' },
              ]} />
          </>
        )}
      </Space>
    </div>
  );
}

/**
 * /autorule/autorule-list/detail/:ruleId: the rule (condition, action, scope, contacts, state), its runs, and the
 * dry run of the last 30 days.
 */
export default function AutoRuleDetail() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const id = Number(useParams().ruleId);
  const ruleId = Number.isInteger(id) && id > 0 ? id : 0;
  const F = (k: string) => t(`autorule.f.${k}`);
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: [autorule.getRuleDetail.name, ruleId],
    queryFn: ({ signal }) => call(autorule.getRuleDetail, { ruleId }, { signal, silent: true }),
    enabled: ruleId > 0,
  });
  const [editing, setEditing] = useState(false);
  const refetch = () => {
    void q.refetch();
    void qc.invalidateQueries({ queryKey: [autorule.getRuleListPage.name] });
  };
  const { publish, toggle, remove } = useRuleActions(refetch);
  const conditionText = useConditionText();
  const actionText = useActionText();
  const scopeText = useScopeText();
  const r = q.data;
  usePageTitle(r?.name);
  const back = <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(autoRulePaths.list)}>{t('common.back')}</Button>;
  if (!ruleId || q.isError) return <div className="lx-card"><Result status="404" subTitle={t('common.notFound')} extra={back} /></div>;
  if (q.isLoading || !r) return <div className="lx-card"><Skeleton active /></div>;

  return (
    <>
      <div className="lx-card" data-testid="autorule-detail">
        <Descriptions
          bordered column={{ xs: 1, sm: 1, md: 2, xl: 3 }}
          title={<Space>{back}<span>{r.name}</span></Space>}
          extra={(
            <Space>
              {r.status === AutoRuleStatus.Draft && <PermButton perm={AutoRulePerm.Switch} type="primary" onClick={() => publish(r)} data-testid="autorule-detail-publish">{t('autorule.action.publish')}</PermButton>}
              <PermButton perm={AutoRulePerm.Edit} icon={<EditOutlined />} onClick={() => setEditing(true)}>{t('autorule.action.edit')}</PermButton>
              <PermButton perm={AutoRulePerm.Delete} danger icon={<DeleteOutlined />} onClick={() => remove(r, () => void navigate(autoRulePaths.list))}>{t('autorule.action.delete')}</PermButton>
            </Space>
          )}
          items={[
            { key: 'type', label: F('type'), children: AutoRuleType.label(r.ruleType, lang) },
            { key: 'level', label: F('level'), children: <StatusTag enumOf={AutoRuleLevel} value={r.level} colors={LEVEL_COLORS} /> },
            { key: 'status', label: F('status'), children: <Space><StatusTag enumOf={AutoRuleStatus} value={r.status} colors={STATUS_COLORS} /><RuleSwitch rule={r} onToggle={toggle} /></Space> },
            { key: 'condition', label: F('condition'), children: conditionText(r) },
            { key: 'action', label: F('action'), children: actionText(r), span: 2 },
            { key: 'scope', label: F('scope'), children: scopeText(r), span: 2 },
            { key: 'owner', label: F('owner'), children: r.ownerCustName ?? t('autorule.platformRule') },
            { key: 'phones', label: F('phones'), children: r.phones ?? '-' },
            { key: 'emails', label: F('emails'), children: r.emails ?? '-', span: 2 },
            {
              key: 'triggered', label: F('triggered'),
              children: <Link to={autoRulePaths.alarms}>{r.triggeredCards}</Link>,
            },
            { key: 'last', label: withZoneLabel(F('lastTriggered')), children: r.lastTriggeredAt ? formatDateTime(r.lastTriggeredAt) : '-' },
            { key: 'published', label: withZoneLabel(F('publishedAt')), children: r.publishedAt ? formatDateTime(r.publishedAt) : '-' },
            { key: 'remark', label: F('remark'), children: r.remark ?? '-' },
            { key: 'created', label: withZoneLabel(F('createdAt')), children: `${formatDateTime(r.createdAt)} · ${r.createdBy}` },
            { key: 'updated', label: withZoneLabel(F('updatedAt')), children: `${formatDateTime(r.updatedAt)} · ${r.updatedBy ?? r.createdBy}` },
          ]}
        />
      </div>
      {AUTO_RULE_DRY_RUN_TYPES.includes(r.ruleType) && <DryRunPanel ruleId={r.ruleId} />}
      <div style={{ marginTop: 16 }}>
        <RunTable ruleId={r.ruleId} />
      </div>
      <RuleFormModal open={editing} rule={r} onClose={() => setEditing(false)} onSaved={refetch} />
    </>
  );
}
