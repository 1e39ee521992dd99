import { useEffect, useState } from 'react';
import { LiveText } from '../../../../request/LiveText.tsx';
import { Alert, App, Button, Card, DatePicker, Descriptions, Form, Input, Result, Skeleton, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import type { Dayjs } from 'dayjs';
import { TariffType, formatMoney, plan, withZoneLabel } from '@lynx/contract';
import { LogicError, call } from '../../../../request/http.ts';
import { required } from '../../../../components/rules.ts';
import { businessTodayPicker } from '../../../../components/businessTime.ts';
import { PriceInputNumber, planPaths, priceRule, useInvalidatePlans } from '../shared.tsx';
import { comparePrices, priceText } from '../money.ts';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

interface Values {
  /** decimal text (the input runs in string mode) */
  salePrice: string;
  effectiveDate: Dayjs;
  remark?: string;
}

/** Today in China (the business day the server checks effective dates against). */

/**
 * /billing/package/priceAdjustment/:goodsReleaseId/:isCopy: a new sale price and its effective date. With
 * isCopy 1 the form starts from the plan's latest change (to repeat it for customers that failed).
 */
export default function PriceAdjustmentPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message } = App.useApp();
  const navigate = useNavigate();
  const invalidate = useInvalidatePlans();
  const { goodsReleaseId, isCopy } = useParams();
  const id = Number(goodsReleaseId);
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ successCount: number; failureCount: number } | null>(null);
  const detail = useQuery({
    queryKey: [plan.getBasicPlanDetail.name, { goodsReleaseId: id }],
    queryFn: ({ signal }) => call(plan.getBasicPlanDetail, { goodsReleaseId: id }, { signal, silent: true }),
  });
  const latest = useQuery({
    queryKey: [plan.getPriceChangeListPage.name, { goodsReleaseId: id, current: 1, pageSize: 1 }],
    queryFn: ({ signal }) => call(plan.getPriceChangeListPage, { goodsReleaseId: id, current: 1, pageSize: 1 }, { signal, silent: true }),
    enabled: isCopy === '1',
  });
  const from = isCopy === '1' ? latest.data?.list[0] : undefined;
  const loaded = !!detail.data;
  usePageTitle(detail.data?.name);
  useEffect(() => {
    // the form mounts once the plan is loaded
    if (loaded) form.setFieldsValue({ effectiveDate: businessTodayPicker(), ...(from && { salePrice: from.newPrice, remark: from.remark ?? '' }) });
  }, [loaded, from, form]);

  if (detail.isLoading) return <Card className="lx-card"><Skeleton active /></Card>;
  const d = detail.data;
  if (detail.error || !d) return <Card className="lx-card"><Result status="404" subTitle={t('common.notFound')} /></Card>;

  const submit = async () => {
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setBusy(true);
    try {
      const r = await call(plan.adjustBasicPlanPrice, {
        goodsReleaseId: id, salePrice: priceText(v.salePrice) ?? '', effectiveDate: v.effectiveDate.format('YYYY-MM-DD'), remark: v.remark?.trim() || undefined,
      }, { silent: true });
      setResult(r);
      message.success(<LiveText k="common.operationSuccess" />);
      invalidate();
    } catch (e) {
      const field = e instanceof LogicError ? (e.data as { field?: string } | null)?.field : undefined;
      if (field === 'salePrice' || field === 'effectiveDate') form.setFields([{ name: field, errors: [(e as Error).message] }]);
      else if (e instanceof Error) message.error(e.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t('plan.price.title', { name: d.name })} className="lx-card" variant="borderless">
      <Descriptions
        bordered
        size="small"
        column={{ xs: 1, md: 3 }}
        style={{ marginBottom: 16 }}
        items={[
          { key: 'code', label: t('plan.fields.code'), children: d.code },
          { key: 'tariff', label: t('plan.fields.tariffType'), children: TariffType.label(d.tariffType, lang) },
          { key: 'price', label: t('plan.price.current'), children: formatMoney(d.salePrice) },
          { key: 'released', label: t('plan.price.releasedTo'), children: t('plan.price.customersCount', { count: d.releaseCount }) },
        ]}
      />
      {d.pendingPrice != null && (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t('plan.price.pendingExists', { price: formatMoney(d.pendingPrice), date: d.pendingDate })} />
      )}
      {from && <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('plan.price.fromChange', { id: from.changeId })} />}
      <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('plan.price.hint')} />
      {result && (
        <Alert
          type={result.failureCount ? 'warning' : 'success'}
          showIcon
          style={{ marginBottom: 16 }}
          title={t('plan.price.result', { success: result.successCount, failure: result.failureCount })}
          action={<Button size="small" onClick={() => navigate(planPaths.changes(id))}>{t('plan.price.viewChanges')}</Button>}
          data-testid="price-result"
        />
      )}
      <Form form={form} layout="vertical" disabled={busy} style={{ maxWidth: 520 }}>
        <Form.Item
          name="salePrice"
          label={t('plan.price.newPrice')}
          rules={[required(), priceRule('salePrice'), { validator: async (_r, v: string | null) => { if (comparePrices(v, d.salePrice) === 0) throw new Error(t('plan.price.samePrice')); } }]}
        >
          <PriceInputNumber data-testid="price-new" />
        </Form.Item>
        <Form.Item name="effectiveDate" label={withZoneLabel(t('plan.price.effectiveDate'))} rules={[required()]}>
          <DatePicker style={{ width: '100%' }} disabledDate={(day) => day.isBefore(businessTodayPicker(), 'day')} />
        </Form.Item>
        <Form.Item name="remark" label={t('plan.price.remark')} rules={[{ max: 200 }]}>
          <Input.TextArea rows={2} maxLength={200} showCount />
        </Form.Item>
        <Space>
          <Button type="primary" loading={busy} onClick={() => void submit()} data-testid="price-submit">{t('plan.price.submit')}</Button>
          <Button onClick={() => navigate(planPaths.changes(id))} disabled={false}>{t('plan.price.viewChanges')}</Button>
        </Space>
      </Form>
    </Card>
  );
}
