import { useEffect, useRef } from 'react';
import { Alert, Button, Checkbox, Col, Form, Input, InputNumber, Radio, Result, Row, Select, Skeleton, Space, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { ApnStatus, RoamingZone, UnicomPlanStatus, countChars, netconfig, validateLength } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { required, ruleOf } from '../../../../components/rules.ts';
import { useTabs } from '../../../../stores/tabs.ts';
import { useFieldSave } from '../../firewallConfig/useFieldSave.ts';
import { LTCOMM_LIST_PATH, useUnicomApns } from '../shared.ts';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

type Mode = 'add' | 'edit' | 'copy';
type Service = 'data' | 'sms' | 'voice';

interface PlanForm {
  planName: string;
  planCode: string;
  services: Service[];
  apnId?: number | null;
  roamingZone: number;
  dataLimitMb?: number | null;
  smsLimit?: number | null;
  speedLimitKbps?: number | null;
  description?: string;
  status: number;
}

const FIELDS = ['planName', 'planCode', 'services', 'apnId', 'roamingZone', 'dataLimitMb', 'smsLimit', 'speedLimitKbps', 'description', 'status'] as const;
const CODE_RE = new RegExp(netconfig.addUnicomCommPlan.body.properties.planCode.pattern ?? '^.*$');
const modeOf = (path: string): Mode => (path.includes('/config/edit/') ? 'edit' : path.includes('/config/copy/') ? 'copy' : 'add');

/** /operator/ltcomm/config/add, /edit/:planID, /copy/:planID (a copy prefills a new plan whose name must change). */
export default function UnicomPlanConfig() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const qc = useQueryClient();
  const tabKey = useRef(useLocation().pathname).current;
  const mode = modeOf(tabKey);
  const planId = Number(useParams().planID);
  const needsSource = mode !== 'add';
  const validId = Number.isInteger(planId) && planId > 0;
  const [form] = Form.useForm<PlanForm>();
  const { busy, save } = useFieldSave(form, FIELDS, { serviceTypes: 'services' });
  const apns = useUnicomApns();
  const services = Form.useWatch('services', form) ?? [];
  const source = useQuery({
    queryKey: [netconfig.getUnicomCommPlanDetail.name, planId],
    queryFn: () => call(netconfig.getUnicomCommPlanDetail, { planId }, { silent: true }),
    enabled: needsSource && validId,
  });
  const sourceName = source.data?.planName;
  usePageTitle(sourceName);

  const filled = useRef(false);
  useEffect(() => {
    if (filled.current) return;
    const s = source.data;
    if (needsSource && !s) return;
    form.setFieldsValue(
      s
        ? {
            planName: mode === 'copy' ? `${s.planName}${t('netconfig.ltcomm.copySuffix')}` : s.planName,
            planCode: s.planCode,
            services: [s.dataEnabled && 'data', s.smsEnabled && 'sms', s.voiceEnabled && 'voice'].filter(Boolean) as Service[],
            apnId: s.apnId, roamingZone: s.roamingZone, dataLimitMb: s.dataLimitMb, smsLimit: s.smsLimit, speedLimitKbps: s.speedLimitKbps,
            description: s.description ?? '', status: s.status,
          }
        : { services: ['data'], roamingZone: RoamingZone.Domestic, status: UnicomPlanStatus.Enabled },
    );
    filled.current = true;
  }, [needsSource, mode, source.data, form, t]);

  const leave = () => {
    useTabs.getState().close(tabKey);
    void navigate(LTCOMM_LIST_PATH);
  };

  const submit = async () => {
    let v: PlanForm;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const dataEnabled = v.services.includes('data');
    const smsEnabled = v.services.includes('sms');
    const body = {
      planName: v.planName.trim(), planCode: v.planCode.trim(), dataEnabled, smsEnabled, voiceEnabled: v.services.includes('voice'),
      apnId: dataEnabled ? (v.apnId ?? null) : null, roamingZone: v.roamingZone,
      dataLimitMb: dataEnabled ? (v.dataLimitMb ?? null) : null, smsLimit: smsEnabled ? (v.smsLimit ?? null) : null,
      speedLimitKbps: dataEnabled ? (v.speedLimitKbps ?? null) : null, description: v.description?.trim() ?? '', status: v.status,
    };
    const ok = await save(() =>
      mode === 'edit'
        ? call(netconfig.updateUnicomCommPlan, { ...body, planId }, { silent: true })
        : call(netconfig.addUnicomCommPlan, { ...body, ...(mode === 'copy' && { copyFrom: planId }) }, { silent: true }),
    );
    if (ok) {
      void qc.invalidateQueries({ queryKey: [netconfig.getUnicomCommPlanPage.name] });
      void qc.invalidateQueries({ queryKey: [netconfig.getUnicomCommPlanDetail.name] });
      leave();
    }
  };

  if (needsSource && !validId) return <div className="lx-card"><Result status="404" subTitle={t('common.notFound')} /></div>;
  if (needsSource && source.isLoading) return <div className="lx-card"><Skeleton active /></div>;
  if (needsSource && (source.error || !source.data)) return <div className="lx-card"><Result status="404" subTitle={t('common.notFound')} /></div>;

  const dataOn = services.includes('data');
  const smsOn = services.includes('sms');
  const apnOptions = (apns.data?.apns ?? [])
    .filter((a) => a.status === ApnStatus.Enabled || a.apnId === source.data?.apnId)
    .map((a) => ({ value: a.apnId, label: a.status === ApnStatus.Enabled ? a.apnName : `${a.apnName}${t('netconfig.ltcomm.apnDisabled')}` }));
  const billingDay = apns.data?.billingDay;

  return (
    <div className="lx-card">
      <Form form={form} layout="vertical" disabled={busy} style={{ maxWidth: 880 }}>
        <Typography.Title level={5} style={{ marginTop: 0 }}>{t('netconfig.ltcomm.basic')}</Typography.Title>
        <Row gutter={24}>
          <Col xs={24} md={12}>
            <Form.Item
              name="planName" label={t('netconfig.ltcomm.planName')} extra={mode === 'copy' ? t('netconfig.ltcomm.copyNameHint') : undefined}
              rules={[
                { ...required(), whitespace: true },
                ruleOf((v) => validateLength(v, 64)),
                {
                  validator: async (_r, v: string | undefined) => {
                    if (mode === 'copy' && v && sourceName && v.trim().toLowerCase() === sourceName.toLowerCase()) throw new Error(t('netconfig.ltcomm.copyNameHint'));
                  },
                },
              ]}
            >
              <Input maxLength={64} autoComplete="off" data-testid="ltcomm-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="planCode" label={t('netconfig.ltcomm.planCode')} extra={t('netconfig.ltcomm.planCodeHint')}
              rules={[required(), { validator: async (_r, v: string | undefined) => { if (v && !CODE_RE.test(v.trim())) throw new Error(t('netconfig.ltcomm.planCodeInvalid')); } }]}
            >
              <Input maxLength={32} autoComplete="off" style={{ fontFamily: 'monospace' }} data-testid="ltcomm-code" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="services" label={t('netconfig.ltcomm.services')} rules={[{ required: true, type: 'array', min: 1, message: t('netconfig.ltcomm.servicesRequired') }]}>
              <Checkbox.Group options={[
                { value: 'data', label: t('netconfig.ltcomm.data') },
                { value: 'sms', label: t('netconfig.ltcomm.sms') },
                { value: 'voice', label: t('netconfig.ltcomm.voice') },
              ]} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="roamingZone" label={t('netconfig.ltcomm.roamingZone')} rules={[required()]}>
              <Select options={RoamingZone.options(lang)} />
            </Form.Item>
          </Col>
          {dataOn && (
            <Col xs={24} md={12}>
              {!apns.isLoading && !apnOptions.length && <Alert type="warning" showIcon style={{ marginBottom: 8 }} title={t('netconfig.ltcomm.noApn')} />}
              <Form.Item name="apnId" label={t('netconfig.ltcomm.apn')} extra={t('netconfig.ltcomm.apnHint')} rules={[required()]}>
                <Select showSearch optionFilterProp="label" loading={apns.isLoading} options={apnOptions} placeholder={t('common.required')} data-testid="ltcomm-apn" />
              </Form.Item>
            </Col>
          )}
          <Col xs={24} md={12}>
            <Form.Item label={t('netconfig.ltcomm.billingDay')} extra={t('netconfig.ltcomm.billingDayHint')}>
              <Input value={billingDay ? t('netconfig.ltcomm.billingDayValue', { day: billingDay }) : ''} disabled data-testid="ltcomm-billing-day" />
            </Form.Item>
          </Col>
        </Row>
        <Typography.Title level={5}>{t('netconfig.ltcomm.limits')}</Typography.Title>
        <Row gutter={24}>
          {dataOn && (
            <>
              <Col xs={24} md={8}>
                <Form.Item name="dataLimitMb" label={t('netconfig.ltcomm.dataLimitMb')} extra={t('netconfig.ltcomm.limitHint')}>
                  <InputNumber min={0} max={netconfig.DATA_LIMIT_MAX_MB} style={{ width: '100%' }} placeholder={t('netconfig.ltcomm.unlimited')} />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item name="speedLimitKbps" label={t('netconfig.ltcomm.speedLimitKbps')} extra={t('netconfig.ltcomm.limitHint')}>
                  <InputNumber min={1} max={netconfig.SPEED_LIMIT_MAX_KBPS} precision={0} style={{ width: '100%' }} placeholder={t('netconfig.ltcomm.unlimited')} />
                </Form.Item>
              </Col>
            </>
          )}
          {smsOn && (
            <Col xs={24} md={8}>
              <Form.Item name="smsLimit" label={t('netconfig.ltcomm.smsLimit')} extra={t('netconfig.ltcomm.limitHint')}>
                <InputNumber min={0} max={netconfig.SMS_LIMIT_MAX} precision={0} style={{ width: '100%' }} placeholder={t('netconfig.ltcomm.unlimited')} />
              </Form.Item>
            </Col>
          )}
        </Row>
        <Form.Item name="status" label={t('netconfig.ltcomm.status')} rules={[required()]}>
          <Radio.Group options={UnicomPlanStatus.options(lang)} />
        </Form.Item>
        <Form.Item name="description" label={t('netconfig.ltcomm.description')} rules={[ruleOf((v) => validateLength(v, 500))]}>
          <Input.TextArea rows={3} count={{ show: true, max: 500, strategy: countChars }} />
        </Form.Item>
        <Space>
          <Button type="primary" loading={busy} onClick={() => void submit()} data-testid="ltcomm-save">{t('common.save')}</Button>
          <Button onClick={leave}>{t('common.cancel')}</Button>
        </Space>
      </Form>
    </div>
  );
}
