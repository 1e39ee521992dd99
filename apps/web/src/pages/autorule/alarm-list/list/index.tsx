import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AutoRuleLevel, AutoRuleRunKind, AutoRuleType, autorule, formatDateTime, withZoneLabel } from '@lynx/contract';
import type { Dayjs } from 'dayjs';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { pickerToDay } from '../../../../components/businessTime.ts';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { LEVEL_COLORS, autoRulePaths, type AlarmRow } from '../../shared.tsx';

/** /autorule/alarm-list/list (5020000): trigger records, one per rule and check that recorded cards, newest first. */
export default function AlarmList() {
  const { t } = useTranslation();
  const A = (k: string) => t(`autorule.alarm.${k}`);
  const table = useSearchTable(autorule.getAlarmListPage, {
    transform: (v) => {
      const { range, ...rest } = v as { range?: [Dayjs, Dayjs] };
      return range?.[0] ? { ...rest, startDate: pickerToDay(range[0]), endDate: pickerToDay(range[1]) } : rest;
    },
  });
  const fields: SearchField[] = [
    { name: 'ruleType', label: t('autorule.f.type'), type: 'enum', enumOf: AutoRuleType },
    { name: 'level', label: t('autorule.f.level'), type: 'enum', enumOf: AutoRuleLevel },
    { name: 'range', label: A('range'), type: 'dateRange' },
  ];
  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 12px' }}>{A('intro')}</Typography.Paragraph>
      <SearchTable<AlarmRow>
        table={table} title={A('title')} rowKey="alarmId" emptyHint={A('emptyHint')} fields={fields}
        columns={[
          {
            title: A('rule'), dataIndex: 'ruleName', width: 200, ellipsis: true, fixed: 'left',
            render: (v: string, r) => <Link to={autoRulePaths.alarm(r.alarmId)} data-testid={`autorule-alarm-${r.alarmId}`}>{v}</Link>,
          },
          { title: t('autorule.f.type'), dataIndex: 'ruleType', width: 130, render: (v: number) => <StatusTag enumOf={AutoRuleType} value={v} /> },
          { title: t('autorule.f.level'), dataIndex: 'level', width: 90, render: (v: number) => <StatusTag enumOf={AutoRuleLevel} value={v} colors={LEVEL_COLORS} /> },
          { title: A('runKind'), dataIndex: 'runKind', width: 140, render: (v: number) => <StatusTag enumOf={AutoRuleRunKind} value={v} /> },
          { title: A('cards'), dataIndex: 'cards', width: 100, align: 'right' },
          { title: A('actionsDone'), dataIndex: 'actionsDone', width: 110, align: 'right' },
          { title: A('actionsRefused'), dataIndex: 'actionsRefused', width: 110, align: 'right' },
          { title: withZoneLabel(A('triggeredAt')), dataIndex: 'triggeredAt', width: 170, render: (v: string) => formatDateTime(v) },
          {
            title: t('common.actions'), key: 'ops', fixed: 'right', width: 150,
            render: (_: unknown, r) => <Link to={autoRulePaths.execute(r.ruleId, r.alarmId)}>{A('executeTitle')}</Link>,
          },
        ]}
      />
    </>
  );
}
