import { useMemo } from 'react';
import { Card, Result, Skeleton } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { SUPPLEMENTARY_TARIFFS, plan } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { useTabs } from '../../../../stores/tabs.ts';
import { planPaths, useInvalidatePlans } from '../shared.tsx';
import { NEW_PLAN, PlanForm } from './PlanForm.tsx';
import { fromDetail } from './body.ts';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

/**
 * /billing/package/addbasic (new plan) and /billing/package/copybasic/:goodsReleaseId/:isCopy: with isCopy 1
 * a copy of the plan as a new draft (all fields, zones, services, APNs); with 0 the plan itself is edited,
 * which is possible only while it is published to no customer.
 */
export default function PlanFormPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const invalidate = useInvalidatePlans();
  const { goodsReleaseId, isCopy } = useParams();
  const id = goodsReleaseId ? Number(goodsReleaseId) : null;
  const mode: 'add' | 'copy' | 'edit' = id === null ? 'add' : isCopy === '0' ? 'edit' : 'copy';
  const here = id === null ? planPaths.add() : `/billing/package/copybasic/${id}/${isCopy}`;
  const detail = useQuery({
    queryKey: [plan.getBasicPlanDetail.name, { goodsReleaseId: id }],
    queryFn: ({ signal }) => call(plan.getBasicPlanDetail, { goodsReleaseId: id! }, { signal, silent: true }),
    enabled: id !== null,
  });
  const d = detail.data;
  usePageTitle(d?.name);
  const initial = useMemo(() => {
    if (mode === 'add') return NEW_PLAN;
    if (!d) return null;
    return fromDetail(d, mode === 'copy' ? { code: '', name: t('plan.form.copyName', { name: d.name }).slice(0, 64) } : null);
  }, [mode, d, t]);

  const leave = (to: string) => {
    navigate(to);
    useTabs.getState().close(here);
  };

  if (id !== null && detail.isLoading) return <Card className="lx-card"><Skeleton active /></Card>;
  if (id !== null && (detail.error || !d)) return <Card className="lx-card"><Result status="404" subTitle={t('common.notFound')} /></Card>;
  const title = mode === 'add' ? t('plan.form.addTitle') : t(mode === 'copy' ? 'plan.form.copyTitle' : 'plan.form.editTitle', { name: d!.name });
  const locked = mode === 'edit' && d!.releaseCount > 0;
  return (
    <PlanForm
      title={title}
      initial={initial!}
      selfId={mode === 'edit' ? id! : undefined}
      disabled={locked}
      notice={locked ? t('plan.form.notEditable') : undefined}
      onSubmit={async (body) => {
        if (mode === 'edit') {
          await call(plan.updateBasicPlan, { goodsReleaseId: id!, ...body }, { silent: true });
          return id!;
        }
        const r = await call(plan.saveBasicPlan, mode === 'copy' ? { ...body, copiedFrom: id! } : body, { silent: true });
        return r.goodsReleaseId;
      }}
      onSaved={(savedId, tariffType) => {
        invalidate();
        leave(planPaths.detail({ goodsReleaseId: savedId, tariffType }));
      }}
      onCancel={() => leave(planPaths.list(d && SUPPLEMENTARY_TARIFFS.includes(d.tariffType) ? 'supplementary' : 'basic'))}
    />
  );
}
