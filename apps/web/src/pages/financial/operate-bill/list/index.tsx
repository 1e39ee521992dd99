import { useState } from 'react';
import { Alert, App, Button, DatePicker, Form, Modal, Select, Space, Tooltip, Typography } from 'antd';
import { CloudDownloadOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Operator, formatCount, formatSize, operatebill } from '@lynx/contract';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { MoneyCell } from '../../../business/capital/shared.tsx';
import { WithHelp } from '../../../billing/bill/shared.tsx';
import { call } from '../../../../request/http.ts';
import { OperatorBillDetailDrawer } from '../DetailDrawer.tsx';
import { ChannelBillCell, mayReconcile, useReconcileOperatorBill } from '../reconcile.tsx';
import {
  OperateBillPerm, OperatorBillState, STATE_COLORS, useAccountName, useOperatorAccounts, useOperatorBillActions, type OperatorBillRow,
} from '../shared.tsx';

/** The search form's values → the list's filters: the month range as period keys. */
function filters(values: Record<string, any>): Record<string, unknown> {
  const { range, ...rest } = values as { range?: [Dayjs | null, Dayjs | null] };
  return { ...rest, periodFrom: range?.[0]?.format('YYYY-MM'), periodTo: range?.[1]?.format('YYYY-MM') };
}

