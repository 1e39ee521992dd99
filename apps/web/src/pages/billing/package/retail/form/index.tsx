import { useEffect, useMemo, useRef, useState } from 'react';
import { LiveText } from '../../../../../request/LiveText.tsx';
import { Alert, App, Button, Col, Form, Input, InputNumber, Radio, Result, Row, Select, Skeleton, Space, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import {
  ProfitShareMethod, countChars, formatMoney, retail, validateAmount, validateLength, validateProportion,
} from '@lynx/contract';
import { call } from '../../../../../request/http.ts';
import { required, ruleOf } from '../../../../../components/rules.ts';
import { useTabs } from '../../../../../stores/tabs.ts';
import { fieldOfRefusal, saveWithNameConfirm } from '../saveFlow.ts';
import { RETAIL_LIST_PATH, retailPaths, useDebounced, useRetailBasics, useRetailCustomers } from '../shared.tsx';
import { invalidateRetail } from '../RetailTab.tsx';
import { usePageTitle } from '../../../../../layout/pageTitle.ts';
import { PriceInputNumber } from '../../shared.tsx';
import { comparePrices, priceText } from '../../money.ts';

const { RetailStatus } = retail;
const NAME_MAX = 64;
const DESCRIPTION_MAX = 500;

interface RetailFormValues {
  retailName: string;
  custId?: number;
  goodsReleaseId?: number;
  /** prices are decimal text (inputs in string mode), never floats */
  price?: string | null;
  crossedPrice?: string | null;
  taxRate?: number | null;
  dividendMethod: number;
  dividendProportion?: number | null;
  description?: string;
  eventGoodsReleaseId?: number | null;
  status: number;
}
const FIELDS = [
  'retailName', 'custId', 'goodsReleaseId', 'price', 'crossedPrice', 'taxRate', 'dividendMethod', 'dividendProportion', 'description',
  'eventGoodsReleaseId', 'status',
] as const;

/**
 * /billing/package/addretail, /editretail/:retailId and /copyretail/:retailId/:isCopy: one form. The price
 * must be above what the chosen customer pays for the basic plan (checked here and on the server); a name
 * the customer already uses asks for confirmation, then the save is sent again with the flag.
 */
export default function RetailFormPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { retailId: idParam, isCopy } = useParams();
  const retailId = idParam ? Number(idParam) : null;
  const mode: 'add' | 'edit' | 'copy' = retailId === null ? 'add' : isCopy ? 'copy' : 'edit';
  const tabKey = useRef(useLocation().pathname).current;
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { modal, message } = App.useApp();
  const [form] = Form.useForm<RetailFormValues>();
  const [busy, setBusy] = useState(false);
  const f = (k: string) => t(`retail.fields.${k}`);

  const source = useQuery({
    queryKey: [retail.getRetailDetail.name, { retailId }],
    queryFn: ({ signal }) => call(retail.getRetailDetail, { retailId: retailId! }, { signal, silent: true }),
    enabled: retailId !== null && Number.isInteger(retailId),
  });
  const custId = Form.useWatch('custId', form);
  usePageTitle(source.data?.retailName);
  const goodsReleaseId = Form.useWatch('goodsReleaseId', form);
  const [custSearch, setCustSearch] = useState('');
  const customers = useRetailCustomers(useDebounced(custSearch));
  const mains = useRetailBasics('main', custId, !!custId);
  const events = useRetailBasics('event', custId, !!custId);

  // fill the form once: from the source plan (edit, copy) or with defaults (add)
  const filled = useRef(false);
  useEffect(() => {
    if (filled.current) return;
    if (mode === 'add') {
      form.setFieldsValue({ dividendMethod: ProfitShareMethod.ByProfit, status: RetailStatus.OnSale, taxRate: 0 });
      filled.current = true;
      return;
    }
    const s = source.data;
    if (!s) return;
    form.setFieldsValue({
      retailName: mode === 'copy' ? `${s.retailName}${t('retail.copySuffix')}` : s.retailName,
      custId: s.custId, goodsReleaseId: s.goodsReleaseId, price: s.price, crossedPrice: s.crossedPrice, taxRate: s.taxRate,
      dividendMethod: s.dividendMethod, dividendProportion: s.dividendProportion, description: s.description ?? '',
      eventGoodsReleaseId: s.eventGoodsReleaseId, status: mode === 'copy' ? RetailStatus.OnSale : s.status,
    });
    filled.current = true;
  }, [mode, source.data, form, t]);

  // a customer with only one choice (a second-level customer, a customer without sub-customers) is preselected
  useEffect(() => {
    const list = customers.data;
    if (mode === 'add' && !custSearch && list?.length === 1 && !form.getFieldValue('custId')) form.setFieldsValue({ custId: list[0].custId });
  }, [mode, customers.data, form, custSearch]);

  // names of customers seen stay known, so the chosen one keeps its label while another search runs
  const knownCustomers = useRef(new Map<number, string>());
  const customerOptions = useMemo(() => {
    for (const c of customers.data ?? []) knownCustomers.current.set(c.custId, c.custName);
    if (source.data) knownCustomers.current.set(source.data.custId, source.data.custName);
    const opts = (customers.data ?? []).map((c) => ({ value: c.custId, label: c.custName }));
    if (custId && !opts.some((o) => o.value === custId)) opts.unshift({ value: custId, label: knownCustomers.current.get(custId) ?? `#${custId}` });
    return opts;
  }, [customers.data, source.data, custId]);

  /** What the chosen customer pays for the chosen basic plan: the retail price must be above it. */
  const floor = useMemo(() => {
    const opt = mains.data?.find((b) => b.goodsReleaseId === goodsReleaseId);
    if (opt) return opt.salePrice;
    const s = source.data;
    return s && s.goodsReleaseId === goodsReleaseId && s.custId === custId ? s.basicSalePrice : null;
  }, [mains.data, goodsReleaseId, custId, source.data]);

  const leave = () => {
    void navigate(RETAIL_LIST_PATH);
    useTabs.getState().close(tabKey);
  };

  const submit = async () => {
    let v: RetailFormValues;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const body = {
      retailName: v.retailName.trim(), custId: v.custId!, goodsReleaseId: v.goodsReleaseId!, price: priceText(v.price) ?? '',
      crossedPrice: priceText(v.crossedPrice), taxRate: v.taxRate ?? 0, dividendMethod: v.dividendMethod, dividendProportion: v.dividendProportion!,
      description: v.description?.trim() ?? '', eventGoodsReleaseId: v.eventGoodsReleaseId ?? null, status: v.status,
    };
    setBusy(true);
    const outcome = await saveWithNameConfirm(
      (confirm) => {
        const flag = confirm ? { confirmDuplicateName: true } : {};
        return mode === 'edit'
          ? call(retail.updateRetail, { retailId: retailId!, ...body, ...flag }, { silent: true })
          : call(retail.saveRetail, { ...body, ...flag, ...(mode === 'copy' && { copyFromRetailId: retailId! }) }, { silent: true });
      },
      (text) =>
        new Promise<boolean>((resolve) => {
          modal.confirm({
            title: t('retail.nameExistsTitle'), content: text, okText: t('retail.nameExistsContinue'), cancelText: t('common.cancel'),
            onOk: () => resolve(true), onCancel: () => resolve(false),
          });
        }),
    );
    setBusy(false);
    if (outcome.saved) {
      message.success(<LiveText k="common.operationSuccess" />);
      invalidateRetail(qc);
      leave();
      return;
    }
    if (outcome.reason === 'cancelled') {
      form.setFields([{ name: 'retailName', errors: [t('retail.nameExistsTitle')] }]);
      return;
    }
    const field = fieldOfRefusal(outcome.error, FIELDS);
    const text = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
    if (field) {
      form.setFields([{ name: field, errors: [text] }]);
      form.scrollToField(field);
    } else message.error(text);
  };

  const priceRules: Rule[] = [
    required(),
    ruleOf((x) => validateAmount(x, { allowZero: true })),
    {
      validator: async (_r, x: string | null | undefined) => {
        const order = floor === null ? null : comparePrices(x, floor);
        if (order !== null && order <= 0) throw new Error(t('retail.rules.priceNotAbove', { price: formatMoney(floor) }));
      },
    },
  ];
  const crossedRules: Rule[] = [
    ruleOf((x) => validateAmount(x, { allowZero: true }), { optional: true }),
    ({ getFieldValue }) => ({
      validator: async (_r, x: string | null | undefined) => {
        if (comparePrices(x, getFieldValue('price') as string | null | undefined) === -1) throw new Error(t('retail.rules.crossedTooLow'));
      },
    }),
  ];
  const taxRules: Rule[] = [
    required(),
    {
      validator: async (_r, x: number | null | undefined) => {
        if (x === null || x === undefined) return;
        if (validateAmount(x, { allowZero: true, max: 100 })) throw new Error(t('retail.rules.taxRate'));
      },
    },
  ];

  if (retailId !== null && (source.isLoading || (source.isFetching && !source.data))) return <div className="lx-card"><Skeleton active /></div>;
  if (retailId !== null && !source.data) {
    return <div className="lx-card"><Result status="404" subTitle={t('common.notFound')} extra={<Button onClick={leave}>{t('retail.backToList')}</Button>} /></div>;
  }

  const title = mode === 'add' ? t('retail.add') : mode === 'edit' ? t('retail.edit') : t('retail.copy');
  const noMains = !!custId && mains.isSuccess && mains.data.length === 0;
  const section = (key: string) => <Typography.Title level={5} style={{ marginTop: 8 }}>{t(`retail.sections.${key}`)}</Typography.Title>;

  return (
    <div className="lx-card" data-testid="retail-form">
      <Typography.Title level={4} style={{ marginTop: 0 }}>{title}</Typography.Title>
      {mode === 'copy' && source.data && <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('retail.hints.copyOf', { name: source.data.retailName })} />}
      <Form form={form} layout="vertical" disabled={busy} style={{ maxWidth: 960 }}>
        {section('basic')}
        <Row gutter={24}>
          <Col xs={24} md={12}>
            <Form.Item name="retailName" label={f('retailName')} rules={[{ ...required(), whitespace: true }, ruleOf((x) => validateLength(x, NAME_MAX))]}>
              <Input maxLength={NAME_MAX} showCount autoComplete="off" data-testid="retail-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="status" label={f('status')} rules={[required()]}>
              <Radio.Group options={RetailStatus.options(lang)} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="custId" label={f('custId')} rules={[required()]} extra={t('retail.hints.custId')}>
              <Select
                showSearch={{ filterOption: false, onSearch: setCustSearch }}
                placeholder={t('retail.hints.searchCustomer')}
                loading={customers.isFetching}
                options={customerOptions}
                notFoundContent={customers.isFetching ? t('common.loading') : t('common.empty')}
                onChange={() => {
                  setCustSearch('');
                  form.setFieldsValue({ goodsReleaseId: undefined, eventGoodsReleaseId: null });
                }}
                data-testid="retail-customer"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="goodsReleaseId"
              label={f('goodsReleaseId')}
              rules={[required()]}
              validateStatus={noMains ? 'warning' : undefined}
              help={noMains ? t('retail.hints.noBasicPlans') : undefined}
              extra={custId ? t('retail.hints.goodsReleaseId') : t('retail.hints.chooseCustomerFirst')}
            >
              <Select
                showSearch
                optionFilterProp="label"
                disabled={!custId || busy}
                placeholder={custId ? t('common.required') : t('retail.hints.chooseCustomerFirst')}
                loading={mains.isFetching}
                options={(mains.data ?? []).map((b) => ({ value: b.goodsReleaseId, label: lang === 'zh' ? `${b.name}（¥${formatMoney(b.salePrice)}）` : `${b.name} (CNY ${formatMoney(b.salePrice)})` }))}
                onChange={() => void form.validateFields(['price']).catch(() => undefined)}
                data-testid="retail-basic"
              />
            </Form.Item>
          </Col>
        </Row>
        {section('price')}
        <Row gutter={24}>
          <Col xs={24} md={8}>
            <Form.Item
              name="price"
              label={f('price')}
              rules={priceRules}
              dependencies={['goodsReleaseId']}
              extra={floor !== null ? t('retail.hints.priceFloor', { price: formatMoney(floor) }) : t('retail.hints.price')}
            >
              <PriceInputNumber step={1} placeholder="0.00" data-testid="retail-price" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="crossedPrice" label={f('crossedPrice')} rules={crossedRules} dependencies={['price']} extra={t('retail.hints.crossedPrice')}>
              <PriceInputNumber step={1} placeholder="0.00" data-testid="retail-crossed" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="taxRate" label={f('taxRate')} rules={taxRules} extra={t('retail.hints.taxRate')}>
              <InputNumber min={0} max={100} style={{ width: '100%' }} suffix="%" data-testid="retail-tax" />
            </Form.Item>
          </Col>
        </Row>
        {section('dividend')}
        <Row gutter={24}>
          <Col xs={24} md={12}>
            <Form.Item name="dividendMethod" label={f('dividendMethod')} rules={[required()]}>
              <Radio.Group options={ProfitShareMethod.options(lang)} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="dividendProportion" label={f('dividendProportion')} rules={[required(), ruleOf(validateProportion, { optional: true })]} extra={t('retail.hints.dividendProportion')}>
              <InputNumber min={0} max={100} style={{ width: '100%' }} suffix="%" data-testid="retail-proportion" />
            </Form.Item>
          </Col>
        </Row>
        {section('more')}
        <Row gutter={24}>
          <Col xs={24} md={12}>
            <Form.Item
              name="eventGoodsReleaseId"
              label={f('eventGoodsReleaseId')}
              extra={custId && events.isSuccess && !events.data.length ? t('retail.hints.noEventPacks') : t('retail.hints.eventGoodsReleaseId')}
            >
              <Select
                allowClear
                disabled={!custId || busy}
                placeholder={custId ? t('retail.eventNone') : t('retail.hints.chooseCustomerFirst')}
                loading={events.isFetching}
                options={(events.data ?? []).map((b) => ({ value: b.goodsReleaseId, label: lang === 'zh' ? `${b.name}（¥${formatMoney(b.salePrice)}）` : `${b.name} (CNY ${formatMoney(b.salePrice)})` }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item name="description" label={f('description')} rules={[ruleOf((x) => validateLength(x, DESCRIPTION_MAX))]}>
              <Input.TextArea rows={3} count={{ show: true, max: DESCRIPTION_MAX, strategy: countChars }} />
            </Form.Item>
          </Col>
        </Row>
        <Space>
          <Button type="primary" loading={busy} onClick={() => void submit()} data-testid="retail-save">{t('common.save')}</Button>
          <Button onClick={leave} disabled={false}>{t('common.cancel')}</Button>
          {mode === 'edit' && retailId !== null && (
            <Button type="link" onClick={() => void navigate(retailPaths.record(retailId))}>{t('retail.records')}</Button>
          )}
        </Space>
      </Form>
    </div>
  );
}
