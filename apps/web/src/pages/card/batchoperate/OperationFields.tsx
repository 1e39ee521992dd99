import { Alert, Form, Input, Radio, Select } from 'antd';
import type { FormInstance } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NetworkType, batch, carddata, cardcat, plan, pool, type BodyOf } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { usePerm } from '../../../components/PermButton.tsx';
import { SmsContentField } from '../sms/SmsContentField.tsx';

const { BatchType } = batch;
type Params = BodyOf<typeof batch.validateBatch>['params'];

/** Form values of step 1 → the batch's params (only the fields its type uses). */
export function paramsOf(v: Record<string, any>): Params {
  const type = Number(v.type);
  const reason = typeof v.reason === 'string' && v.reason.trim() ? { reason: v.reason.trim() } : {};
  switch (type) {
    case BatchType.PlanChange:
      return { type, goodsReleaseId: v.goodsReleaseId, ...reason };
    case BatchType.Zone:
      return { type, zoneOp: v.zoneOp, targetKind: v.targetKind, targetId: v.targetKind === 'zone' ? v.zoneId : v.networkType, ...reason };
    case BatchType.Labels:
      return { type, labelOp: v.labelOp, labelIds: v.labelIds ?? [], ...reason };
    case BatchType.DataRecovery:
      return { type, ...reason };
    case BatchType.PoolJoin:
    case BatchType.PoolLeave:
      return { type, poolId: v.poolId, ...reason };
    case BatchType.Sms:
      return { type, content: v.content ?? '', ...reason };
    default:
      return { type, action: v.action, ...reason };
  }
}

