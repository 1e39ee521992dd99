import { useEffect, useState } from 'react';
import { LiveText } from '../../../../request/LiveText.tsx';
import { Alert, App, Col, Form, Input, Modal, Row, Select } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  account, NOTE_LIMITS, STAFF_ROLE_TYPES, validateEmailList, validateLength, validatePassword, validatePhoneList, type ResponseOf,
} from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { required, ruleOf } from '../../../../components/rules.ts';
import { useSession } from '../../../../stores/session.ts';
import { CustomerSelect } from '../../customer/CustomerSelect.tsx';
import { assignableRoles, roleLabel } from '../helpers.ts';
import { invalidateAccounts } from '../FreezeModal.tsx';

export type AccountRecord = ResponseOf<typeof account.getAccountListPage>['list'][number];

interface Values {
  loginName?: string;
  userName?: string;
  custId?: number;
  roleId?: number;
  phone?: string;
  email?: string;
  password?: string;
  remark?: string;
}

const LOGIN_NAME_RE = /^[A-Za-z0-9_.@-]{2,32}$/;
const max = (n: number) => ruleOf((v) => validateLength(v, n));

/** The roles that may be given to an account of this customer (none chosen: a staff account). */
function useRoleOptions(custId: number | null | undefined, enabled: boolean) {
  const { i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const body = custId != null ? { custId } : {};
  const query = useQuery({
    queryKey: [account.getRoleList.name, body],
    queryFn: ({ signal }) => call(account.getRoleList, body, { signal }),
    enabled,
  });
  const options = assignableRoles(query.data ?? [], custId).map((r) => ({ value: r.roleId, label: roleLabel(r, lang) }));
  return { options, loading: query.isFetching };
}

/**
 * Creates an account (record null) or edits one. Staff may pick any customer or none (an operator staff
 * account); a channel customer picks within its own tree. The role list follows the chosen customer. With
 * no password given the server generates a one-time one, handed to onCreated to be shown once.
 */
export function AccountForm({ open, record, fixedCustId, fixedCustName, onClose, onCreated }: {
  open: boolean;
  record: AccountRecord | null;
  fixedCustId: number | null;
  fixedCustName?: string | null;
  onClose: () => void;
  onCreated: (loginName: string, initialPassword: string | null) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const roleType = useSession((s) => s.roleId);
  const ownCustId = useSession((s) => s.custId);
  const staff = roleType !== null && STAFF_ROLE_TYPES.includes(roleType);
  const editing = record !== null;
  const watchedCust = Form.useWatch('custId', form);
  const custId = editing ? record.custId : watchedCust;
  const roles = useRoleOptions(custId, open && (editing || staff || custId != null));

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (record) {
      form.setFieldsValue({
        userName: record.userName, roleId: record.roleId, phone: record.phone ?? undefined, email: record.email ?? undefined,
        remark: record.remark ?? undefined,
      });
    } else {
      const preset = fixedCustId ?? (staff ? undefined : (ownCustId ?? undefined));
      form.setFieldsValue({ custId: preset });
    }
  }, [open, record, fixedCustId, staff, ownCustId, form]);

  const submit = async (v: Values) => {
    setBusy(true);
    try {
      const text = (s?: string) => s?.trim() ?? '';
      if (record) {
        await call(account.updateAccount, {
          accountId: record.accountId, userName: text(v.userName), roleId: v.roleId,
          phone: text(v.phone), email: text(v.email), remark: text(v.remark),
        });
        message.success(<LiveText k="common.operationSuccess" />);
        invalidateAccounts(qc);
        onClose();
      } else {
        const res = await call(account.saveAccount, {
          loginName: text(v.loginName), userName: text(v.userName), roleId: v.roleId!,
          ...(v.custId != null && { custId: v.custId }),
          ...(text(v.phone) && { phone: text(v.phone) }),
          ...(text(v.email) && { email: text(v.email) }),
          ...(v.password && { password: v.password }),
          ...(text(v.remark) && { remark: text(v.remark) }),
        });
        invalidateAccounts(qc);
        onClose();
        if (res?.initialPassword) onCreated(text(v.loginName), res.initialPassword);
        else message.success(<LiveText k="common.operationSuccess" />);
      }
    } catch {
      /* the request layer shows why */
    } finally {
      setBusy(false);
    }
  };

  const roleDisabled = !editing && !staff && custId == null;
  return (
    <Modal
      open={open}
      title={editing ? t('home.account.editTitle', { loginName: record.loginName }) : t('home.account.createTitle')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: busy }}
      onOk={() => form.submit()}
      onCancel={onClose}
      width={720}
      forceRender
    >
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={submit}
        onValuesChange={(changed) => {
          if ('custId' in changed) form.setFieldValue('roleId', undefined);
        }}
      >
        <Row gutter={16}>
          <Col xs={24} md={12}>
            {editing ? (
              <Form.Item label={t('home.account.loginName')}><Input value={record.loginName} disabled /></Form.Item>
            ) : (
              <Form.Item
                name="loginName"
                label={t('home.account.loginName')}
                extra={t('home.account.loginNameHint')}
                rules={[required(), { pattern: LOGIN_NAME_RE, message: t('home.account.loginNameRule') }]}
              >
                <Input autoComplete="off" />
              </Form.Item>
            )}
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="userName" label={t('home.account.userName')} rules={[required(), { whitespace: true, message: t('common.required') }, max(40)]}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            {editing ? (
              <Form.Item label={t('home.account.customer')}>
                <Input value={record.custName ?? t('home.account.staffAccount')} disabled />
              </Form.Item>
            ) : (
              <Form.Item
                name="custId"
                label={t('home.account.customer')}
                extra={staff ? t('home.account.customerStaffHint') : undefined}
                rules={staff ? [] : [required()]}
              >
                <CustomerSelect
                  allowClear={staff}
                  disabled={fixedCustId !== null}
                  initialLabel={fixedCustName}
                  placeholder={staff ? t('home.account.noCustomer') : undefined}
                />
              </Form.Item>
            )}
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="roleId" label={t('home.account.role')} rules={[required()]}>
              <Select
                options={roles.options}
                loading={roles.loading}
                disabled={roleDisabled}
                placeholder={roleDisabled ? t('home.account.pickCustomerFirst') : t('home.account.pickRole')}
                notFoundContent={t('home.account.noRole')}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="phone" label={t('home.account.phone')} extra={t('home.customer.phoneHint')} rules={[ruleOf(validatePhoneList, { optional: true }), max(200)]}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="email" label={t('home.account.email')} extra={t('home.customer.emailHint')} rules={[ruleOf(validateEmailList, { optional: true }), max(500)]}>
              <Input />
            </Form.Item>
          </Col>
          {!editing && (
            <Col xs={24} md={12}>
              <Form.Item name="password" label={t('home.account.password')} extra={t('home.account.passwordHint')} rules={[ruleOf(validatePassword, { optional: true })]}>
                <Input.Password autoComplete="new-password" />
              </Form.Item>
            </Col>
          )}
          <Col span={24}>
            <Form.Item name="remark" label={t('common.remark')} rules={[max(NOTE_LIMITS.long)]}>
              <Input.TextArea rows={2} showCount maxLength={NOTE_LIMITS.long} />
            </Form.Item>
          </Col>
        </Row>
        {editing && record.mustResetPassword && <Alert type="info" showIcon title={t('home.account.mustResetNote')} />}
      </Form>
    </Modal>
  );
}
