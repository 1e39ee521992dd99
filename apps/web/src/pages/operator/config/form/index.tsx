import { useEffect } from 'react';
import { Button, Checkbox, Col, Divider, Form, Input, InputNumber, Result, Row, Select, Skeleton, Space, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { DEFAULT_GATEWAY_ADAPTER, GATEWAY_ADAPTERS, OPERATOR_API_VERSIONS, countChars, opconfig, validateLength } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { required, ruleOf } from '../../../../components/rules.ts';
import { useFormSave } from '../../../../components/useFormSave.ts';
import { operatorName, useOperators } from '../../shared.tsx';
import { useLang } from '../shared.tsx';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

interface AccessForm {
  operatorId: number;
  accountName: string;
  endpointUrl: string;
  apiVersion: (typeof OPERATOR_API_VERSIONS)[number];
  adapter: string;
  appKey?: string;
  appSecret?: string;
  password?: string;
  clearPassword?: boolean;
  issueSimulatorCredentials?: boolean;
  simFailureRate?: number;
  simFailIccidPattern?: string;
  remark?: string;
}

const PATTERN_RE = new RegExp(opconfig.ICCID_PATTERN_RE);
const NEW_DEFAULTS: Partial<AccessForm> = { apiVersion: 'v2', adapter: DEFAULT_GATEWAY_ADAPTER, issueSimulatorCredentials: false, simFailureRate: 0 };

/** /operator/config/add and /operator/config/edit/:operAccountId: one form; typed secrets replace stored ones, empty keeps them. */
export default function AccessFormPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const idParam = useParams().operAccountId;
  const operAccountId = idParam === undefined ? null : Number(idParam);
  const editing = operAccountId !== null;
  const validId = !editing || (Number.isInteger(operAccountId) && operAccountId > 0);
  const [form] = Form.useForm<AccessForm>();
  const { busy, save } = useFormSave(form);
  const operators = useOperators();
  const current = useQuery({
    queryKey: [opconfig.getOperatorAccount.name, operAccountId],
    queryFn: () => call(opconfig.getOperatorAccount, { operAccountId: operAccountId! }, { silent: true }),
    enabled: editing && validId,
  });
  const rec = current.data;
  usePageTitle(rec?.accountName);
  const adapter = Form.useWatch('adapter', form);
  const issue = Form.useWatch('issueSimulatorCredentials', form);
  const clearPassword = Form.useWatch('clearPassword', form);
  const isSimulator = adapter === 'simulator';

  useEffect(() => {
    if (editing && rec) {
      form.setFieldsValue({
        operatorId: rec.operatorId, accountName: rec.accountName, endpointUrl: rec.endpointUrl, apiVersion: rec.apiVersion as AccessForm['apiVersion'],
        adapter: rec.adapter, simFailureRate: rec.simFailureRate, simFailIccidPattern: rec.simFailIccidPattern ?? '', remark: rec.remark ?? '',
        appKey: '', appSecret: '', password: '', clearPassword: false,
      });
    }
  }, [editing, rec, form]);

  const secretExtra = (k: 'appKey' | 'appSecret' | 'password') =>
    rec?.credentials[k].hasSecret ? t('opconfig.access.stored', { mask: rec.credentials[k].mask }) : undefined;
  /** a secret is required only when none is stored and the simulator is not issuing one */
  const secretRules = (k: 'appKey' | 'appSecret'): Rule[] => (rec?.credentials[k].hasSecret || issue ? [] : [required()]);

  const submit = async () => {
    let v: AccessForm;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const body = {
      accountName: v.accountName.trim(), endpointUrl: v.endpointUrl.trim(), apiVersion: v.apiVersion, adapter: v.adapter, operatorId: v.operatorId,
      ...(v.appKey && { appKey: v.appKey }), ...(v.appSecret && { appSecret: v.appSecret }), ...(v.password && { password: v.password }),
      ...(v.adapter === 'simulator'
        ? { simFailureRate: v.simFailureRate ?? 0, simFailIccidPattern: v.simFailIccidPattern?.trim() ?? '', ...(v.issueSimulatorCredentials && { issueSimulatorCredentials: true }) }
        : { simFailureRate: 0, simFailIccidPattern: '' }),
      remark: v.remark?.trim() ?? '',
    };
    let newId = operAccountId;
    const ok = await save(async () => {
      if (editing) await call(opconfig.updateOperatorAccount, { operAccountId: operAccountId!, ...body, ...(v.clearPassword && { clearPassword: true }) }, { silent: true });
      else newId = (await call(opconfig.saveOperatorAccount, body, { silent: true })).operAccountId;
    });
    if (!ok) return;
    void qc.invalidateQueries({ queryKey: [opconfig.getOperatorAccountPage.name] });
    void qc.invalidateQueries({ queryKey: [opconfig.getOperatorAccount.name] });
    void qc.invalidateQueries({ queryKey: [opconfig.getOperatorAccountOptions.name] });
    if (!editing) form.resetFields();
    void navigate(`/operator/config/detail/${newId}`);
  };

  if (!validId || (editing && (current.isError || (current.isSuccess && !rec)))) return <div className="lx-card"><Result status="404" subTitle={t('common.notFound')} /></div>;
  if (editing && current.isLoading) return <div className="lx-card"><Skeleton active /></div>;

  return (
    <div className="lx-card">
      <Typography.Title level={5} style={{ marginTop: 0 }}>{editing ? t('opconfig.access.edit') : t('opconfig.access.add')}</Typography.Title>
      <Form form={form} layout="vertical" disabled={busy} style={{ maxWidth: 880 }} initialValues={editing ? undefined : NEW_DEFAULTS}>
        <Divider titlePlacement="start">{t('opconfig.access.basic')}</Divider>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="operatorId" label={t('opconfig.operator')} rules={[required()]}>
              <Select placeholder={t('common.required')} options={(operators.data ?? []).map((o) => ({ value: o.operatorId, label: operatorName(o, lang) }))} data-testid="access-operator" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="accountName" label={t('opconfig.access.accountName')} rules={[{ ...required(), whitespace: true }, ruleOf((v) => validateLength(v, 64))]}>
              <Input maxLength={64} autoComplete="off" data-testid="access-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="endpointUrl" label={t('opconfig.access.endpointUrl')} extra={t('opconfig.access.endpointUrlHint')}
              rules={[{ ...required(), whitespace: true }, {
                validator: async (_r, v?: string) => {
                  if (v && !opconfig.isHttpUrl(v.trim())) throw new Error(t('opconfig.access.endpointUrlInvalid'));
                  if (v && opconfig.urlHasCredentials(v.trim())) throw new Error(opconfig.URL_CREDENTIALS_REASON[lang]);
                },
              }]}
            >
              <Input maxLength={255} autoComplete="off" placeholder="https://" data-testid="access-endpoint" />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="apiVersion" label={t('opconfig.access.apiVersion')} rules={[required()]}>
              <Select options={OPERATOR_API_VERSIONS.map((v) => ({ value: v, label: v }))} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="adapter" label={t('opconfig.access.adapter')} rules={[required()]} extra={t('opconfig.access.adapterHint')}>
              <Select options={GATEWAY_ADAPTERS.map((a) => ({ value: a.code, label: a[lang], disabled: !a.available }))} />
            </Form.Item>
          </Col>
        </Row>

        <Divider titlePlacement="start">{t('opconfig.access.credentials')}</Divider>
        <Typography.Paragraph type="secondary">{t('opconfig.access.credentialsHint')}</Typography.Paragraph>
        {isSimulator && (
          <Form.Item name="issueSimulatorCredentials" valuePropName="checked" extra={t('opconfig.access.issueSimulatorHint')}>
            <Checkbox data-testid="access-issue">{t('opconfig.access.issueSimulator')}</Checkbox>
          </Form.Item>
        )}
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="appKey" label={t('opconfig.access.appKey')} rules={secretRules('appKey')} extra={secretExtra('appKey')}>
              <Input.Password maxLength={128} autoComplete="new-password" disabled={!!issue} visibilityToggle={false} data-testid="access-appkey" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="appSecret" label={t('opconfig.access.appSecret')} rules={secretRules('appSecret')} extra={secretExtra('appSecret')}>
              <Input.Password maxLength={256} autoComplete="new-password" disabled={!!issue} visibilityToggle={false} data-testid="access-appsecret" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="password" label={t('opconfig.access.password')} extra={secretExtra('password')}>
              <Input.Password maxLength={128} autoComplete="new-password" disabled={!!clearPassword} visibilityToggle={false} />
            </Form.Item>
          </Col>
          {rec?.credentials.password.hasSecret && (
            <Col xs={24} md={12}>
              <Form.Item name="clearPassword" valuePropName="checked" label=" ">
                <Checkbox>{t('opconfig.access.clearPassword')}</Checkbox>
              </Form.Item>
            </Col>
          )}
        </Row>

        {isSimulator && (
          <>
            <Divider titlePlacement="start">{t('opconfig.access.simulator')}</Divider>
            <Typography.Paragraph type="secondary">{t('opconfig.access.simulatorHint')}</Typography.Paragraph>
            <Row gutter={16}>
              <Col xs={24} md={8}>
                <Form.Item name="simFailureRate" label={t('opconfig.access.simFailureRate')} extra={t('opconfig.access.simFailureRateHint')}>
                  <InputNumber min={0} max={100} precision={0} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col xs={24} md={16}>
                <Form.Item
                  name="simFailIccidPattern" label={t('opconfig.access.simFailIccidPattern')} extra={t('opconfig.access.simFailIccidPatternHint')}
                  rules={[{ validator: async (_r, v?: string) => { if (v && v.trim() && !PATTERN_RE.test(v.trim())) throw new Error(t('opconfig.access.simFailIccidPatternInvalid')); } }]}
                >
                  <Input maxLength={22} autoComplete="off" style={{ fontFamily: 'monospace' }} placeholder="8986001*" />
                </Form.Item>
              </Col>
            </Row>
          </>
        )}

        <Form.Item name="remark" label={t('opconfig.access.remark')} rules={[ruleOf((v) => validateLength(v, 500))]}>
          <Input.TextArea rows={3} count={{ show: true, max: 500, strategy: countChars }} />
        </Form.Item>
        <Space>
          <Button type="primary" loading={busy} onClick={() => void submit()} data-testid="access-save">{t('common.save')}</Button>
          <Button onClick={() => void navigate(-1)}>{t('common.cancel')}</Button>
        </Space>
      </Form>
    </div>
  );
}
