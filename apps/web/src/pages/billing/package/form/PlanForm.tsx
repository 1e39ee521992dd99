import { useEffect, useMemo, useState } from 'react';
import { LiveText } from '../../../../request/LiveText.tsx';
import { Alert, App, Button, Card, Checkbox, Col, Divider, Form, Input, InputNumber, Radio, Row, Select, Space, Switch } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  BASE_TARIFFS, NetworkType, Operator, OverageGrade, PLAN_TEST_QUOTA_KB_DEFAULT, PLAN_TEST_SILENT_MONTHS_MAX, PlanCycleUnit, PlanGoodsType,
  PlanOperationMode, PlanRenewalMode, PlanUseUpAction, ProfitShareMethod, SUPPLEMENTARY_TARIFFS, TEST_VALIDITY_DAYS, TariffType, ErrorCode,
  errorMessage, commserv, goodsTypeOfTariff, nameIn, network, plan, testQuotaMaxKb,
} from '@lynx/contract';
import { LogicError, call } from '../../../../request/http.ts';
import { required } from '../../../../components/rules.ts';
import { ZonesEditor } from './ZonesEditor.tsx';
import { apnProblem, fieldPath, type ServiceOption } from './zones.ts';
import { isPack, toBody, type PlanBody, type PlanFormValues } from './body.ts';
import { PriceInputNumber, priceRule } from '../shared.tsx';

const CODE_RE = /^[A-Za-z0-9_-]+$/;

export const NEW_PLAN: Partial<PlanFormValues> = {
  tariffType: TariffType.MonthlySingle, goodsType: PlanGoodsType.Monthly, operationMode: PlanOperationMode.Standard, networkTypes: [NetworkType.G4],
  renewalMode: PlanRenewalMode.AutoRenew, standardPrice: '0', taxRate: 6, profitShareRatio: 0, profitShareMethod: ProfitShareMethod.ByProfit,
  cycleUnit: PlanCycleUnit.Month, cycleValue: 1, durationMonths: 12, quotaMb: 1024, useUpAction: PlanUseUpAction.Overdraw,
  terminateByUsage: false, testPeriodMonths: 0, silentPeriodMonths: 0, testQuotaKb: 100, testPrice: '0', downtimeFee: '0', downtimeFreeMonths: 0,
  apnIds: [], zones: [], alternativeIds: [],
};

/**
 * The basic plan / supplementary pack form in sections. The form checks the spec's limits as the server
 * does; a refusal from the server lands on the field it names.
 */
