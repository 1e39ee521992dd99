import { useState } from 'react';
import { Button, Space, Typography } from 'antd';
import { HistoryOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { BillAutoExecState, BillAutoSwitch, STAFF_ROLE_TYPES, billautomate } from '@lynx/contract';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { zoneLabel } from '../../../../components/businessTime.ts';
import { useSession } from '../../../../stores/session.ts';
import { CustomerSelect } from '../../../home/customer/CustomerSelect.tsx';
import { WithHelp } from '../../bill/shared.tsx';
import { RuleFormModal } from '../RuleFormModal.tsx';
import { BillAutoPerm, EXEC_STATE_COLORS, RuleSwitch, autoLedgerPaths, useActionsText, useNextText, useRuleActions, type RuleRow } from '../shared.tsx';

/**
 * /billing/billAutomateLedger/list (4060000): one rule per customer that publishes and writes off its last month's bill
 * on a day of the month. Staff add, edit and delete rules; whoever holds 4060004 (staff, a customer's finance for its
 * own) switches them, after a confirmation.
 */
export default function AutoLedgerList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const staff = useSession((s) => s.roleId !== null && STAFF_ROLE_TYPES.includes(s.roleId));
  const canEdit = usePerm(BillAutoPerm.Edit);
  const canDelete = usePerm(BillAutoPerm.Delete);
  const table = useSearchTable(billautomate.getBillAutomateListPage);
  const [editing, setEditing] = useState<{ rule: RuleRow | null } | null>(null);
  const refresh = () => void table.refresh();
  // a rule whose day has come acts right after it is saved or switched on: the list shows that execution as it lands
  const refreshSoon = () => {
    refresh();
    for (const ms of [1500, 4000]) setTimeout(refresh, ms);
  };
  const { toggle, remove } = useRuleActions(refreshSoon);
  const actionsText = useActionsText();
  const nextText = useNextText();
  const F = (k: string) => t(`billautomate.f.${k}`);

  const fields: SearchField[] = [
    staff
      ? { name: 'custId', label: F('customer'), type: 'custom', control: <CustomerSelect allowClear placeholder={t('common.all')} /> }
      : { name: 'custName', label: F('customer') },
    { name: 'enabled', label: F('enabled'), type: 'enum', enumOf: BillAutoSwitch },
  ];

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 12px' }}>{t(staff ? 'billautomate.intro' : 'billautomate.introCustomer', { tz: zoneLabel() })}</Typography.Paragraph>
      <SearchTable<RuleRow>
        table={table}
        title={t('billautomate.title')}
        rowKey="ruleId"
        listKey={autoLedgerPaths.list}
        emptyHint={t(staff ? 'billautomate.emptyHint' : 'billautomate.emptyHintCustomer')}
        fields={fields}
        toolbar={(
          <Space>
            <Button icon={<HistoryOutlined />} onClick={() => void navigate(autoLedgerPaths.detail())} data-testid="auto-ledger-all-execs">{t('billautomate.action.allExecs')}</Button>
            <PermButton perm={BillAutoPerm.Add} type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ rule: null })} data-testid="auto-ledger-add">{t('billautomate.action.add')}</PermButton>
          </Space>
        )}
        columns={[
          {
            title: F('customer'), dataIndex: 'custName', width: 200, ellipsis: true, fixed: 'left',
            render: (v: string, r) => <Link to={autoLedgerPaths.detail(r.ruleId)} data-testid={`auto-ledger-rule-${r.ruleId}`}>{v}</Link>,
          },
          { title: <WithHelp label={F('day')} help={t('billautomate.help.day')} />, dataIndex: 'dayOfMonth', width: 130, render: (v: number) => t('billautomate.dayOfMonth', { day: v }) },
          { title: <WithHelp label={F('actions')} help={t('billautomate.help.actions')} />, key: 'actions', width: 260, render: (_: unknown, r) => actionsText(r) },
          { title: F('enabled'), dataIndex: 'enabled', width: 100, render: (_: number, r) => <RuleSwitch rule={r} onToggle={toggle} /> },
          {
            title: <WithHelp label={F('next')} help={t('billautomate.help.next')} />, dataIndex: 'nextDay', width: 190,
            render: (_: string | null, r) => nextText(r),
          },
          {
            title: F('last'), key: 'last', width: 170,
            render: (_: unknown, r) => (r.lastExec ? (
              <Space size={4}>
                <span>{r.lastExec.periodKey}</span>
                <StatusTag enumOf={BillAutoExecState} value={r.lastExec.state} colors={EXEC_STATE_COLORS} />
              </Space>
            ) : '-'),
          },
          { title: F('remark'), dataIndex: 'remark', width: 160, ellipsis: true, render: (v: string | null) => v || '-' },
          { title: F('updatedBy'), dataIndex: 'updatedBy', width: 130, render: (v: string | null, r) => v ?? r.createdBy },
          {
            title: t('common.actions'), key: 'ops', fixed: 'right', width: 64 + (canEdit ? 56 : 0) + (canDelete ? 56 : 0),
            render: (_: unknown, r) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => void navigate(autoLedgerPaths.detail(r.ruleId))}>{t('billautomate.action.detail')}</Button>
                {canEdit && <Button type="link" size="small" onClick={() => setEditing({ rule: r })} data-testid={`auto-ledger-edit-${r.ruleId}`}>{t('billautomate.action.edit')}</Button>}
                {canDelete && <Button type="link" size="small" danger onClick={() => remove(r)} data-testid={`auto-ledger-delete-${r.ruleId}`}>{t('billautomate.action.delete')}</Button>}
              </Space>
            ),
          },
        ]}
      />
      <RuleFormModal open={editing !== null} rule={editing?.rule ?? null} onClose={() => setEditing(null)} onSaved={refreshSoon} />
    </>
  );
}
