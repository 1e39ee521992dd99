import { useState } from 'react';
import { App, Button, DatePicker, Form, Modal, Select, Space, Typography, type ButtonProps } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { Dayjs } from 'dayjs';
import { Perm, channelcard, formatDateTime, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { useChannelNames, type ChannelCardBillRow } from '../../shared.tsx';

/** Search form values → filters: the month picker's value as 'YYYY-MM'. */
const billFilters = (v: Record<string, unknown>) => {
  const { period, ...rest } = v as { period?: Dayjs | null };
  return { ...rest, ...(period ? { periodKey: period.format('YYYY-MM') } : {}) };
};

/**
 * /channelCard/channelCardBill/list (16030000): a channel's bill per month and first-level customer, with the link to
 * the channel's own bill file under Billing › Channel bills; staff generate and delete (16030001).
 */
export default function ChannelCardBillList() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const T = (k: string, o?: Record<string, unknown>) => t(`channelcard.${k}`, o);
  const table = useSearchTable(channelcard.getChannelCardBillPage, { transform: billFilters });
  const names = useChannelNames();
  const canEdit = usePerm(Perm.ChannelCardBillGenerate);
  const canSeeReconcile = usePerm(Perm.BillingChannelBill);
  const [form] = Form.useForm<{ channelName: string; period: Dayjs }>();
  const [generating, setGenerating] = useState(false);
  const [busy, setBusy] = useState(false);
  const refresh = () => qc.invalidateQueries({ queryKey: [channelcard.getChannelCardBillPage.name] });

  const generate = async () => {
    const v = await form.validateFields();
    setBusy(true);
    try {
      const r = await call(channelcard.generateChannelCardBills, { channelName: v.channelName, periodKey: v.period.format('YYYY-MM') });
      message.success(T('bill.generated', r));
      setGenerating(false);
      form.resetFields();
      await refresh();
    } catch { /* shown */ } finally {
      setBusy(false);
    }
  };
  const remove = (b: ChannelCardBillRow) => modal.confirm({
    title: T('bill.delete'),
    content: T('bill.deleteConfirm', { channel: b.channelName, period: b.periodKey }),
    okButtonProps: { danger: true },
    onOk: async () => {
      await call(channelcard.deleteChannelCardBill, { billId: b.billId });
      message.success(T('bill.deleted'));
      await refresh();
    },
  });
  const detail = (b: ChannelCardBillRow) => `/channelCard/channelCardBill/detail/${b.billId}`;

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 8px' }}>{T('bill.intro')}</Typography.Paragraph>
      <SearchTable<ChannelCardBillRow>
        table={table}
        title={T('bill.title')}
        rowKey="billId"
        emptyHint={T('bill.emptyHint')}
        toolbar={(
          <PermButton perm={Perm.ChannelCardBillGenerate} type="primary" icon={<PlusOutlined />} onClick={() => setGenerating(true)} data-testid="cc-bill-generate">
            {T('bill.generate')}
          </PermButton>
        )}
        fields={[
          { name: 'channelName', label: T('channel'), type: 'select', options: (names.data ?? []).map((n) => ({ value: n, label: n })) },
          { name: 'period', label: T('bill.period'), type: 'custom', control: <DatePicker picker="month" style={{ width: '100%' }} /> },
        ]}
        columns={[
          { title: T('bill.period'), dataIndex: 'periodKey', key: 'periodKey', fixed: 'left', width: 110, render: (v: string, r) => <Link to={detail(r)} data-testid="cc-bill-link">{v}</Link> },
          { title: T('channel'), dataIndex: 'channelName', key: 'channelName', width: 160, ellipsis: true },
          { title: T('customer'), dataIndex: 'custName', key: 'custName', width: 200, ellipsis: true, render: (v: string | null) => v ?? T('stockCustomer') },
          { title: T('bill.cardCount'), dataIndex: 'cardCount', key: 'cardCount', width: 90, align: 'right' },
          { title: T('bill.totalAmount'), dataIndex: 'totalAmount', key: 'totalAmount', width: 130, align: 'right' },
          {
            title: T('bill.reconcile'), dataIndex: 'reconcileBillId', key: 'reconcileBillId', width: 130,
            render: (v: number | null) => (v == null ? <Typography.Text type="secondary">{T('bill.noReconcile')}</Typography.Text>
              : canSeeReconcile ? <Link to={`/billing/channelbill/detail/${v}`}>{T('bill.reconcileOpen')}</Link> : `#${v}`),
          },
          { title: T('bill.createdBy'), dataIndex: 'createdBy', key: 'createdBy', width: 100 },
          { title: withZoneLabel(T('bill.createdAt')), dataIndex: 'createdAt', key: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
          {
            title: t('common.actions'), key: 'actions', fixed: 'right', width: canEdit ? 140 : 90,
            render: (_: unknown, r) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => navigate(detail(r))}>{T('detail')}</Button>
                {canEdit && <Button type="link" size="small" danger onClick={() => remove(r)}>{T('bill.delete')}</Button>}
              </Space>
            ),
          },
        ]}
      />
      <Modal open={generating} title={T('bill.generateTitle')} onCancel={() => setGenerating(false)} onOk={() => void generate()} confirmLoading={busy} destroyOnHidden
        okButtonProps={{ 'data-testid': 'cc-bill-generate-ok' } as ButtonProps}>
        <Typography.Paragraph type="secondary">{T('bill.generateHint')}</Typography.Paragraph>
        <Form form={form} layout="vertical" preserve={false}>
          <Form.Item name="channelName" label={T('channel')} rules={[{ required: true, message: T('bill.channelRequired') }]}>
            <Select options={(names.data ?? []).map((n) => ({ value: n, label: n }))} showSearch data-testid="cc-bill-channel" />
          </Form.Item>
          <Form.Item name="period" label={T('bill.period')} rules={[{ required: true, message: T('bill.periodRequired') }]}>
            <DatePicker picker="month" style={{ width: '100%' }} data-testid="cc-bill-period" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
