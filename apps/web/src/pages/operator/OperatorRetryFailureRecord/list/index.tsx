import { useState } from 'react';
import { Button, Popconfirm, Space, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CardChangeFailureState, CardChangeType, formatDateTime, opconfig, withZoneLabel } from '@lynx/contract';
import { SearchTable, dateRange } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { usePerm } from '../../../../components/PermButton.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { operatorName, useOperatorNames, useOperators } from '../../shared.tsx';
import { PERM, useLang } from '../../config/shared.tsx';
import { FAILURE_STATE_COLORS, HandleModal, RequestSummary, isOpen, useFailureActions, type FailureRow } from '../shared.tsx';

/**
 * /operator/OperatorRetryFailureRecord/list (also under /operationManagement): card changes the operator
 * gateway refused; retry through the record's access configuration, or mark handled.
 */
export default function FailureList() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const table = useSearchTable(opconfig.getCardChangeFailurePage, { transform: (v) => dateRange(v) });
  const operators = useOperators();
  const names = useOperatorNames(operators.data, lang);
  const canAct = usePerm(PERM.failureAct);
  const actions = useFailureActions();
  const [handling, setHandling] = useState<number | null>(null);
  const detail = (msisdn: string) => void navigate(`../detail/${encodeURIComponent(msisdn)}`, { relative: 'path' });

  return (
    <>
      <SearchTable<FailureRow>
        table={table}
        title={t('opconfig.failure.title')}
        rowKey="failureId"
        exportSource={opconfig.getCardChangeFailurePage}
        emptyHint={t('opconfig.failure.emptyHint')}
        fields={[
          { name: 'msisdn', label: t('opconfig.failure.msisdn') },
          { name: 'iccid', label: t('opconfig.failure.iccid') },
          { name: 'operatorId', label: t('opconfig.operator'), type: 'select', options: (operators.data ?? []).map((o) => ({ value: o.operatorId, label: operatorName(o, lang) })) },
          { name: 'changeType', label: t('opconfig.failure.changeType'), type: 'enum', enumOf: CardChangeType },
          { name: 'state', label: t('opconfig.failure.state'), type: 'enum', enumOf: CardChangeFailureState },
          { name: 'range', label: t('opconfig.failure.range'), type: 'dateRange' },
        ]}
        columns={[
          { title: t('opconfig.failure.msisdn'), dataIndex: 'msisdn', width: 150, render: (v: string) => <Typography.Link onClick={() => detail(v)}>{v}</Typography.Link> },
          { title: t('opconfig.failure.iccid'), dataIndex: 'iccid', width: 200, render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
          { title: t('opconfig.operator'), dataIndex: 'operatorId', width: 100, render: (v: number) => names.get(v) ?? v },
          { title: t('opconfig.failure.operAccount'), dataIndex: 'operAccountName', width: 140, render: (v: string | null) => v ?? <Typography.Text type="secondary">{t('opconfig.failure.accountGone')}</Typography.Text> },
          { title: t('opconfig.failure.changeType'), dataIndex: 'changeType', width: 110, render: (v: number) => <StatusTag enumOf={CardChangeType} value={v} /> },
          { title: t('opconfig.failure.request'), dataIndex: 'request', width: 220, render: (v: FailureRow['request']) => <RequestSummary request={v} lang={lang} /> },
          {
            title: t('opconfig.failure.failureReason'), dataIndex: 'failureReason', width: 260, ellipsis: true,
            render: (v: string, r) => <Tooltip title={`${r.failureCode}: ${v}`}><span>{v}</span></Tooltip>,
          },
          { title: t('opconfig.failure.attempts'), dataIndex: 'attempts', width: 90 },
          { title: t('opconfig.failure.state'), dataIndex: 'state', width: 110, render: (v: number) => <StatusTag enumOf={CardChangeFailureState} value={v} colors={FAILURE_STATE_COLORS} /> },
          { title: withZoneLabel(t('opconfig.failure.createdAt')), dataIndex: 'createdAt', sorter: true, width: 170, render: (v: string) => formatDateTime(v) },
          {
            title: t('common.actions'), key: 'actions', fixed: 'right', width: 210,
            render: (_: unknown, r) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => detail(r.msisdn)}>{t('common.detail')}</Button>
                {canAct && isOpen(r.state) && (
                  <>
                    <Popconfirm title={t('opconfig.failure.retryConfirm')} okText={t('common.ok')} cancelText={t('common.cancel')} onConfirm={() => actions.retry(r.failureId)}>
                      <Button type="link" size="small" loading={actions.busy === r.failureId}>{t('opconfig.failure.retry')}</Button>
                    </Popconfirm>
                    <Button type="link" size="small" onClick={() => setHandling(r.failureId)}>{t('opconfig.failure.handle')}</Button>
                  </>
                )}
              </Space>
            ),
          },
        ]}
      />
      <HandleModal failureId={handling} onClose={() => setHandling(null)} onDone={actions.refresh} />
    </>
  );
}
