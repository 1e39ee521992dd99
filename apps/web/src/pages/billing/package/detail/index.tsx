import type { ReactNode } from 'react';
import { Button, Card, Col, Empty, Row, Space, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import {
  CommServType, CustomerLevel, NetworkType, Operator, OverageGrade, PlanCycleUnit, PlanGoodsType, PlanOperationMode, PlanRenewalMode,
  PlanStatus, PlanUseUpAction, ProfitShareMethod, SUPPLEMENTARY_TARIFFS, TariffType, formatDateTime, formatMoney, formatSizeFromMB, formatSizeIn, nameIn, plan, regionName, withZoneLabel,
} from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { DetailPage, type DetailItem } from '../../../../components/DetailPage.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { usePerm } from '../../../../components/PermButton.tsx';
import { PLAN_PERM, PLAN_STATUS_COLORS, Tags, planPaths } from '../shared.tsx';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

/**
 * /billing/package/basicdetail/:goodsReleaseId/:tariffType: every field of the plan; a supplementary pack
 * (tariff 8, 9, 11, 14) shows no network, periods or zones. Customers see it read-only, and only when the
 * plan is published to them (otherwise: not found).
 */
export default function PlanDetailPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const { goodsReleaseId, tariffType } = useParams();
  const id = Number(goodsReleaseId);
  const can = { add: usePerm(PLAN_PERM.add), price: usePerm(PLAN_PERM.price) };
  const query = useQuery({
    queryKey: [plan.getBasicPlanDetail.name, { goodsReleaseId: id }],
    queryFn: ({ signal }) => call(plan.getBasicPlanDetail, { goodsReleaseId: id }, { signal, silent: true }),
  });
  const releases = useQuery({
    queryKey: [plan.getBasicPlanReleases.name, { goodsReleaseId: id }],
    queryFn: ({ signal }) => call(plan.getBasicPlanReleases, { goodsReleaseId: id }, { signal, silent: true }),
    enabled: !!query.data,
  });
  const d = query.data;
  usePageTitle(d?.name);
  const pack = SUPPLEMENTARY_TARIFFS.includes(d?.tariffType ?? Number(tariffType));
  const f = (k: string) => t(`plan.fields.${k}`);
  const yesNo = (v: boolean) => (v ? t('plan.yes') : t('plan.no'));
  const items: DetailItem[] = !d ? [] : ([
    [f('code'), d.code],
    [f('name'), d.name],
    [f('status'), <StatusTag enumOf={PlanStatus} value={d.status} colors={PLAN_STATUS_COLORS} />],
    [f('goodsType'), PlanGoodsType.label(d.goodsType, lang)],
    [f('tariffType'), TariffType.label(d.tariffType, lang)],
    [f('operatorId'), Operator.label(d.operatorId, lang)],
    [f('operationMode'), PlanOperationMode.label(d.operationMode, lang)],
    [f('networkTypes'), <Tags items={d.networkTypes.map((n) => NetworkType.label(n, lang))} />],
    [f('renewalMode'), PlanRenewalMode.label(d.renewalMode, lang)],
    [f('standardPrice'), formatMoney(d.standardPrice)],
    [f('salePrice'), <Space>{formatMoney(d.salePrice)}{d.pendingPrice != null && <Tag color="gold">{t('plan.pending', { price: formatMoney(d.pendingPrice), date: d.pendingDate })}</Tag>}</Space>],
    [f('currency'), d.currency],
    [f('taxRate'), `${d.taxRate}%`],
    [f('profitShareRatio'), `${d.profitShareRatio}%`],
    [f('profitShareMethod'), ProfitShareMethod.label(d.profitShareMethod, lang)],
    [f('overageGrade'), OverageGrade.label(d.overageGrade, lang)],
    [f('overagePrice'), formatMoney(d.overagePrice)],
    [f('cycle'), `${d.cycleValue} ${PlanCycleUnit.label(d.cycleUnit, lang)}`],
    [f('durationMonths'), d.durationMonths],
    [f('quota'), formatSizeFromMB(d.quotaMb)],
    [f('useUpAction'), PlanUseUpAction.label(d.useUpAction, lang)],
    [f('terminateByUsage'), yesNo(d.terminateByUsage)],
    ...(!pack ? [
      [f('downtimeFee'), formatMoney(d.downtimeFee)],
      [f('downtimeFreeMonths'), d.downtimeFreeMonths],
      [f('testPeriodMonths'), d.testPeriodMonths],
      [f('silentPeriodMonths'), d.silentPeriodMonths],
      [f('testQuota'), formatSizeIn(d.testQuotaKb, 'KB')],
      [f('testPrice'), formatMoney(d.testPrice)],
      [f('testValidityDays'), d.testValidityDays ?? '-'],
      [f('apnIds'), <Tags items={d.apns.map((a) => a.apnName)} />],
      [f('alternativeIds'), d.alternatives.length
        ? <Space wrap>{d.alternatives.map((a) => <Typography.Link key={a.goodsReleaseId} onClick={() => navigate(planPaths.detail({ goodsReleaseId: a.goodsReleaseId, tariffType: d.tariffType }))}>{a.name}</Typography.Link>)}</Space>
        : t('plan.detail.noAlternatives')],
    ] as [string, ReactNode][] : []),
    [withZoneLabel(f('createdAt')), formatDateTime(d.createdAt, lang)],
    [f('remark'), d.remark ?? '-'],
  ] as [string, ReactNode][]).map(([label, value]) => ({ label, value }));

  const extra = d && (
    <Space>
      {can.add && d.releaseCount === 0 && <Button onClick={() => navigate(planPaths.edit(id))}>{t('plan.list.edit')}</Button>}
      {can.add && <Button onClick={() => navigate(planPaths.copy(id))}>{t('plan.list.copy')}</Button>}
      {can.price && <Button onClick={() => navigate(planPaths.price(id))}>{t('plan.list.priceAdjustment')}</Button>}
      {(can.price || can.add) && <Button onClick={() => navigate(planPaths.changes(id))}>{t('plan.list.changeList')}</Button>}
    </Space>
  );

  return (
    <DetailPage loading={query.isLoading} error={query.error} title={d?.name ?? t('plan.detail.title')} items={items} extra={extra}>
      {d && !pack && (
        <Card className="lx-card" title={t('plan.detail.zones')} variant="borderless">
          {!d.zones.length && <Empty description={t('plan.detail.noZones')} />}
          <Row gutter={[16, 16]}>
            {d.zones.map((z) => (
              <Col xs={24} lg={12} key={z.zoneId}>
                <Card size="small" title={nameIn(lang, z.zoneName, z.zoneNameEn)} extra={<Space size={4}>{z.quotaMb != null && <Tag>{formatSizeFromMB(z.quotaMb)}</Tag>}{z.price != null && <Tag color="blue">¥{formatMoney(z.price)}</Tag>}</Space>}>
                  <div style={{ marginBottom: 8 }}><Tags items={z.regions.map((r) => regionName(r, lang))} /></div>
                  <Table
                    size="small"
                    rowKey="commservId"
                    pagination={false}
                    dataSource={z.services}
                    columns={[
                      { title: t('plan.form.zone.services'), dataIndex: 'name', render: (v: string, s) => nameIn(lang, v, s.nameEn) },
                      { title: t('plan.detail.serviceType'), dataIndex: 'type', width: 80, render: (v: number) => CommServType.label(v, lang) },
                      { title: t('plan.detail.servicePriority'), key: 'p', width: 90, render: (_: unknown, s) => t('plan.detail.priority', { p: s.priority }) },
                      { title: t('plan.detail.serviceQos'), key: 'q', width: 80, render: (_: unknown, s) => t('plan.detail.qos', { count: s.qosCount }) },
                      { title: t('plan.detail.serviceDirectional'), key: 'd', width: 90, render: (_: unknown, s) => (s.directional ? <Tag color="purple">{t('plan.detail.directional')}</Tag> : null) },
                    ]}
                  />
                </Card>
              </Col>
            ))}
          </Row>
        </Card>
      )}
      {d && (
        <Card className="lx-card" title={t('plan.detail.releases')} variant="borderless">
          <Table
            size="small"
            rowKey="custId"
            loading={releases.isFetching}
            dataSource={releases.data ?? []}
            pagination={false}
            locale={{ emptyText: t('plan.detail.noReleases') }}
            columns={[
              { title: t('plan.changes.custName'), dataIndex: 'custName' },
              { title: t('plan.publish.level'), dataIndex: 'level', width: 120, render: (v: number) => CustomerLevel.label(v, lang) },
              { title: t('plan.publish.salePrice'), dataIndex: 'salePrice', width: 140, align: 'right', render: (v: string) => formatMoney(v) },
              { title: withZoneLabel(t('plan.publish.releasedAt')), dataIndex: 'releasedAt', width: 170, render: (v: string) => formatDateTime(v, lang) },
            ]}
          />
        </Card>
      )}
    </DetailPage>
  );
}
