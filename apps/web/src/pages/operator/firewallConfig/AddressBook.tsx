import { useEffect, useState } from 'react';
import { LiveText } from '../../../request/LiveText.tsx';
import { Alert, App, Button, Form, Input, Modal, Popconfirm, Radio, Space, Tooltip, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FirewallAddressType, countChars, formatDateTime, netconfig, validateCidr, validateIp, validateIpRange, validateLength, type AddressScope, withZoneLabel } from '@lynx/contract';
import { SearchTable } from '../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../components/useSearchTable.ts';
import { PermButton, usePerm } from '../../../components/PermButton.tsx';
import { StatusTag } from '../../../components/StatusTag.tsx';
import { required, ruleOf } from '../../../components/rules.ts';
import { call } from '../../../request/http.ts';
import { FIREWALL_LIST_PATH, P, type AddressRow } from './shared.tsx';
import { useFieldSave } from './useFieldSave.ts';

interface AddressForm {
  addressName: string;
  addressType: number;
  ipAddress?: string;
  startIp?: string;
  endIp?: string;
  description?: string;
}
const FIELDS = ['addressName', 'addressType', 'ipAddress', 'startIp', 'endIp', 'description'] as const;

/** One firewall address book: srcaddr (source) or dstaddr (target). */
export function AddressBook({ scope }: { scope: AddressScope }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const table = useSearchTable(netconfig.getFirewallAddressPage, { fixed: { addressScope: scope } });
  const canMaintain = usePerm(P.FirewallAddressBook);
  const canExport = usePerm(P.FirewallExport);
  const [editing, setEditing] = useState<{ record: AddressRow | null } | null>(null);
  const source = scope === 'srcaddr';

  const refresh = () => void qc.invalidateQueries({ queryKey: [netconfig.getFirewallAddressPage.name] });
  const remove = async (r: AddressRow) => {
    try {
      await call(netconfig.deleteFirewallAddress, { addressId: r.addressId });
      message.success(<LiveText k="common.operationSuccess" />);
      refresh();
    } catch {
      /* the request layer shows why (e.g. the address is used by policies) */
    }
  };

  return (
    <>
      <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t(source ? 'netconfig.address.sourceIntro' : 'netconfig.address.targetIntro')} />
      <SearchTable<AddressRow>
        table={table}
        title={t(source ? 'netconfig.address.sourceTitle' : 'netconfig.address.targetTitle')}
        rowKey="addressId"
        exportSource={canExport ? netconfig.getFirewallAddressPage : undefined}
        emptyHint={t('netconfig.address.emptyHint')}
        toolbar={
          <>
            <Button onClick={() => navigate(FIREWALL_LIST_PATH)}>{t('netconfig.address.backToPolicies')}</Button>
            <PermButton perm={P.FirewallAddressBook} type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ record: null })} data-testid="fw-address-add">
              {t('netconfig.address.add')}
            </PermButton>
          </>
        }
        fields={[
          { name: 'addressName', label: t('netconfig.address.addressName') },
          { name: 'addressType', label: t('netconfig.address.addressType'), type: 'enum', enumOf: FirewallAddressType },
          { name: 'ip', label: t('netconfig.address.ipSearch'), placeholder: t('netconfig.address.ipSearchPlaceholder') },
        ]}
        columns={[
          { title: t('netconfig.address.addressName'), dataIndex: 'addressName', sorter: true, width: 200 },
          { title: t('netconfig.address.addressType'), dataIndex: 'addressType', width: 130, render: (v: number) => <StatusTag enumOf={FirewallAddressType} value={v} /> },
          { title: t('netconfig.address.address'), dataIndex: 'address', width: 260, render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
          { title: t('netconfig.address.policyCount'), dataIndex: 'policyCount', width: 120 },
          {
            title: t('netconfig.address.description'), dataIndex: 'description', width: 240,
            render: (v: string | null) => (v ? <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 220 }}>{v}</Typography.Text> : '-'),
          },
          { title: t('netconfig.firewall.createdBy'), dataIndex: 'createdBy', width: 110 },
          { title: withZoneLabel(t('netconfig.firewall.updatedAt')), dataIndex: 'updatedAt', sorter: true, width: 170, render: (v: string) => formatDateTime(v) },
          ...(canMaintain
            ? [{
                title: t('common.actions'), key: 'actions', fixed: 'right' as const, width: 140,
                render: (_: unknown, r: AddressRow) => (
                  <Space size={0}>
                    <Button type="link" size="small" onClick={() => setEditing({ record: r })}>{t('common.edit')}</Button>
                    {r.policyCount > 0 ? (
                      <Tooltip title={t('netconfig.address.inUseTip', { count: r.policyCount })}>
                        <Button type="link" size="small" danger disabled>{t('common.delete')}</Button>
                      </Tooltip>
                    ) : (
                      <Popconfirm title={t('netconfig.address.deleteConfirm', { name: r.addressName })} onConfirm={() => remove(r)} okText={t('common.ok')} cancelText={t('common.cancel')}>
                        <Button type="link" size="small" danger>{t('common.delete')}</Button>
                      </Popconfirm>
                    )}
                  </Space>
                ),
              }]
            : []),
        ]}
      />
      <AddressModal scope={scope} lang={lang} open={!!editing} record={editing?.record ?? null} onClose={() => setEditing(null)} onSaved={refresh} />
    </>
  );
}