/** Staff ask for a period the job does not reach by itself (older than its look-back): an account and a month. */
function FetchPeriodModal({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const nameOf = useAccountName();
  const accounts = useOperatorAccounts();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ account?: string; month?: Dayjs }>();
  const A = (k: string) => t(`operatebill.action.${k}`);
  const submit = async () => {
    const v = await form.validateFields();
    const a = accounts.data?.find((x) => `${x.operatorId}/${x.operAccountId}` === v.account);
    if (!a || !v.month) return;
    setBusy(true);
    try {
      await call(operatebill.refetchOperatorBill, { operatorId: a.operatorId, operAccountId: a.operAccountId, periodKey: v.month.format('YYYY-MM') });
      message.success(A('refetchStarted'));
      onClose();
    } finally {
      setBusy(false);
      onDone();
    }
  };
  return (
    <Modal open={open} title={A('fetchPeriodTitle')} onCancel={onClose} onOk={() => void submit()} okText={A('fetch')} confirmLoading={busy} cancelText={t('common.cancel')} destroyOnHidden>
      <Typography.Paragraph type="secondary">{A('fetchPeriodHint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="account" label={t('operatebill.f.account')} rules={[{ required: true }]}>
          <Select loading={accounts.isLoading} data-testid="operate-bill-fetch-account"
            options={(accounts.data ?? []).map((a) => ({ value: `${a.operatorId}/${a.operAccountId}`, label: `${Operator.label(a.operatorId, lang)} · ${nameOf(a.operAccountId, a.accountName)}` }))} />
        </Form.Item>
        <Form.Item name="month" label={t('operatebill.f.period')} rules={[{ required: true }]}>
          <DatePicker picker="month" style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** /financial/operate-bill/list (9030000, staff only): the carriers' bills per operator account and period against revenue. */
export default function OperateBillList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const qc = useQueryClient();
  const nameOf = useAccountName();
  const accounts = useOperatorAccounts();
  const canRefetch = usePerm(OperateBillPerm.Refetch);
  const canConfirm = usePerm(OperateBillPerm.Confirm);
  const canExport = usePerm(OperateBillPerm.Export);
  const table = useSearchTable(operatebill.getOperatorBillListPage, { transform: filters });
  const [detail, setDetail] = useState<number | null>(null);
  const [fetching, setFetching] = useState(false);
  const changed = () => {
    void table.refresh();
    void qc.invalidateQueries({ queryKey: [operatebill.getOperatorBillDetail.name] });
    // the job fetches at once after a re-fetch: show it landing
    for (const ms of [2000, 6000]) setTimeout(() => void table.refresh(), ms);
  };
  const { refetch, confirm } = useOperatorBillActions(changed);
  const { canReconcile, reconcile } = useReconcileOperatorBill(changed);
  const F = (k: string) => t(`operatebill.f.${k}`);
  const H = (k: string) => t(`operatebill.help.${k}`);
  const M = (label: string) => t('money.withCurrency', { label });
  const done = (r: OperatorBillRow) => r.state === OperatorBillState.Fetched || r.state === OperatorBillState.Confirmed;

  const fields: SearchField[] = [
    { name: 'operatorId', label: F('operator'), type: 'enum', enumOf: Operator },
    {
      name: 'operAccountId', label: F('account'), type: 'select',
      options: (accounts.data ?? []).map((a) => ({ value: a.operAccountId, label: `${Operator.label(a.operatorId, lang)} · ${nameOf(a.operAccountId, a.accountName)}` }))
        .filter((o, i, all) => all.findIndex((x) => x.value === o.value) === i),
    },
    { name: 'range', label: F('periodRange'), type: 'custom', control: <DatePicker.RangePicker picker="month" style={{ width: '100%' }} data-testid="operate-bill-range" /> },
    { name: 'state', label: F('state'), type: 'enum', enumOf: OperatorBillState },
  ];

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 8px' }}>{t('operatebill.intro')}</Typography.Paragraph>
      <Alert type="info" showIcon style={{ marginBottom: 12 }} data-testid="operate-bill-formula" title={t('operatebill.formula')} description={H('cost')} />
      <SearchTable<OperatorBillRow>
        table={table}
        title={t('operatebill.title')}
        rowKey="operatorBillId"
        fields={fields}
        emptyHint={t('operatebill.emptyHint')}
        exportVia={canExport ? operatebill.exportOperatorBills : undefined}
        toolbar={<PermButton perm={OperateBillPerm.Refetch} icon={<CloudDownloadOutlined />} onClick={() => setFetching(true)} data-testid="operate-bill-fetch-period">{t('operatebill.action.fetchPeriod')}</PermButton>}
        columns={[
          {
            title: <WithHelp label={F('period')} help={H('period')} />, dataIndex: 'periodKey', width: 100, fixed: 'left',
            render: (v: string, r) => <Tooltip title={`${r.periodFrom} ~ ${r.periodTo}`}><span>{v}</span></Tooltip>,
          },
          {
            title: <WithHelp label={F('account')} help={H('account')} />, dataIndex: 'accountName', width: 170, ellipsis: true,
            render: (v: string, r) => (
              <>
                <div>{Operator.label(r.operatorId, lang)}</div>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>{nameOf(r.operAccountId, v)}</Typography.Text>
              </>
            ),
          },
          {
            title: <WithHelp label={F('state')} help={H('state')} />, dataIndex: 'state', width: 100,
            render: (v: number, r) => (
              <Tooltip title={r.lastError ? t('operatebill.failedAt', { reason: r.lastError, n: r.attempts }) : undefined}>
                <span data-testid={`operate-bill-state-${r.operatorBillId}`}><StatusTag enumOf={OperatorBillState} value={v} colors={STATE_COLORS} /></span>
              </Tooltip>
            ),
          },
          { title: <WithHelp label={M(F('cost'))} help={H('cost')} />, dataIndex: 'cost', width: 140, align: 'right', render: (v: string, r) => <MoneyCell v={done(r) ? v : null} /> },
          {
            title: <WithHelp label={M(F('revenue'))} help={H('revenue')} />, dataIndex: 'revenue', width: 140, align: 'right',
            render: (v: string, r) => (r.periodBilled ? <MoneyCell v={v} /> : <Typography.Text type="secondary">{t('operatebill.notBilled')}</Typography.Text>),
          },
          { title: <WithHelp label={M(F('margin'))} help={H('margin')} />, dataIndex: 'margin', width: 140, align: 'right', render: (v: string | null) => <MoneyCell v={v} /> },
          { title: F('marginPct'), dataIndex: 'marginPct', width: 90, align: 'right', render: (v: string | null) => (v === null ? '-' : `${v}%`) },
          { title: F('cards'), dataIndex: 'cards', width: 100, align: 'right', render: (v: number, r) => (done(r) ? formatCount(v) : '-') },
          { title: F('data'), dataIndex: 'dataBytes', width: 110, align: 'right', render: (v: number, r) => (done(r) ? formatSize(v) : '-') },
          {
            title: <WithHelp label={F('bills')} help={H('bills')} />, dataIndex: 'revenueBills', width: 130, align: 'right',
            render: (v: number, r) => t('operatebill.billsOf', { n: formatCount(v), published: formatCount(r.revenuePublished) }),
          },
          {
            title: <WithHelp label={F('reconciliation')} help={H('reconciliation')} />, key: 'channelBill', width: 220,
            render: (_: unknown, r) => (done(r) ? <ChannelBillCell r={r} /> : '-'),
          },
          {
            title: t('common.actions'), key: 'actions', fixed: 'right', width: 240,
            render: (_: unknown, r) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setDetail(r.operatorBillId)} data-testid={`operate-bill-detail-${r.operatorBillId}`}>{t('operatebill.action.detail')}</Button>
                {canRefetch && r.state !== OperatorBillState.Confirmed && r.state !== OperatorBillState.Fetching && (
                  <Button type="link" size="small" onClick={() => refetch(r)} data-testid={`operate-bill-refetch-${r.operatorBillId}`}>{t('operatebill.action.refetch')}</Button>
                )}
                {canConfirm && r.state === OperatorBillState.Fetched && (
                  <Button type="link" size="small" onClick={() => confirm(r)} data-testid={`operate-bill-confirm-${r.operatorBillId}`}>{t('operatebill.action.confirm')}</Button>
                )}
                {canReconcile && mayReconcile(r) && (
                  <Button type="link" size="small" onClick={() => reconcile(r)} data-testid={`operate-bill-reconcile-${r.operatorBillId}`}>{t('operatebill.action.reconcile')}</Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      <OperatorBillDetailDrawer operatorBillId={detail} onClose={() => setDetail(null)} />
      <FetchPeriodModal open={fetching} onClose={() => setFetching(false)} onDone={changed} />
    </>
  );
}
