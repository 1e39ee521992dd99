import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BillAutoActionResult, BillAutoExecState, BillAutoReason, Perm, bill, billautomate, formatDateTime, formatMoney, withZoneLabel } from '@lynx/contract';
import { SearchTable, type SearchField } from '../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../components/useSearchTable.ts';
import { StatusTag } from '../../../components/StatusTag.tsx';
import { usePerm } from '../../../components/PermButton.tsx';
import { CustomerSelect } from '../../home/customer/CustomerSelect.tsx';
import { MoneyCell, capitalDetailPath } from '../../business/capital/shared.tsx';
import { billPaths, WithHelp } from '../bill/shared.tsx';
import { EXEC_STATE_COLORS, RESULT_COLORS, autoLedgerPaths, type ExecRow } from './shared.tsx';

/** Why an execution waited, was skipped or did less: its reasons and error in the reader's language. */
function useReasonText() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  return (r: ExecRow) => {
    const reasons = [...new Set([r.publishReason, r.writeOffReason].filter((x): x is number => x != null && x !== BillAutoReason.Error))];
    const parts = reasons.map((x) => BillAutoReason.label(x, lang));
    if (r.writeOffReason === BillAutoReason.InsufficientBalance && r.arrears && r.payable) {
      parts.push(t('billautomate.shortOf', { arrears: formatMoney(r.arrears), payable: formatMoney(r.payable) }));
    }
    if (r.error) parts.push(r.error);
    return parts.join(lang === 'en' ? '; ' : '；');
  };
}

/**
 * The executions of one rule (`ruleId`) or of every rule the user sees, newest first: per action what it came to,
 * the bill (a link for whoever may open it) and the ledger journal of the write-off.
 */
export function ExecTable({ ruleId }: { ruleId?: number }) {
  const { t } = useTranslation();
  const canBills = usePerm([bill.BillPerm.Page, bill.BillPerm.WriteOff]);
  const canLedger = usePerm([Perm.BusinessCapital, Perm.HomeTileCapital]);
  const table = useSearchTable(billautomate.getBillAutomateExecPage, { fixed: ruleId ? { ruleId } : {}, pageSize: 10 });
  const reasonOf = useReasonText();
  const F = (k: string) => t(`billautomate.f.${k}`);
  const fields: SearchField[] = [
    ...(ruleId ? [] : [{ name: 'custId', label: F('customer'), type: 'custom' as const, control: <CustomerSelect allowClear placeholder={t('common.all')} /> }]),
    { name: 'state', label: F('state'), type: 'enum', enumOf: BillAutoExecState },
  ];
  return (
    <SearchTable<ExecRow>
      table={table}
      title={<WithHelp label={t(ruleId ? 'billautomate.execTitle' : 'billautomate.allExecTitle')} help={t('billautomate.help.state')} />}
      rowKey="execId"
      emptyHint={t('billautomate.execEmpty')}
      fields={fields}
      columns={[
        { title: F('period'), dataIndex: 'periodKey', width: 100, fixed: 'left' },
        ...(ruleId ? [] : [{
          title: F('customer'), dataIndex: 'custName', width: 180, ellipsis: true,
          render: (v: string, r: ExecRow) => <Link to={autoLedgerPaths.detail(r.ruleId)}>{v}</Link>,
        }]),
        { title: F('dueDay'), dataIndex: 'dueDay', width: 110 },
        { title: F('state'), dataIndex: 'state', width: 120, render: (v: number) => <span data-testid="auto-ledger-exec-state"><StatusTag enumOf={BillAutoExecState} value={v} colors={EXEC_STATE_COLORS} /></span> },
        {
          title: F('reason'), key: 'reason', width: 260,
          render: (_: unknown, r) => {
            const text = reasonOf(r);
            return text ? <Typography.Text type={r.state === BillAutoExecState.Attention ? 'danger' : 'secondary'}>{text}</Typography.Text> : '-';
          },
        },
        {
          title: F('bill'), dataIndex: 'billNo', width: 190,
          render: (v: string | null, r) => (v && r.billId ? (canBills ? <Link to={billPaths.detail(r.billId)}>{v}</Link> : v) : '-'),
        },
        { title: F('publishResult'), dataIndex: 'publishResult', width: 110, render: (v: number) => <StatusTag enumOf={BillAutoActionResult} value={v} colors={RESULT_COLORS} /> },
        {
          title: F('writeOffResult'), dataIndex: 'writeOffResult', width: 110,
          render: (v: number) => <StatusTag enumOf={BillAutoActionResult} value={v} colors={RESULT_COLORS} />,
        },
        { title: t('money.withCurrency', { label: F('amount') }), dataIndex: 'writeOffAmount', width: 130, align: 'right', render: (v: string | null) => (v ? <MoneyCell v={v} /> : '-') },
        {
          title: F('journal'), dataIndex: 'journalId', width: 100,
          render: (v: number | null, r) => (v ? (canLedger ? <Link to={capitalDetailPath(r.custId)}>#{v}</Link> : `#${v}`) : '-'),
        },
        { title: F('attempts'), dataIndex: 'attempts', width: 90, align: 'right' },
        { title: withZoneLabel(F('lastTried')), dataIndex: 'lastTriedAt', width: 170, render: (v: string) => formatDateTime(v) },
        {
          title: withZoneLabel(F('finished')), dataIndex: 'finishedAt', width: 170,
          render: (v: string | null) => (v ? formatDateTime(v) : '-'),
        },
      ]}
    />
  );
}