/** Step 1 of a new batch: the type and the parameters its type needs (`locked`: fields preset by the caller, e.g. a pool's own page). */
export function OperationFields({ form, types, locked = [] }: { form: FormInstance; types: readonly number[]; locked?: readonly string[] }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const W = (k: string) => t(`batch.wizard.${k}`);
  const required = [{ required: true, message: t('common.required') }];
  const ph = t('common.required');
  const type = Form.useWatch('type', form) as number | undefined;
  const targetKind = Form.useWatch('targetKind', form) as string | undefined;
  const zonePlan = Form.useWatch('zonePlanId', form) as number | undefined;
  const needPlans = type === BatchType.PlanChange || (type === BatchType.Zone && targetKind === 'zone');
  const canPlans = usePerm(plan.getBasicPlanListPage.perm);
  const plans = useQuery({
    queryKey: [plan.getBasicPlanListPage.name, { pageSize: 500, category: 'basic' }],
    queryFn: ({ signal }) => call(plan.getBasicPlanListPage, { pageSize: 500, category: 'basic' }, { signal, silent: true }),
    enabled: needPlans && canPlans,
  });
  const zones = useQuery({
    queryKey: [plan.getBasicPlanDetail.name, { goodsReleaseId: zonePlan }],
    queryFn: ({ signal }) => call(plan.getBasicPlanDetail, { goodsReleaseId: zonePlan! }, { signal, silent: true }),
    enabled: type === BatchType.Zone && targetKind === 'zone' && !!zonePlan,
  });
  const labels = useQuery({
    queryKey: [cardcat.getLabelOptions.name],
    queryFn: ({ signal }) => call(cardcat.getLabelOptions, {}, { signal, silent: true }),
    enabled: type === BatchType.Labels,
  });
  const isPool = type === BatchType.PoolJoin || type === BatchType.PoolLeave;
  const pools = useQuery({
    queryKey: [pool.getPoolOptions.name, {}],
    queryFn: ({ signal }) => call(pool.getPoolOptions, {}, { signal, silent: true }),
    enabled: isPool,
  });
  const planOptions = (plans.data?.list ?? []).map((p) => ({ value: p.goodsReleaseId, label: p.name }));

  return (
    <>
      <Form.Item name="type" label={W('type')} rules={required}>
        <Select options={types.map((v) => ({ value: v, label: BatchType.label(v, lang) }))} disabled={locked.includes('type')} data-testid="batch-type" />
      </Form.Item>
      {(type === BatchType.StatusChange || type === BatchType.StandardCard) && (
        <Form.Item name="action" label={W('action')} rules={required}>
          <Select placeholder={ph} options={carddata.CARD_STATE_ACTIONS.map((a) => ({ value: a, label: t(`batch.action.${a}`) }))} data-testid="batch-action" />
        </Form.Item>
      )}
      {type === BatchType.PlanChange && (
        <Form.Item name="goodsReleaseId" label={W('plan')} rules={required} extra={W('planHint')}>
          <Select placeholder={ph} showSearch optionFilterProp="label" loading={plans.isFetching} options={planOptions} />
        </Form.Item>
      )}
      {type === BatchType.Zone && (
        <>
          <Form.Item name="zoneOp" label={W('zoneOp')} rules={required}>
            <Radio.Group options={[{ value: 'block', label: W('block') }, { value: 'permit', label: W('permit') }]} />
          </Form.Item>
          <Form.Item name="targetKind" label={W('targetKind')} rules={required}>
            <Radio.Group options={[{ value: 'zone', label: W('zone') }, { value: 'network', label: W('network') }]} />
          </Form.Item>
          {targetKind === 'zone' && (
            <>
              <Form.Item name="zonePlanId" label={W('zonePlan')} rules={required}>
                <Select placeholder={ph} showSearch optionFilterProp="label" loading={plans.isFetching} options={planOptions} onChange={() => form.setFieldValue('zoneId', undefined)} />
              </Form.Item>
              <Form.Item name="zoneId" label={W('zoneTarget')} rules={required}>
                <Select placeholder={ph} loading={zones.isFetching} options={(zones.data?.zones ?? []).map((z) => ({ value: z.zoneId, label: z.zoneName }))} />
              </Form.Item>
            </>
          )}
          {targetKind === 'network' && (
            <Form.Item name="networkType" label={W('networkTarget')} rules={required}>
              <Select placeholder={ph} options={NetworkType.options(lang)} />
            </Form.Item>
          )}
        </>
      )}
      {type === BatchType.Labels && (
        <>
          <Form.Item name="labelOp" label={W('labelOp')} rules={required}>
            <Radio.Group options={[{ value: 'add', label: W('labelAdd') }, { value: 'remove', label: W('labelRemove') }, { value: 'replace', label: W('labelReplace') }]} />
          </Form.Item>
          <Form.Item name="labelIds" label={W('labels')} extra={W('labelsHint')}>
            <Select placeholder={ph} mode="multiple" maxCount={batch.BATCH_LABELS_MAX} optionFilterProp="label" loading={labels.isFetching}
              options={(labels.data ?? []).map((l) => ({ value: l.labelId, label: l.name }))} />
          </Form.Item>
        </>
      )}
      {isPool && (
        <Form.Item name="poolId" label={W('pool')} rules={required} extra={type === BatchType.PoolJoin ? W('poolHint') : undefined}>
          <Select placeholder={ph} showSearch optionFilterProp="label" loading={pools.isFetching} disabled={locked.includes('poolId')}
            options={(pools.data ?? []).map((p) => ({ value: p.poolId, label: p.name }))} data-testid="batch-pool" />
        </Form.Item>
      )}
      {type === BatchType.Sms && <SmsContentField form={form} />}
      {type === BatchType.DataRecovery && <Alert type="info" showIcon style={{ marginBottom: 16 }} title={W('recoveryHint')} />}
      <Form.Item name="reason" label={W('reason')} extra={W('reasonHint')}>
        <Input.TextArea maxLength={carddata.CARD_CHANGE_REASON_MAX} showCount autoSize={{ minRows: 1, maxRows: 3 }} />
      </Form.Item>
    </>
  );
}
