import { useState } from 'react';
import { Button, Descriptions, Result, Skeleton, Space, Typography } from 'antd';
import { ArrowLeftOutlined, DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { BillAutoExecState, billautomate, formatDateTime, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { PermButton } from '../../../../components/PermButton.tsx';
import { usePageTitle } from '../../../../layout/pageTitle.ts';
import { WithHelp } from '../../bill/shared.tsx';
import { ExecTable } from '../ExecTable.tsx';
import { RuleFormModal } from '../RuleFormModal.tsx';
import { BillAutoPerm, EXEC_STATE_COLORS, RuleSwitch, autoLedgerPaths, useActionsText, useNextText, useRuleActions } from '../shared.tsx';

/**
 * /billing/billAutomateLedger/detail/:automateLeId?: one rule (its day, actions, state, when it acts next) and its
 * executions with links to the bills and journals; without an id, every execution the user sees.
 */
export default function AutoLedgerDetail() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const raw = useParams().automateLeId;
  const id = Number(raw);
  const ruleId = Number.isInteger(id) && id > 0 ? id : 0;
  const F = (k: string) => t(`billautomate.f.${k}`);
  const q = useQuery({
    queryKey: [billautomate.getBillAutomateDetail.name, ruleId],
    queryFn: ({ signal }) => call(billautomate.getBillAutomateDetail, { ruleId }, { signal, silent: true }),
    enabled: ruleId > 0,
  });
  const [editing, setEditing] = useState(false);
  const qc = useQueryClient();
  // a rule switched on or saved may act right away: the rule and its executions are read again as that lands
  const refetch = () => {
    for (const ms of [0, 1500, 4000]) {
      setTimeout(() => {
        void q.refetch();
        void qc.invalidateQueries({ queryKey: [billautomate.getBillAutomateExecPage.name] });
      }, ms);
    }
  };
  const { toggle, remove } = useRuleActions(refetch);
  const actionsText = useActionsText();
  const nextText = useNextText();
  const r = q.data;
  usePageTitle(r ? r.custName : raw ? undefined : t('billautomate.allExecTitle'));
  const back = <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(autoLedgerPaths.list)}>{t('common.back')}</Button>;

  if (!raw) {
    return (
      <>
        <div style={{ marginBottom: 12 }}>{back}</div>
        <ExecTable />
      </>
    );
  }
  if (!ruleId || q.isError) return <div className="lx-card"><Result status="404" subTitle={t('common.notFound')} extra={back} /></div>;
  if (q.isLoading || !r) return <div className="lx-card"><Skeleton active /></div>;

  return (
    <>
      <div className="lx-card" data-testid="auto-ledger-detail">
        <Descriptions
          bordered
          column={{ xs: 1, sm: 1, md: 2, xl: 3 }}
          title={<Space>{back}<span>{r.custName}</span></Space>}
          extra={(
            <Space>
              <PermButton perm={BillAutoPerm.Edit} icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="auto-ledger-detail-edit">{t('billautomate.action.edit')}</PermButton>
              <PermButton perm={BillAutoPerm.Delete} danger icon={<DeleteOutlined />} onClick={() => remove(r, () => void navigate(autoLedgerPaths.list))}>{t('billautomate.action.delete')}</PermButton>
            </Space>
          )}
          items={[
            { key: 'cust', label: F('customer'), children: r.custName },
            { key: 'day', label: <WithHelp label={F('day')} help={t('billautomate.help.day')} />, children: t('billautomate.dayOfMonth', { day: r.dayOfMonth }) },
            { key: 'enabled', label: F('enabled'), children: <RuleSwitch rule={r} onToggle={toggle} /> },
            { key: 'actions', label: <WithHelp label={F('actions')} help={`${t('billautomate.help.actions')} ${t('billautomate.help.mode')}`} />, children: actionsText(r), span: 2 },
            {
              key: 'next', label: <WithHelp label={F('next')} help={t('billautomate.help.next')} />,
              children: nextText(r),
            },
            {
              key: 'last', label: F('last'),
              children: r.lastExec
                ? <Space size={4}><span>{t('billautomate.forPeriod', { period: r.lastExec.periodKey })}</span><StatusTag enumOf={BillAutoExecState} value={r.lastExec.state} colors={EXEC_STATE_COLORS} /></Space>
                : '-',
            },
            { key: 'first', label: F('firstPeriod'), children: r.firstPeriod },
            { key: 'remark', label: F('remark'), children: r.remark ? <Typography.Text>{r.remark}</Typography.Text> : '-' },
            { key: 'created', label: withZoneLabel(F('createdAt')), children: `${formatDateTime(r.createdAt)} · ${r.createdBy}` },
            { key: 'updated', label: withZoneLabel(F('updatedAt')), children: `${formatDateTime(r.updatedAt)} · ${r.updatedBy ?? r.createdBy}` },
          ]}
        />
      </div>
      <div style={{ marginTop: 16 }}>
        <ExecTable ruleId={r.ruleId} />
      </div>
      <RuleFormModal open={editing} rule={r} onClose={() => setEditing(false)} onSaved={refetch} />
    </>
  );
}
