import { useEffect, useState } from 'react';
import { Alert, App, Button, Input, Space, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  CREDIT_REASON_MAX, CreditRange, CreditStatus, CreditType, Perm, STAFF_ROLE_TYPES, credit, formatDateTime, withZoneLabel,
} from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { usePerm } from '../../../../components/PermButton.tsx';
import { useSession } from '../../../../stores/session.ts';
import { CustomerSelect } from '../../../home/customer/CustomerSelect.tsx';
import { MoneyCell } from '../../../business/capital/shared.tsx';
import { CreditFormModal } from '../CreditFormModal.tsx';
import { CREDIT_STATUS_COLORS, CREDIT_TYPE_COLORS, creditLogPath, termText, validityText, type CreditRow } from '../shared.tsx';

/** /financial/credit/list: credit orders in the viewer's scope; platform finance grants, changes and resets them. */
export default function CreditList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const { message, modal } = App.useApp();
  const staff = useSession((s) => s.roleId !== null && STAFF_ROLE_TYPES.includes(s.roleId));
  const canCustomers = usePerm([Perm.HomeCustomer, Perm.BusinessCustomer]);
  // ?custId= (from the capital list) opens the list on that customer's credit
  const [params] = useSearchParams();
  const presetId = Number(params.get('custId'));
  const preset = Number.isInteger(presetId) && presetId > 0 ? presetId : undefined;
  const table = useSearchTable(credit.getCreditListPage, { initialFilters: preset ? { custId: preset } : {} });
  useEffect(() => {
    if (preset) {
      table.form.setFieldsValue({ custId: preset });
      table.search({ ...table.form.getFieldsValue(), custId: preset });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [preset]);
  const [editing, setEditing] = useState<{ record: CreditRow | null } | null>(null);
  const F = (k: string) => t(`credit.f.${k}`);

  const reset = (r: CreditRow) => {
    let reason = '';
    modal.confirm({
      title: t('credit.resetTitle', { no: r.creditNo }),
      width: 520,
      content: (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Typography.Text>{t('credit.resetIntro')}</Typography.Text>
          <Typography.Text type="secondary">{F('resetReason')}</Typography.Text>
          <Input.TextArea maxLength={CREDIT_REASON_MAX} showCount autoSize={{ minRows: 2, maxRows: 4 }} onChange={(e) => { reason = e.target.value; }} data-testid="credit-reset-reason" />
        </Space>
      ),
      okText: t('credit.resetConfirm'),
      okButtonProps: { danger: true, 'data-testid': 'credit-reset-ok' } as { danger: boolean },
      cancelText: t('common.cancel'),
      onOk: async () => {
        if (!reason.trim()) {
          message.error(t('credit.rule.reason'));
          throw new Error('reason');
        }
        try {
          await call(credit.resetCredit, { creditId: r.creditId, reason: reason.trim() });
          message.success(t('credit.resetDone'));
          void table.refresh();
        } catch {
          /* shown by the request layer (e.g. the customer is using the credit) */
        }
      },
    });
  };

  const fields: SearchField[] = [
    ...(staff || canCustomers
      ? [{ name: 'custId', label: F('customer'), type: 'custom' as const, control: <CustomerSelect allowClear placeholder={t('common.all')} /> }]
      : []),
    { name: 'creditNo', label: F('creditNo') },
    { name: 'range', label: F('range'), type: 'enum', enumOf: CreditRange },
    { name: 'creditType', label: F('creditType'), type: 'enum', enumOf: CreditType },
    { name: 'status', label: F('status'), type: 'enum', enumOf: CreditStatus },
  ];

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 12px' }}>{t('credit.intro')}</Typography.Paragraph>
      {!staff && <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('credit.readOnlyHint')} />}
      <SearchTable<CreditRow>
        table={table}
        title={t('credit.title')}
        rowKey="creditId"
        exportSource={credit.getCreditListPage}
        emptyHint={staff ? t('credit.emptyHint') : t('credit.emptyHintReadOnly')}
        fields={fields}
        toolbar={staff && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ record: null })} data-testid="credit-add">{t('credit.add')}</Button>
        )}
        columns={[
          { title: F('creditNo'), dataIndex: 'creditNo', width: 180, fixed: 'left', render: (v: string, r) => <Link to={creditLogPath(r.creditId)}>{v}</Link> },
          { title: F('customer'), dataIndex: 'custName', width: 200, ellipsis: true },
          { title: F('creditType'), dataIndex: 'creditType', width: 120, render: (v: number) => <StatusTag enumOf={CreditType} value={v} colors={CREDIT_TYPE_COLORS} /> },
          { title: F('status'), dataIndex: 'status', width: 100, render: (v: number) => <StatusTag enumOf={CreditStatus} value={v} colors={CREDIT_STATUS_COLORS} /> },
          { title: F('amount'), dataIndex: 'amount', width: 150, align: 'right', render: (v: string) => <MoneyCell v={v} /> },
          { title: F('paymentTerm'), key: 'term', width: 120, render: (_: unknown, r) => termText(t, lang, r.paymentTerm, r.paymentUnit) },
          { title: F('validity'), key: 'validity', width: 220, render: (_: unknown, r) => validityText(t, r.validFrom, r.validTo) },
          { title: F('remark'), dataIndex: 'remark', width: 180, ellipsis: true, render: (v: string | null, r) => (r.status === CreditStatus.Reset ? r.resetReason : v) ?? '-' },
          { title: F('createdBy'), dataIndex: 'createdBy', width: 120 },
          { title: withZoneLabel(F('createdAt')), dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
          {
            title: t('common.actions'), key: 'actions', fixed: 'right', width: staff ? 200 : 110,
            render: (_: unknown, r) => (
              <Space size={0}>
                {staff && r.status === CreditStatus.Valid && (
                  <>
                    <Button type="link" size="small" onClick={() => setEditing({ record: r })} data-testid={`credit-edit-${r.creditId}`}>{t('common.edit')}</Button>
                    <Button type="link" size="small" danger onClick={() => reset(r)} data-testid={`credit-reset-${r.creditId}`}>{t('credit.resetConfirm')}</Button>
                  </>
                )}
                <Button type="link" size="small" onClick={() => navigate(creditLogPath(r.creditId))} data-testid={`credit-log-${r.creditId}`}>{t('credit.changeLog')}</Button>
              </Space>
            ),
          },
        ]}
      />
      <CreditFormModal open={!!editing} record={editing?.record ?? null} presetCustId={preset} onClose={() => setEditing(null)}
        onSaved={() => void table.refresh()} />
    </>
  );
}
