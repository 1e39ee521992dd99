import { useState } from 'react';
import { Button, DatePicker, Space, Typography } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { Dayjs } from 'dayjs';
import { ChannelBillSource, ChannelBillState, Operator, channelbill, formatCount, formatSize } from '@lynx/contract';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { MoneyCell } from '../../../business/capital/shared.tsx';
import { WithHelp } from '../../bill/shared.tsx';
import { StateCell, channelBillPaths, isBusy, type ChannelBillRow } from '../shared.tsx';
import { ImportModal } from '../ImportModal.tsx';
import { OperatorBillOrigin } from '../OperatorBillOrigin.tsx';
import { useChannelBillActions } from '../useChannelBillActions.tsx';

const { ChannelBillPerm } = channelbill;
const filters = (v: Record<string, unknown>) => {
  const { period, ...rest } = v as { period?: Dayjs | null } & Record<string, unknown>;
  return { ...rest, ...(period ? { periodKey: period.format('YYYY-MM') } : {}) };
};

/**
 * /billing/channelbill/list (4050000): bills imported from operators and upstream channels, with the import's progress
 * while the job works and the reconciliation's counts per state once done. Import (4050001), reconcile again, delete.
 */
export default function ChannelBillList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const canImport = usePerm(ChannelBillPerm.Import);
  // while a bill is being imported or reconciled the list follows it
  const table = useSearchTable(channelbill.getChannelBillPage, { transform: filters, refetchInterval: (d) => (d?.list.some(isBusy) ? 2000 : false) });
  const [importing, setImporting] = useState(false);
  const { remove, reconcile } = useChannelBillActions(() => void table.refresh());
  const F = (k: string) => t(`channelbill.f.${k}`);
  const count = (v: number, r: ChannelBillRow) => (r.state === ChannelBillState.Reconciled ? formatCount(v) : '-');

  const fields: SearchField[] = [
    { name: 'period', label: F('period'), type: 'custom', control: <DatePicker picker="month" style={{ width: '100%' }} placeholder={t('channelbill.list.pickMonth')} /> },
    { name: 'operatorId', label: F('operator'), type: 'enum', enumOf: Operator },
    { name: 'state', label: F('state'), type: 'enum', enumOf: ChannelBillState },
    { name: 'sourceName', label: F('sourceName') },
  ];

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 12px' }} data-testid="channel-bill-intro">
        {t('channelbill.help.intro', { from: t('channelbill.help.introFrom') })}
      </Typography.Paragraph>
      <SearchTable<ChannelBillRow>
        table={table}
        title={t('channelbill.list.title')}
        rowKey="billId"
        listKey={channelBillPaths.list}
        emptyHint={t('channelbill.list.empty')}
        fields={fields}
        toolbar={canImport && (
          <PermButton perm={ChannelBillPerm.Import} type="primary" icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="channel-bill-import">{t('channelbill.action.import')}</PermButton>
        )}
        columns={[
          { title: F('billId'), dataIndex: 'billId', width: 80, fixed: 'left', render: (v: number) => <Link to={channelBillPaths.detail(v)} data-testid={`channel-bill-open-${v}`}>{v}</Link> },
          { title: <WithHelp label={F('period')} help={t('channelbill.help.periodDays')} />, dataIndex: 'periodKey', width: 120, render: (v: string, r) => <span title={`${r.periodFrom} ~ ${r.periodTo}`}>{v}</span> },
          { title: F('operator'), dataIndex: 'operatorId', width: 110, render: (v: number) => Operator.label(v, lang) },
          { title: F('sourceName'), dataIndex: 'sourceName', width: 200, ellipsis: true, render: (v: string, r) => <span title={ChannelBillSource.label(r.sourceType, lang)}>{v}</span> },
          { title: F('state'), key: 'state', width: 190, render: (_: unknown, r) => <StateCell b={r} /> },
          { title: F('lines'), dataIndex: 'totalLines', width: 100, align: 'right', render: (v: number) => (v ? formatCount(v) : '-') },
          { title: F('matched'), dataIndex: 'matched', width: 100, align: 'right', render: count },
          { title: F('differs'), dataIndex: 'differs', width: 100, align: 'right', render: (v: number, r) => <Typography.Text type={v ? 'warning' : undefined}>{count(v, r)}</Typography.Text> },
          { title: F('missingOnPlatform'), dataIndex: 'missingOnPlatform', width: 130, align: 'right', render: (v: number, r) => <Typography.Text type={v ? 'danger' : undefined}>{count(v, r)}</Typography.Text> },
          { title: F('missingInChannel'), dataIndex: 'missingInChannel', width: 150, align: 'right', render: count },
          { title: t('money.withCurrency', { label: F('channelAmount') }), dataIndex: 'channelAmount', width: 140, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          {
            title: <WithHelp label={t('money.withCurrency', { label: F('disputedAmount') })} help={t('channelbill.help.disputed')} />, dataIndex: 'disputedAmount', width: 170, align: 'right',
            render: (v: string, r) => (r.state === ChannelBillState.Reconciled ? <MoneyCell v={v} /> : '-'),
          },
          {
            title: F('origin'), dataIndex: 'fileName', width: 220, ellipsis: true,
            render: (v: string, r) => (r.operatorBill ? <OperatorBillOrigin origin={r.operatorBill} /> : <span title={formatSize(r.fileSize)}>{v}</span>),
          },
          { title: F('createdBy'), dataIndex: 'createdBy', width: 110 },
          {
            title: t('common.actions'), key: 'actions', fixed: 'right', width: canImport ? 200 : 70,
            render: (_: unknown, r) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => navigate(channelBillPaths.detail(r.billId))}>{t('channelbill.action.open')}</Button>
                {canImport && r.state === ChannelBillState.Reconciled && <Button type="link" size="small" onClick={() => void reconcile(r)} data-testid={`channel-bill-reconcile-${r.billId}`}>{t('channelbill.action.reconcile')}</Button>}
                {canImport && !isBusy(r) && <Button type="link" size="small" danger onClick={() => remove(r)} data-testid={`channel-bill-delete-${r.billId}`}>{t('channelbill.action.delete')}</Button>}
              </Space>
            ),
          },
        ]}
      />
      {canImport && <ImportModal open={importing} onClose={() => { setImporting(false); void table.refresh(); }} onOpen={(id) => navigate(channelBillPaths.detail(id))} onStarted={() => void table.refresh()} />}
    </>
  );
}