function AddressModal({ scope, lang, open, record, onClose, onSaved }: {
  scope: AddressScope; lang: 'zh' | 'en'; open: boolean; record: AddressRow | null; onClose: () => void; onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<AddressForm>();
  const { busy, save } = useFieldSave(form, FIELDS);
  const type = Form.useWatch('addressType', form);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      record
        ? { addressName: record.addressName, addressType: record.addressType, ipAddress: record.ipAddress ?? '', startIp: record.startIp ?? '', endIp: record.endIp ?? '', description: record.description ?? '' }
        : { addressType: FirewallAddressType.Single },
    );
  }, [open, record, form]);

  const submit = async () => {
    let v: AddressForm;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const range = v.addressType === FirewallAddressType.Range;
    const body = {
      addressName: v.addressName.trim(), addressType: v.addressType, description: v.description?.trim() ?? '',
      ipAddress: range ? null : (v.ipAddress?.trim() ?? ''), startIp: range ? (v.startIp?.trim() ?? '') : null, endIp: range ? (v.endIp?.trim() ?? '') : null,
    };
    const ok = await save(() =>
      record
        ? call(netconfig.updateFirewallAddress, { ...body, addressId: record.addressId }, { silent: true })
        : call(netconfig.addFirewallAddress, { ...body, addressScope: scope }, { silent: true }),
    );
    if (ok) {
      onSaved();
      onClose();
    }
  };

  return (
    <Modal
      open={open} title={record ? t('netconfig.address.edit') : t('netconfig.address.add')} onCancel={onClose} onOk={() => void submit()}
      okText={t('common.save')} cancelText={t('common.cancel')} confirmLoading={busy} width={560} destroyOnHidden
    >
      <Form form={form} layout="vertical" disabled={busy} style={{ marginTop: 12 }}>
        <Form.Item name="addressName" label={t('netconfig.address.addressName')} rules={[{ ...required(), whitespace: true }, ruleOf((v) => validateLength(v, 64))]}>
          <Input maxLength={64} autoComplete="off" data-testid="fw-address-name" />
        </Form.Item>
        <Form.Item name="addressType" label={t('netconfig.address.addressType')} rules={[required()]}>
          <Radio.Group options={FirewallAddressType.options(lang)} optionType="button" />
        </Form.Item>
        {type === FirewallAddressType.Range ? (
          <>
            <Form.Item name="startIp" label={t('netconfig.address.startIp')} rules={[ruleOf((v: string | undefined) => validateIp(v?.trim()))]}>
              <Input placeholder="10.0.0.1" style={{ fontFamily: 'monospace' }} data-testid="fw-start-ip" />
            </Form.Item>
            <Form.Item
              name="endIp" label={t('netconfig.address.endIp')} dependencies={['startIp']} extra={t('netconfig.address.rangeHint')}
              rules={[({ getFieldValue }) => ruleOf((v: string | undefined) => validateIp(v?.trim()) ?? validateIpRange(String(getFieldValue('startIp') ?? '').trim() || '0.0.0.0', v?.trim()))]}
            >
              <Input placeholder="10.0.0.100" style={{ fontFamily: 'monospace' }} data-testid="fw-end-ip" />
            </Form.Item>
          </>
        ) : type === FirewallAddressType.Cidr ? (
          <Form.Item name="ipAddress" label={t('netconfig.address.cidr')} extra={t('netconfig.address.cidrHint')} rules={[ruleOf((v: string | undefined) => validateCidr(v?.trim(), { requireNetworkAddress: true }))]}>
            <Input placeholder="10.0.0.0/24" style={{ fontFamily: 'monospace' }} data-testid="fw-ip" />
          </Form.Item>
        ) : (
          <Form.Item name="ipAddress" label={t('netconfig.address.ipAddress')} rules={[ruleOf((v: string | undefined) => validateIp(v?.trim()))]}>
            <Input placeholder="10.0.0.1" style={{ fontFamily: 'monospace' }} data-testid="fw-ip" />
          </Form.Item>
        )}
        <Form.Item name="description" label={t('netconfig.address.description')} rules={[ruleOf((v) => validateLength(v, 500))]}>
          <Input.TextArea rows={3} count={{ show: true, max: 500, strategy: countChars }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
