import { useState } from 'react';
import { LiveText } from '../../../request/LiveText.tsx';
import { App, Form, Input, Modal, Popconfirm, Space, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { account, AuditStatus, NOTE_LIMITS, formatDateTime, validateLength, type ResponseOf, withZoneLabel } from '@lynx/contract';
import { SearchTable } from '../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../components/useSearchTable.ts';
import { StatusTag } from '../../../components/StatusTag.tsx';
import { required, ruleOf } from '../../../components/rules.ts';
import { call } from '../../../request/http.ts';
import { invalidateCustomers } from './CustomerForm.tsx';

type Apply = ResponseOf<typeof account.getRegisterApplyListPage>['list'][number];

const AUDIT_COLORS: Record<number, string> = { [AuditStatus.Submitted]: 'orange', [AuditStatus.Passed]: 'green', [AuditStatus.Rejected]: 'red' };

/** Registration review (staff with 8010002): approval creates the first-level customer and its administrator. */
export function RegisterApplies() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const table = useSearchTable(account.getRegisterApplyListPage);
  const [approving, setApproving] = useState<number | null>(null);
  const [rejecting, setRejecting] = useState<Apply | null>(null);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ reason: string }>();

  const refreshBoth = () => {
    void qc.invalidateQueries({ queryKey: [account.getRegisterApplyListPage.name] });
    invalidateCustomers(qc);
  };
  const approve = async (row: Apply) => {
    setApproving(row.applyId);
    try {
      await call(account.auditRegisterApply, { applyId: row.applyId, pass: true });
      message.success(t('home.apply.approved', { name: row.custName }));
    } catch {
      /* the request layer shows why */
    } finally {
      setApproving(null);
      refreshBoth();
    }
  };
  const reject = async ({ reason }: { reason: string }) => {
    if (!rejecting) return;
    setBusy(true);
    try {
      await call(account.auditRegisterApply, { applyId: rejecting.applyId, pass: false, reason: reason.trim() });
      message.success(<LiveText k="common.operationSuccess" />);
      setRejecting(null);
    } catch {
      /* the request layer shows why */
    } finally {
      setBusy(false);
      refreshBoth();
    }
  };

  return (
    <>
      <SearchTable<Apply>
        table={table}
        title={t('home.apply.title')}
        rowKey="applyId"
        emptyHint={t('home.apply.emptyHint')}
        fields={[
          { name: 'custName', label: t('home.customer.fields.custName') },
          { name: 'auditStatus', label: t('home.apply.auditStatus'), type: 'enum', enumOf: AuditStatus },
        ]}
        columns={[
          { title: withZoneLabel(t('home.apply.appliedAt')), dataIndex: 'createdAt', width: 170, render: (v) => formatDateTime(v) },
          { title: t('home.customer.fields.custName'), dataIndex: 'custName', width: 200, ellipsis: true },
          { title: t('home.account.loginName'), dataIndex: 'loginName', width: 140, ellipsis: true },
          { title: t('home.customer.fields.adminName'), dataIndex: 'adminName', width: 120, ellipsis: true },
          { title: t('home.customer.fields.adminPhone'), dataIndex: 'adminPhone', width: 150, ellipsis: true },
          { title: t('home.customer.fields.adminEmail'), dataIndex: 'adminEmail', width: 200, ellipsis: true },
          { title: t('home.customer.fields.businessLicense'), dataIndex: 'businessLicense', width: 150, ellipsis: true, render: (v) => v ?? '-' },
          { title: t('home.customer.fields.website'), dataIndex: 'website', width: 180, ellipsis: true, render: (v) => v ?? '-' },
          { title: t('common.remark'), dataIndex: 'remark', width: 180, ellipsis: true, render: (v) => v ?? '-' },
          { title: t('home.apply.auditStatus'), dataIndex: 'auditStatus', width: 100, render: (v: number) => <StatusTag enumOf={AuditStatus} value={v} colors={AUDIT_COLORS} /> },
          { title: t('home.apply.auditReason'), dataIndex: 'auditReason', width: 180, ellipsis: true, render: (v) => v ?? '-' },
          { title: t('home.apply.auditBy'), dataIndex: 'auditBy', width: 120, ellipsis: true, render: (v) => v ?? '-' },
          { title: withZoneLabel(t('home.apply.auditAt')), dataIndex: 'auditAt', width: 170, render: (v) => formatDateTime(v) },
          {
            title: t('common.actions'), key: 'actions', fixed: 'right', width: 140,
            render: (_v, row) =>
              row.auditStatus === AuditStatus.Submitted ? (
                <Space size="small">
                  <Popconfirm
                    title={t('home.apply.approveConfirm', { name: row.custName })}
                    description={t('home.apply.approveHint', { loginName: row.loginName })}
                    okText={t('home.apply.approve')}
                    cancelText={t('common.cancel')}
                    onConfirm={() => approve(row)}
                  >
                    <Typography.Link disabled={approving === row.applyId}>{t('home.apply.approve')}</Typography.Link>
                  </Popconfirm>
                  <Typography.Link type="danger" onClick={() => setRejecting(row)}>{t('home.apply.reject')}</Typography.Link>
                </Space>
              ) : (
                <Typography.Text type="secondary">{t('home.apply.handled')}</Typography.Text>
              ),
          },
        ]}
      />
      <Modal
        open={rejecting !== null}
        title={t('home.apply.rejectTitle', { name: rejecting?.custName })}
        okText={t('home.apply.reject')}
        okButtonProps={{ danger: true, loading: busy }}
        cancelText={t('common.cancel')}
        onOk={() => form.submit()}
        onCancel={() => setRejecting(null)}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={reject} preserve={false}>
          <Form.Item
            name="reason"
            label={t('home.apply.rejectReason')}
            rules={[required(), { whitespace: true, message: t('common.required') }, ruleOf((v) => validateLength(v, NOTE_LIMITS.long))]}
          >
            <Input.TextArea rows={4} showCount maxLength={NOTE_LIMITS.long} placeholder={t('home.apply.rejectPlaceholder')} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
