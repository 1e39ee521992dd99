import { useState } from 'react';
import { Button, Space, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { AutoRuleLevel, AutoRuleStatus, AutoRuleSwitch, AutoRuleType, autorule, formatDateTime } from '@lynx/contract';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { RuleFormModal } from '../RuleFormModal.tsx';
import {
  AutoRulePerm, LEVEL_COLORS, RuleSwitch, STATUS_COLORS, autoRulePaths, useActionText, useConditionText, useRuleActions, useScopeText, type RuleRow,
} from '../../shared.tsx';

/**
 * /autorule/autorule-list/list (5010000): the rules the user sees, with add (5010001), edit (5010002), delete (5010003),
 * publish and on/off (5010004).
 */
export default function AutoRuleList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const canEdit = usePerm(AutoRulePerm.Edit);
  const canDelete = usePerm(AutoRulePerm.Delete);
  const canSwitch = usePerm(AutoRulePerm.Switch);
  const table = useSearchTable(autorule.getRuleListPage);
  const [editing, setEditing] = useState<{ rule: RuleRow | null } | null>(null);
  const refresh = () => void table.refresh();
  const { publish, toggle, remove } = useRuleActions(refresh);
  const conditionText = useConditionText();
  const actionText = useActionText();
  const scopeText = useScopeText();
  const F = (k: string) => t(`autorule.f.${k}`);

  const fields: SearchField[] = [
    { name: 'name', label: F('name') },
    { name: 'ruleType', label: F('type'), type: 'enum', enumOf: AutoRuleType },
    { name: 'level', label: F('level'), type: 'enum', enumOf: AutoRuleLevel },
    { name: 'status', label: F('status'), type: 'enum', enumOf: AutoRuleStatus },
    { name: 'enabled', label: F('enabled'), type: 'enum', enumOf: AutoRuleSwitch },
  ];

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 12px' }}>{t('autorule.intro')}</Typography.Paragraph>
      <SearchTable<RuleRow>
        table={table}
        title={t('autorule.title')}
        rowKey="ruleId"
        emptyHint={t('autorule.emptyHint')}
        fields={fields}
        toolbar={(
          <Space>
            <Button onClick={() => void navigate(autoRulePaths.alarms)}>{t('autorule.action.records')}</Button>
            <PermButton perm={AutoRulePerm.Add} type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ rule: null })} data-testid="autorule-add">{t('autorule.action.add')}</PermButton>
          </Space>
        )}
        columns={[
          {
            title: F('name'), dataIndex: 'name', width: 180, ellipsis: true, fixed: 'left',
            render: (v: string, r) => <Link to={autoRulePaths.detail(r.ruleId)} data-testid={`autorule-rule-${r.ruleId}`}>{v}</Link>,
          },
          { title: F('type'), dataIndex: 'ruleType', width: 130, render: (v: number) => <StatusTag enumOf={AutoRuleType} value={v} /> },
          { title: F('level'), dataIndex: 'level', width: 90, render: (v: number) => <StatusTag enumOf={AutoRuleLevel} value={v} colors={LEVEL_COLORS} /> },
          { title: F('condition'), key: 'condition', width: 220, render: (_: unknown, r) => conditionText(r) },
          { title: F('action'), key: 'action', width: 240, render: (_: unknown, r) => actionText(r) },
          { title: F('scope'), key: 'scope', width: 200, ellipsis: true, render: (_: unknown, r) => scopeText(r) },
          { title: F('status'), dataIndex: 'status', width: 100, render: (v: number) => <StatusTag enumOf={AutoRuleStatus} value={v} colors={STATUS_COLORS} /> },
          { title: F('enabled'), dataIndex: 'enabled', width: 100, render: (_: number, r) => <RuleSwitch rule={r} onToggle={toggle} /> },
          { title: F('triggered'), dataIndex: 'triggeredCards', width: 120, align: 'right' },
          { title: F('lastTriggered'), dataIndex: 'lastTriggeredAt', width: 170, render: (v: string | null) => (v ? formatDateTime(v) : '-') },
          {
            title: t('common.actions'), key: 'ops', fixed: 'right', width: 64 + (canSwitch ? 56 : 0) + (canEdit ? 56 : 0) + (canDelete ? 56 : 0),
            render: (_: unknown, r) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => void navigate(autoRulePaths.detail(r.ruleId))}>{t('autorule.action.detail')}</Button>
                {canSwitch && r.status === AutoRuleStatus.Draft && (
                  <Button type="link" size="small" onClick={() => publish(r)} data-testid={`autorule-publish-${r.ruleId}`}>{t('autorule.action.publish')}</Button>
                )}
                {canEdit && <Button type="link" size="small" onClick={() => setEditing({ rule: r })} data-testid={`autorule-edit-${r.ruleId}`}>{t('autorule.action.edit')}</Button>}
                {canDelete && <Button type="link" size="small" danger onClick={() => remove(r)} data-testid={`autorule-delete-${r.ruleId}`}>{t('autorule.action.delete')}</Button>}
              </Space>
            ),
          },
        ]}
      />
      <RuleFormModal open={editing !== null} rule={editing?.rule ?? null} onClose={() => setEditing(null)} onSaved={refresh} />
    </>
  );
}
