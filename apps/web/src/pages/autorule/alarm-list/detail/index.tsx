import { Button, Descriptions, Result, Skeleton, Space } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { AutoRuleAction, AutoRuleActionResult, AutoRuleLevel, AutoRuleRunKind, AutoRuleType, autorule, formatDateTime, withZoneLabel, type ResponseOf } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { usePageTitle } from '../../../../layout/pageTitle.ts';
import { LEVEL_COLORS, autoRulePaths, useLang } from '../../shared.tsx';

type CardRow = ResponseOf<typeof autorule.getAlarmCardPage>['list'][number];
const RESULT_COLORS: Record<number, string> = { [AutoRuleActionResult.None]: 'default', [AutoRuleActionResult.Done]: 'success', [AutoRuleActionResult.Refused]: 'error' };

function CardTable({ alarmId, ruleId }: { alarmId: number; ruleId: number }) {
  const { t } = useTranslation();
  const A = (k: string) => t(`autorule.alarm.${k}`);
  const table = useSearchTable(autorule.getAlarmCardPage, { fixed: { alarmId } });
  const fields: SearchField[] = [{ name: 'iccid', label: A('iccid') }];
  return (
    <SearchTable<CardRow>
      table={table} title={A('cardsTitle')} rowKey={(r) => `${r.iccid}-${r.periodKey}`} fields={fields}
      columns={[
        { title: A('iccid'), dataIndex: 'iccid', width: 210, fixed: 'left' },
        { title: A('msisdn'), dataIndex: 'msisdn', width: 150, render: (v: string | null) => v ?? '-' },
        { title: A('customer'), dataIndex: 'custName', width: 180, ellipsis: true, render: (v: string | null) => v ?? '-' },
        { title: A('value'), dataIndex: 'value', width: 200, ellipsis: true, render: (v: string | null) => v ?? '-' },
        { title: A('actionResult'), dataIndex: 'actionResult', width: 120, render: (v: number) => <StatusTag enumOf={AutoRuleActionResult} value={v} colors={RESULT_COLORS} /> },
        { title: A('actionError'), dataIndex: 'actionError', ellipsis: true, render: (v: string | null) => v ?? '-' },
        { title: withZoneLabel(A('triggeredAt')), dataIndex: 'triggeredAt', width: 170, render: (v: string) => formatDateTime(v) },
        {
          title: t('common.actions'), key: 'ops', fixed: 'right', width: 110,
          render: (_: unknown, r) => <Link to={`${autoRulePaths.execute(ruleId, alarmId)}?iccid=${encodeURIComponent(r.iccid)}`}>{A('cardNotices')}</Link>,
        },
      ]}
    />
  );
}

/** /autorule/alarm-list/detail/:alarmId: one trigger record and the cards it recorded, with what the action did to each. */
export default function AlarmDetail() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const id = Number(useParams().alarmId);
  const alarmId = Number.isInteger(id) && id > 0 ? id : 0;
  const A = (k: string) => t(`autorule.alarm.${k}`);
  const q = useQuery({
    queryKey: [autorule.getAlarmDetail.name, alarmId],
    queryFn: ({ signal }) => call(autorule.getAlarmDetail, { alarmId }, { signal, silent: true }),
    enabled: alarmId > 0,
  });
  const a = q.data;
  usePageTitle(a?.ruleName);
  const back = <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(autoRulePaths.alarms)}>{t('common.back')}</Button>;
  if (!alarmId || q.isError) return <div className="lx-card"><Result status="404" subTitle={t('common.notFound')} extra={back} /></div>;
  if (q.isLoading || !a) return <div className="lx-card"><Skeleton active /></div>;
  return (
    <>
      <div className="lx-card" data-testid="autorule-alarm-detail">
        <Descriptions bordered column={{ xs: 1, sm: 1, md: 2, xl: 3 }} title={<Space>{back}<span>{A('detailTitle')}</span></Space>}
          extra={<Link to={autoRulePaths.execute(a.ruleId, a.alarmId)}>{A('executeTitle')}</Link>}
          items={[
            { key: 'rule', label: A('rule'), children: <Link to={autoRulePaths.detail(a.ruleId)}>{a.ruleName}</Link> },
            { key: 'type', label: t('autorule.f.type'), children: AutoRuleType.label(a.ruleType, lang) },
            { key: 'level', label: t('autorule.f.level'), children: <StatusTag enumOf={AutoRuleLevel} value={a.level} colors={LEVEL_COLORS} /> },
            { key: 'action', label: t('autorule.f.action'), children: AutoRuleAction.label(a.action, lang) },
            { key: 'kind', label: A('runKind'), children: AutoRuleRunKind.label(a.runKind, lang) },
            { key: 'at', label: withZoneLabel(A('triggeredAt')), children: formatDateTime(a.triggeredAt) },
            { key: 'cards', label: A('cards'), children: a.cards },
            { key: 'done', label: A('actionsDone'), children: a.actionsDone },
            { key: 'refused', label: A('actionsRefused'), children: a.actionsRefused },
          ]}
        />
      </div>
      <div style={{ marginTop: 16 }}>
        <CardTable alarmId={a.alarmId} ruleId={a.ruleId} />
      </div>
    </>
  );
}
