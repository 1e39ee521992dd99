import { useEffect, useRef } from 'react';
import { Alert, Button, Form, Input, InputNumber, Radio, Select, Skeleton, Space, Result } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import {
  FirewallAction, FirewallDirection, FirewallPolicyStatus, FirewallProtocol, countChars, netconfig, validateLength,
} from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { required, ruleOf } from '../../../../components/rules.ts';
import { useTabs } from '../../../../stores/tabs.ts';
import { operatorName, useOperators } from '../../shared.tsx';
import { FIREWALL_LIST_PATH, useAddressBook } from '../shared.tsx';
import { useFieldSave } from '../useFieldSave.ts';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

interface PolicyForm {
  policyName: string;
  operatorId: number;
  direction: number;
  action: number;
  protocol: number;
  srcAddressIds: number[];
  dstAddressIds: number[];
  ports?: string;
  priority: number;
  status: number;
  description?: string;
}

const FIELDS = ['policyName', 'operatorId', 'direction', 'action', 'protocol', 'srcAddressIds', 'dstAddressIds', 'ports', 'priority', 'status', 'description'] as const;
const DESCRIPTION_MAX = 500;

/** /operator/firewallConfig/add and /edit/:policyId */
export default function FirewallPolicyFormPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const qc = useQueryClient();
  const tabKey = useRef(useLocation().pathname).current;
  const policyId = Number(useParams().policyId);
  const editing = Number.isInteger(policyId) && policyId > 0;
  const [form] = Form.useForm<PolicyForm>();
  const { busy, save } = useFieldSave(form, FIELDS);
  const operators = useOperators();
  const sources = useAddressBook('srcaddr');
  const targets = useAddressBook('dstaddr');
  const protocol = Form.useWatch('protocol', form);
  const existing = useQuery({
    queryKey: [netconfig.getFirewallPolicyDetail.name, policyId],
    queryFn: () => call(netconfig.getFirewallPolicyDetail, { policyId }, { silent: true }),
    enabled: editing,
  });
  usePageTitle(existing.data?.policyName);

  const filled = useRef(false);
  useEffect(() => {
    if (filled.current) return;
    const p = existing.data;
    if (editing && !p) return;
    form.setFieldsValue(
      p
        ? {
            policyName: p.policyName, operatorId: p.operatorId, direction: p.direction, action: p.action, protocol: p.protocol,
            srcAddressIds: p.sourceAddresses.map((a) => a.addressId), dstAddressIds: p.targetAddresses.map((a) => a.addressId),
            ports: p.ports ?? '', priority: p.priority, status: p.status, description: p.description ?? '',
          }
        : { direction: FirewallDirection.Outbound, action: FirewallAction.Permit, protocol: FirewallProtocol.Tcp, priority: 100, status: FirewallPolicyStatus.Enabled },
    );
    filled.current = true;
  }, [editing, existing.data, form]);

  const leave = () => {
    useTabs.getState().close(tabKey);
    void navigate(FIREWALL_LIST_PATH);
  };

  const submit = async () => {
    let v: PolicyForm;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const body = {
      policyName: v.policyName.trim(), operatorId: v.operatorId, direction: v.direction, action: v.action, protocol: v.protocol,
      srcAddressIds: v.srcAddressIds, dstAddressIds: v.dstAddressIds, ports: netconfig.protocolHasPorts(v.protocol) ? (v.ports?.trim() ?? '') : '',
      priority: v.priority, status: v.status, description: v.description?.trim() ?? '',
    };
    const ok = await save(() =>
      editing ? call(netconfig.updateFirewallPolicy, { ...body, policyId }, { silent: true }) : call(netconfig.addFirewallPolicy, body, { silent: true }),
    );
    if (ok) {
      void qc.invalidateQueries({ queryKey: [netconfig.getFirewallPolicyPage.name] });
      void qc.invalidateQueries({ queryKey: [netconfig.getFirewallPolicyDetail.name] });
      void qc.invalidateQueries({ queryKey: [netconfig.getFirewallAddressPage.name] });
      leave();
    }
  };

  if (editing && existing.isLoading) return <div className="lx-card"><Skeleton active /></div>;
  if (editing && (existing.error || !existing.data)) return <div className="lx-card"><Result status="404" subTitle={t('common.notFound')} /></div>;

  const options = (rows: { addressId: number; addressName: string; address: string }[] | undefined) =>
    (rows ?? []).map((a) => ({ value: a.addressId, label: `${a.addressName} (${a.address})` }));
  const hasPorts = protocol !== undefined && netconfig.protocolHasPorts(protocol);

  return (
    <div className="lx-card">
      <Form form={form} layout="vertical" disabled={busy} style={{ maxWidth: 760 }}>
        <Form.Item name="policyName" label={t('netconfig.firewall.policyName')} rules={[{ ...required(), whitespace: true }, ruleOf((v) => validateLength(v, 64))]}>
          <Input maxLength={64} autoComplete="off" data-testid="fw-policy-name" />
        </Form.Item>
        <Form.Item name="operatorId" label={t('netconfig.firewall.operator')} rules={[required()]}>
          <Select placeholder={t('common.required')} loading={operators.isLoading} options={(operators.data ?? []).map((o) => ({ value: o.operatorId, label: operatorName(o, lang) }))} />
        </Form.Item>
        <Form.Item name="direction" label={t('netconfig.firewall.direction')} rules={[required()]}>
          <Radio.Group options={FirewallDirection.options(lang)} />
        </Form.Item>
        <Form.Item name="action" label={t('netconfig.firewall.action')} rules={[required()]}>
          <Radio.Group options={FirewallAction.options(lang)} />
        </Form.Item>
        <Form.Item name="protocol" label={t('netconfig.firewall.protocol')} rules={[required()]}>
          <Radio.Group options={FirewallProtocol.options(lang)} optionType="button" />
        </Form.Item>
        <SourceOrTarget
          name="srcAddressIds" label={t('netconfig.firewall.sourceAddresses')} empty={t('netconfig.firewall.noSourceAddress')}
          loading={sources.isLoading} options={options(sources.data?.list)} onMaintain={() => navigate('/operator/firewallConfig/sourceAddress')}
        />
        <SourceOrTarget
          name="dstAddressIds" label={t('netconfig.firewall.targetAddresses')} empty={t('netconfig.firewall.noTargetAddress')}
          loading={targets.isLoading} options={options(targets.data?.list)} onMaintain={() => navigate('/operator/firewallConfig/targetAddress')}
        />
        <Form.Item
          name="ports" label={t('netconfig.firewall.ports')}
          extra={hasPorts ? t('netconfig.firewall.portsHint') : t('netconfig.firewall.portsNotApplicable')}
          rules={hasPorts ? [ruleOf((v: string | undefined) => netconfig.validatePortList(v))] : []}
        >
          <Input disabled={!hasPorts} placeholder={hasPorts ? '80,443,8000-8080' : t('netconfig.firewall.portsAll')} style={{ fontFamily: 'monospace' }} data-testid="fw-ports" />
        </Form.Item>
        <Form.Item name="priority" label={t('netconfig.firewall.priority')} rules={[required()]} extra={t('netconfig.firewall.priorityHint', { min: netconfig.PRIORITY_MIN, max: netconfig.PRIORITY_MAX })}>
          <InputNumber min={netconfig.PRIORITY_MIN} max={netconfig.PRIORITY_MAX} precision={0} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="status" label={t('netconfig.firewall.status')} rules={[required()]}>
          <Radio.Group options={FirewallPolicyStatus.options(lang)} />
        </Form.Item>
        <Form.Item name="description" label={t('netconfig.firewall.description')} rules={[ruleOf((v) => validateLength(v, DESCRIPTION_MAX))]}>
          <Input.TextArea rows={3} count={{ show: true, max: DESCRIPTION_MAX, strategy: countChars }} />
        </Form.Item>
        <Space>
          <Button type="primary" loading={busy} onClick={() => void submit()} data-testid="fw-save">{t('common.save')}</Button>
          <Button onClick={leave} disabled={false}>{t('common.cancel')}</Button>
        </Space>
      </Form>
    </div>
  );
}

function SourceOrTarget({ name, label, empty, loading, options, onMaintain }: {
  name: string; label: string; empty: string; loading: boolean; options: { value: number; label: string }[]; onMaintain: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Form.Item label={label} required>
      {!loading && !options.length && (
        <Alert type="warning" showIcon style={{ marginBottom: 8 }} title={empty} action={<Button size="small" onClick={onMaintain}>{t('netconfig.firewall.maintainBook')}</Button>} />
      )}
      <Space.Compact style={{ width: '100%' }}>
        <Form.Item name={name} noStyle rules={[{ required: true, type: 'array', min: 1, message: t('common.required') }, { type: 'array', max: netconfig.POLICY_ADDRESSES_MAX }]}>
          <Select
            mode="multiple" allowClear showSearch optionFilterProp="label" loading={loading} options={options}
            placeholder={t('netconfig.firewall.addressPlaceholder')} maxCount={netconfig.POLICY_ADDRESSES_MAX} data-testid={`fw-${name}`}
          />
        </Form.Item>
        <Button onClick={onMaintain}>{t('netconfig.firewall.maintainBook')}</Button>
      </Space.Compact>
    </Form.Item>
  );
}