export function PlanForm({ title, initial, selfId, disabled, notice, onSubmit, onSaved, onCancel }: {
  title: string;
  initial: Partial<PlanFormValues>;
  /** the plan being edited (excluded from its own change targets) */
  selfId?: number;
  disabled?: boolean;
  notice?: string;
  onSubmit: (body: PlanBody) => Promise<number>;
  onSaved: (goodsReleaseId: number, tariffType: number) => void;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message } = App.useApp();
  const [form] = Form.useForm<PlanFormValues>();
  const [busy, setBusy] = useState(false);
  const f = (k: string) => t(`plan.fields.${k}`);
  const tariffType = Form.useWatch('tariffType', form);
  const operatorId = Form.useWatch('operatorId', form);
  const apnIds: number[] = Form.useWatch('apnIds', form) ?? [];
  const pack = isPack(tariffType);

  useEffect(() => {
    form.resetFields();
    form.setFieldsValue(initial);
  }, [initial, form]);

  const apns = useQuery({
    queryKey: [network.getApnListPage.name, { operatorId, pageSize: 500 }],
    queryFn: ({ signal }) => call(network.getApnListPage, { operatorId, pageSize: 500 }, { signal, silent: true }),
    enabled: !!operatorId && !pack,
  });
  const servicesQuery = useQuery({
    queryKey: [commserv.getCommServListPage.name, { pageSize: 500 }],
    queryFn: ({ signal }) => call(commserv.getCommServListPage, { pageSize: 500 }, { signal, silent: true }),
    enabled: !pack,
  });
  const services = useMemo(
    () => new Map<number, ServiceOption>((servicesQuery.data?.list ?? []).map((s) => [s.commservId, { commservId: s.commservId, name: nameIn(lang, s.commservName, s.commservNameEn), qosCount: s.qosCount, whitelistCount: s.whitelist.length }])),
    [servicesQuery.data, lang],
  );
  const apnKey = [...apnIds].sort((a, b) => a - b).join(',');
  const alternatives = useQuery({
    queryKey: [plan.getAlternativeOptions.name, { apnKey, selfId }],
    queryFn: ({ signal }) => call(plan.getAlternativeOptions, { apnIds, ...(selfId && { exceptId: selfId }) }, { signal, silent: true }),
    enabled: !pack && apnIds.length > 0 && apnIds.length <= 4,
  });

  const submit = async () => {
    let v: PlanFormValues;
    try {
      v = await form.validateFields();
    } catch (e) {
      const first = (e as { errorFields?: { name: (string | number)[] }[] }).errorFields?.[0];
      if (first) form.scrollToField(first.name);
      return;
    }
    setBusy(true);
    try {
      const id = await onSubmit(toBody(v));
      message.success(<LiveText k="common.operationSuccess" />);
      onSaved(id, v.tariffType);
    } catch (e) {
      const field = e instanceof LogicError ? (e.data as { field?: string } | null)?.field : undefined;
      if (field) {
        form.setFields([{ name: fieldPath(field) as never, errors: [(e as Error).message] }]);
        form.scrollToField(fieldPath(field) as never);
      } else if (e instanceof Error) message.error(e.message);
    } finally {
      setBusy(false);
    }
  };

  const money = (extra: Record<string, unknown> = {}) => <PriceInputNumber {...extra} />;
  // a quota and a percentage are numbers, not money
  const decimal = (extra: Record<string, unknown> = {}) => <InputNumber min={0} precision={2} style={{ width: '100%' }} {...extra} />;
  const months = <InputNumber min={0} max={120} precision={0} style={{ width: '100%' }} />;
  const col = (node: React.ReactNode, md = 8) => <Col xs={24} md={md}>{node}</Col>;

  return (
    <Card title={title} className="lx-card" variant="borderless">
      {notice && <Alert type="warning" showIcon title={notice} style={{ marginBottom: 16 }} />}
      <Form
        form={form}
        layout="vertical"
        disabled={busy || disabled}
        onValuesChange={(changed: Partial<PlanFormValues>) => {
          if (changed.tariffType !== undefined) form.setFieldValue('goodsType', goodsTypeOfTariff(changed.tariffType));
          if (changed.operatorId !== undefined) form.setFieldsValue({ apnIds: [], alternativeIds: [] });
          if (changed.apnIds !== undefined) form.setFieldValue('alternativeIds', []);
          // a service chosen in one zone affects the check of every other zone
          if (changed.zones !== undefined) {
            const n = (form.getFieldValue('zones') as unknown[] | undefined)?.length ?? 0;
            void form.validateFields(Array.from({ length: n }, (_, i) => ['zones', i, 'commservIds']) as never).catch(() => undefined);
          }
        }}
      >
        <Divider titlePlacement="start">{t('plan.form.sections.basics')}</Divider>
        <Row gutter={16}>
          {col(
            <Form.Item name="tariffType" label={f('tariffType')} rules={[required()]}>
              <Select
                options={[
                  { label: t('plan.tabs.basic'), options: BASE_TARIFFS.map((v) => ({ value: v, label: TariffType.label(v, lang) })) },
                  { label: t('plan.tabs.supplementary'), options: SUPPLEMENTARY_TARIFFS.map((v) => ({ value: v, label: TariffType.label(v, lang) })) },
                ]}
                data-testid="plan-tariff"
              />
            </Form.Item>,
          )}
          {col(
            <Form.Item name="goodsType" label={f('goodsType')} extra={t('plan.form.goodsTypeAuto')}>
              <Select disabled options={PlanGoodsType.options(lang)} />
            </Form.Item>,
          )}
          {col(
            <Form.Item name="operatorId" label={f('operatorId')} rules={[required()]}>
              <Select options={Operator.options(lang)} data-testid="plan-operator" />
            </Form.Item>,
          )}
          {col(
            <Form.Item name="code" label={f('code')} extra={t('plan.form.codeHint')}
              rules={[{ ...required(), whitespace: true }, { max: 32 }, { pattern: CODE_RE, message: t('plan.form.codeHint') }]}>
              <Input maxLength={32} autoComplete="off" data-testid="plan-code" />
            </Form.Item>,
          )}
          {col(
            <Form.Item name="name" label={f('name')} rules={[{ ...required(), whitespace: true }, { max: 64 }]}>
              <Input maxLength={64} autoComplete="off" data-testid="plan-name" />
            </Form.Item>,
          )}
          {col(
            <Form.Item name="operationMode" label={f('operationMode')} rules={[required()]}>
              <Radio.Group options={PlanOperationMode.options(lang)} />
            </Form.Item>,
          )}
          {col(
            <Form.Item name="networkTypes" label={f('networkTypes')}>
              <Checkbox.Group options={NetworkType.options(lang)} />
            </Form.Item>,
            16,
          )}
          {col(
            <Form.Item name="renewalMode" label={f('renewalMode')} rules={[required()]}>
              <Radio.Group options={PlanRenewalMode.options(lang)} />
            </Form.Item>,
          )}
        </Row>
        {pack && <Alert type="info" showIcon title={t('plan.form.packHint')} style={{ marginBottom: 16 }} />}

        <Divider titlePlacement="start">{t('plan.form.sections.pricing')}</Divider>
        <Row gutter={16}>
          {col(<Form.Item name="standardPrice" label={f('standardPrice')} rules={[required(), priceRule('standardPrice')]}>{money()}</Form.Item>)}
          {col(<Form.Item name="salePrice" label={f('salePrice')} rules={[required(), priceRule('salePrice')]}>{money({ 'data-testid': 'plan-sale-price' })}</Form.Item>)}
          {col(<Form.Item name="taxRate" label={f('taxRate')} rules={[required()]}>{decimal({ max: 100 })}</Form.Item>)}
          {col(<Form.Item label={f('currency')}><Input value="CNY" disabled /></Form.Item>)}
          {col(
            <Form.Item name="profitShareRatio" label={f('profitShareRatio')} rules={[required(), {
              validator: async (_r, v: number | null) => {
                if (v != null && (v < 0 || v > 100)) throw new Error(errorMessage(ErrorCode.PlanProfitShareInvalid, lang));
              },
            }]}>
              <InputNumber precision={2} style={{ width: '100%' }} data-testid="plan-profit-share" />
            </Form.Item>,
          )}
          {col(
            <Form.Item name="profitShareMethod" label={f('profitShareMethod')} rules={[required()]}>
              <Radio.Group options={ProfitShareMethod.options(lang)} />
            </Form.Item>,
          )}
          {col(<Form.Item name="overageGrade" label={f('overageGrade')}><Select allowClear options={OverageGrade.options(lang)} /></Form.Item>)}
          {col(<Form.Item name="overagePrice" label={f('overagePrice')} rules={[priceRule('overagePrice')]}>{money()}</Form.Item>)}
          {!pack && col(<Form.Item name="downtimeFee" label={f('downtimeFee')} rules={[priceRule('downtimeFee')]}>{money()}</Form.Item>)}
          {!pack && col(<Form.Item name="downtimeFreeMonths" label={f('downtimeFreeMonths')}>{months}</Form.Item>)}
        </Row>

        <Divider titlePlacement="start">{t('plan.form.sections.cycle')}</Divider>
        <Row gutter={16}>
          {col(<Form.Item name="cycleUnit" label={f('cycleUnit')} rules={[required()]}><Radio.Group options={PlanCycleUnit.options(lang)} /></Form.Item>)}
          {col(<Form.Item name="cycleValue" label={f('cycleValue')} rules={[required()]}><InputNumber min={1} max={366} precision={0} style={{ width: '100%' }} /></Form.Item>)}
          {col(<Form.Item name="durationMonths" label={f('durationMonths')} rules={[required()]}>{months}</Form.Item>)}
          {col(<Form.Item name="quotaMb" label={f('quotaMb')} rules={[required()]}>{decimal()}</Form.Item>)}
          {col(<Form.Item name="useUpAction" label={f('useUpAction')} rules={[required()]}><Select options={PlanUseUpAction.options(lang)} /></Form.Item>)}
          {col(<Form.Item name="terminateByUsage" label={f('terminateByUsage')} valuePropName="checked"><Switch /></Form.Item>)}
        </Row>

        {!pack && (
          <>
            <Divider titlePlacement="start">{t('plan.form.sections.periods')}</Divider>
            <Row gutter={16}>
              {col(<Form.Item name="testPeriodMonths" label={f('testPeriodMonths')}>{months}</Form.Item>)}
              {col(
                <Form.Item
                  name="silentPeriodMonths"
                  label={f('silentPeriodMonths')}
                  extra={t('plan.form.testSilentHint')}
                  dependencies={['testPeriodMonths']}
                  rules={[({ getFieldValue }) => ({
                    validator: async (_r, v: number | null) => {
                      if ((getFieldValue('testPeriodMonths') ?? 0) + (v ?? 0) > PLAN_TEST_SILENT_MONTHS_MAX) {
                        throw new Error(errorMessage(ErrorCode.PlanTestSilentTooLong, lang, { max: PLAN_TEST_SILENT_MONTHS_MAX }));
                      }
                    },
                  })]}
                >
                  <InputNumber min={0} max={120} precision={0} style={{ width: '100%' }} data-testid="plan-silent" />
                </Form.Item>,
              )}
              {col(
                <Form.Item name="testValidityDays" label={f('testValidityDays')} extra={t('plan.form.validityHint')}
                  rules={tariffType === TariffType.Test ? [required()] : []}>
                  <Select allowClear options={TEST_VALIDITY_DAYS.map((d) => ({ value: d, label: String(d) }))} />
                </Form.Item>,
              )}
              {col(
                <Form.Item
                  name="testQuotaKb"
                  label={f('testQuotaKb')}
                  dependencies={['operatorId', 'operationMode']}
                  rules={[({ getFieldValue }) => ({
                    validator: async (_r, v: number | null) => {
                      const max = testQuotaMaxKb(getFieldValue('operatorId'), getFieldValue('operationMode'));
                      if (max !== null && (v ?? PLAN_TEST_QUOTA_KB_DEFAULT) > max) {
                        throw new Error(errorMessage(ErrorCode.PlanTestQuotaTooLarge, lang, { max }));
                      }
                    },
                  })]}
                >
                  <InputNumber min={0} precision={0} style={{ width: '100%' }} data-testid="plan-test-quota" />
                </Form.Item>,
              )}
              {col(<Form.Item name="testPrice" label={f('testPrice')} rules={[priceRule('testPrice')]}>{money()}</Form.Item>)}
            </Row>

            <Divider titlePlacement="start">{t('plan.form.sections.network')}</Divider>
            <Row gutter={16}>
              {col(
                <Form.Item
                  name="apnIds"
                  label={f('apnIds')}
                  extra={t('plan.form.apnHint')}
                  rules={[required(), { validator: async (_r, v: number[] | undefined) => { const p = apnProblem(v, lang); if (p) throw new Error(p); } }]}
                >
                  <Select
                    mode="multiple"
                    loading={apns.isFetching}
                    options={(apns.data?.list ?? []).map((a) => ({ value: a.apnId, label: a.apnName }))}
                    optionFilterProp="label"
                    data-testid="plan-apns"
                  />
                </Form.Item>,
                12,
              )}
              {col(
                <Form.Item name="alternativeIds" label={f('alternativeIds')} extra={apnIds.length ? t('plan.form.alternativesHint') : t('plan.form.alternativesNeedApn')}>
                  <Select
                    mode="multiple"
                    disabled={!apnIds.length}
                    loading={alternatives.isFetching}
                    options={(alternatives.data ?? []).map((a) => ({ value: a.goodsReleaseId, label: `${a.name} (${a.code})` }))}
                    optionFilterProp="label"
                  />
                </Form.Item>,
                12,
              )}
            </Row>
            <Form.Item label={f('zones')} required={false}>
              <ZonesEditor form={form} services={services} loading={servicesQuery.isFetching} />
            </Form.Item>
          </>
        )}

        <Form.Item name="remark" label={f('remark')} rules={[{ max: 500 }]}>
          <Input.TextArea rows={3} maxLength={500} showCount />
        </Form.Item>
        <Space>
          <Button type="primary" loading={busy} disabled={disabled} onClick={() => void submit()} data-testid="plan-save">{t('plan.form.save')}</Button>
          <Button onClick={onCancel} disabled={false}>{t('plan.form.cancel')}</Button>
        </Space>
      </Form>
    </Card>
  );
}
