import { useState } from 'react';
import { LiveText } from '../../../../request/LiveText.tsx';
import { Alert, App, Button, Form, Input, Modal, Popconfirm, Space, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiservice, formatDateTime, Perm, validateLength, validateWhitelistEnd, validateWhitelistStart, type ResponseOf, withZoneLabel } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { required, ruleOf } from '../../../../components/rules.ts';
import { apiConfigQuery } from './ApiKeyPanel.tsx';

type UserIp = ResponseOf<typeof apiservice.getUserIpListPage>['list'][number];
const ip = (key: string) => `doc.api.ip.${key}`;
const REMARK_MAX = 40;
/** an IPv6 address with an IPv4 tail and a prefix is the longest entry */
const IP_MAX = 50;

function AddIpModal({ open, custId, onClose, onSaved }: { open: boolean; custId: number | undefined; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const v = await form.validateFields();
    setBusy(true);
    try {
      await call(apiservice.saveUserIp, { custId, startIp: v.startIp.trim(), ...(v.endIp?.trim() && { endIp: v.endIp.trim() }), ...(v.remark?.trim() && { remark: v.remark.trim() }) });
      message.success(<LiveText k="common.operationSuccess" />);
      form.resetFields();
      onSaved();
    } catch {
      /* the request layer showed the reason */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={open} title={t(ip('addTitle'))} onOk={() => void submit().catch(() => null)} onCancel={onClose} confirmLoading={busy} okText={t('common.save')} cancelText={t('common.cancel')} destroyOnHidden>
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="startIp"
          label={t(ip('startIp'))}
          extra={t(ip('startIpHint'))}
          dependencies={['endIp']}
          rules={[required(), ({ getFieldValue }) => ruleOf((start) => validateWhitelistStart(start, Boolean(getFieldValue('endIp')?.trim())), { optional: true })]}
        >
          <Input placeholder="203.0.113.8 / 203.0.113.0/24 / 2001:db8::/48" maxLength={IP_MAX} data-testid="ip-start" />
        </Form.Item>
        <Form.Item
          name="endIp"
          label={t(ip('endIp'))}
          extra={t(ip('endIpHint'))}
          dependencies={['startIp']}
          rules={[({ getFieldValue }) => ruleOf((end) => validateWhitelistEnd(getFieldValue('startIp')?.trim(), end.trim()), { optional: true })]}
        >
          <Input placeholder="203.0.113.20" maxLength={IP_MAX} data-testid="ip-end" />
        </Form.Item>
        <Form.Item name="remark" label={t(ip('remark'))} rules={[ruleOf((v) => validateLength(v, REMARK_MAX), { optional: true })]}>
          <Input.TextArea rows={2} maxLength={REMARK_MAX} showCount data-testid="ip-remark" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Tab "IP whitelist": addresses and ranges allowed to call the open API, each enabled or disabled. */
export function IpWhitelist({ custId }: { custId: number | undefined }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const canManage = usePerm(Perm.HomeApiManage);
  const table = useSearchTable(apiservice.getUserIpListPage, { fixed: custId === undefined ? undefined : { custId } });
  const config = useQuery(apiConfigQuery(custId));
  const [adding, setAdding] = useState(false);
  const [busyId, setBusyId] = useState<number | null>(null);

  const refresh = () => qc.invalidateQueries({ queryKey: [apiservice.getUserIpListPage.name] });
  const act = async (row: UserIp, endpoint: typeof apiservice.openUserIp | typeof apiservice.stopUserIp | typeof apiservice.deleteUserIp) => {
    setBusyId(row.id);
    try {
      await call(endpoint, { id: row.id });
      message.success(<LiveText k="common.operationSuccess" />);
      await refresh();
    } catch {
      /* the request layer showed the reason */
    } finally {
      setBusyId(null);
    }
  };

  return (
    <>
      {config.data && (
        <Alert
          type={config.data.ipWhitelistEnabled ? 'success' : 'info'}
          showIcon
          title={t(ip(config.data.ipWhitelistEnabled ? 'enforcedOn' : 'enforcedOff'))}
          style={{ marginBottom: 12 }}
        />
      )}
      <SearchTable<UserIp>
        table={table}
        title={t(ip('title'))}
        rowKey="id"
        emptyHint={t(ip('empty'))}
        toolbar={
          <PermButton perm={Perm.HomeApiManage} type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="ip-add">
            {t(ip('add'))}
          </PermButton>
        }
        columns={[
          { title: t(ip('startIp')), dataIndex: 'startIp', width: 220 },
          { title: t(ip('endIp')), dataIndex: 'endIp', width: 220, render: (v: string | null) => v ?? '-' },
          { title: t(ip('remark')), dataIndex: 'remark', ellipsis: true, render: (v: string | null) => v ?? '-' },
          {
            title: t(ip('status')),
            dataIndex: 'open',
            width: 100,
            render: (open: boolean) => <Tag color={open ? 'success' : 'default'}>{t(ip(open ? 'open' : 'stopped'))}</Tag>,
          },
          { title: t(ip('createdBy')), dataIndex: 'createdBy', width: 130 },
          { title: withZoneLabel(t(ip('createdAt'))), dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
          {
            title: t('common.actions'),
            key: 'actions',
            fixed: 'right',
            width: 150,
            render: (_: unknown, row) =>
              canManage ? (
                <Space size={0}>
                  {row.open ? (
                    <Popconfirm title={t(ip('disableConfirm'))} okText={t('common.ok')} cancelText={t('common.cancel')} onConfirm={() => act(row, apiservice.stopUserIp)}>
                      <Button type="link" size="small" loading={busyId === row.id}>{t(ip('disable'))}</Button>
                    </Popconfirm>
                  ) : (
                    <Button type="link" size="small" loading={busyId === row.id} onClick={() => void act(row, apiservice.openUserIp)}>{t(ip('enable'))}</Button>
                  )}
                  <Popconfirm title={t(ip('deleteConfirm'))} okText={t('common.ok')} okButtonProps={{ danger: true }} cancelText={t('common.cancel')} onConfirm={() => act(row, apiservice.deleteUserIp)}>
                    <Button type="link" size="small" danger disabled={busyId === row.id}>{t('common.delete')}</Button>
                  </Popconfirm>
                </Space>
              ) : null,
          },
        ]}
      />
      <AddIpModal
        open={adding}
        custId={custId}
        onClose={() => setAdding(false)}
        onSaved={() => {
          setAdding(false);
          void refresh();
        }}
      />
    </>
  );
}
