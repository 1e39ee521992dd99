import { Button, Result, Space } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { AutoRuleChannel, AutoRuleDeliveryState, autorule, formatDateTime, withZoneLabel, type ResponseOf } from '@lynx/contract';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { usePageTitle } from '../../../../layout/pageTitle.ts';
import { DELIVERY_COLORS, autoRulePaths } from '../../shared.tsx';

type DeliveryRow = ResponseOf<typeof autorule.getActionRecords>['list'][number];

function DeliveryTable({ alarmId }: { alarmId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const A = (k: string) => t(`autorule.alarm.${k}`);
  const table = useSearchTable(autorule.getActionRecords, { fixed: { alarmId } });
  const fields: SearchField[] = [
    { name: 'iccid', label: A('iccid') },
    { name: 'channel', label: A('channel'), type: 'enum', enumOf: AutoRuleChannel },
    { name: 'state', label: A('state'), type: 'enum', enumOf: AutoRuleDeliveryState },
  ];
  return (
    <SearchTable<DeliveryRow>
      table={table} rowKey="deliveryId" fields={fields}
      title={<Space><Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(autoRulePaths.alarm(alarmId))}>{t('common.back')}</Button><span>{A('deliveries')}</span></Space>}
      columns={[
        { title: A('iccid'), dataIndex: 'iccid', width: 210, fixed: 'left' },
        { title: A('channel'), dataIndex: 'channel', width: 120, render: (v: number) => <StatusTag enumOf={AutoRuleChannel} value={v} /> },
        { title: A('state'), dataIndex: 'state', width: 150, render: (v: number) => <StatusTag enumOf={AutoRuleDeliveryState} value={v} colors={DELIVERY_COLORS} /> },
        { title: A('attempts'), dataIndex: 'attempts', width: 100, align: 'right' },
        { title: A('lastError'), dataIndex: 'lastError', ellipsis: true, render: (v: string | null) => v ?? '-' },
        { title: withZoneLabel(A('createdAt')), dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
        { title: withZoneLabel(A('sentAt')), dataIndex: 'sentAt', width: 170, render: (v: string | null) => (v ? formatDateTime(v) : '-') },
      ]}
    />
  );
}

/** /autorule/alarm-list/execute-detail/:ruleId/:actionId: the notifications of one trigger record (actionId), per card and channel. */
export default function ExecuteDetail() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = Number(useParams().actionId);
  const alarmId = Number.isInteger(id) && id > 0 ? id : 0;
  usePageTitle(alarmId ? String(alarmId) : undefined);
  if (!alarmId) {
    return <div className="lx-card"><Result status="404" subTitle={t('common.notFound')} extra={<Button onClick={() => void navigate(autoRulePaths.alarms)}>{t('common.back')}</Button>} /></div>;
  }
  return <DeliveryTable alarmId={alarmId} />;
}
