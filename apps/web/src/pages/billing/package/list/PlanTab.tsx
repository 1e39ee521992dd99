import { App, Button, Dropdown, Space, Tag, Tooltip, Typography } from 'antd';
import { LiveText } from '../../../../request/LiveText.tsx';
import { DownOutlined, PlusOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  BASE_TARIFFS, STAFF_ROLE_TYPES, Operator, PlanGoodsType, PlanStatus, SUPPLEMENTARY_TARIFFS, TariffType, formatDateTime, formatMoney, formatSizeFromMB, plan, withZoneLabel,
} from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton, usePerm } from '../../../../components/PermButton.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { useSession } from '../../../../stores/session.ts';
import { PLAN_PERM, PLAN_STATUS_COLORS, planPaths, useInvalidatePlans, type PlanRow } from '../shared.tsx';
import { PublishModal } from './PublishModal.tsx';
import { UnpublishModal } from './UnpublishModal.tsx';

/** One tab of the package list: basic plans (tariff 0, 1, 2, 6, 10) or supplementary packs (8, 9, 11, 14). */
export function PlanTab({ category }: { category: 'basic' | 'supplementary' }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const { modal, message } = App.useApp();
  const invalidate = useInvalidatePlans();
  const staff = STAFF_ROLE_TYPES.includes(Number(useSession((s) => s.roleId)));
  const table = useSearchTable(plan.getBasicPlanListPage, { fixed: { category }, transform: (v) => ({ ...v, name: v.name?.trim(), code: v.code?.trim() }) });
  const can = {
    add: usePerm(PLAN_PERM.add), publish: usePerm(PLAN_PERM.publish), del: usePerm(PLAN_PERM.delete),
    price: usePerm(PLAN_PERM.price), export: usePerm(PLAN_PERM.export),
  };
  const [publishing, setPublishing] = useState<PlanRow | null>(null);
  const [unpublishing, setUnpublishing] = useState<PlanRow | null>(null);
  const f = (k: string) => t(`plan.fields.${k}`);
  const tariffs = category === 'basic' ? BASE_TARIFFS : SUPPLEMENTARY_TARIFFS;

  const remove = (r: PlanRow) =>
    modal.confirm({
      title: t('plan.list.deleteTitle'),
      content: t('plan.list.deleteConfirm', { name: r.name }),
      okText: t('common.delete'), okButtonProps: { danger: true }, cancelText: t('common.cancel'),
      onOk: async () => {
        await call(plan.deleteBasicPlan, { goodsReleaseId: r.goodsReleaseId });
        message.success(<LiveText k="common.operationSuccess" />);
        invalidate();
      },
    });

  const menuOf = (r: PlanRow) => {
    const items = [
      can.add && r.releaseCount === 0 && { key: 'edit', label: t('plan.list.edit'), onClick: () => navigate(planPaths.edit(r.goodsReleaseId)) },
      can.add && { key: 'copy', label: t('plan.list.copy'), onClick: () => navigate(planPaths.copy(r.goodsReleaseId)) },
      can.price && { key: 'price', label: t('plan.list.priceAdjustment'), onClick: () => navigate(planPaths.price(r.goodsReleaseId)) },
      (can.price || can.add) && { key: 'changes', label: t('plan.list.changeList'), onClick: () => navigate(planPaths.changes(r.goodsReleaseId)) },
      can.publish && r.releaseCount > 0 && { key: 'unpublish', label: t('plan.list.unpublish'), onClick: () => setUnpublishing(r) },
      can.del && {
        key: 'delete', danger: true, disabled: r.releaseCount > 0, onClick: () => remove(r),
        label: r.releaseCount > 0 ? <Tooltip title={t('plan.form.notEditable')}>{t('plan.list.delete')}</Tooltip> : t('plan.list.delete'),
      },
    ];
    return items.filter((x): x is Exclude<typeof x, false> => !!x);
  };

  return (
    <>
      <SearchTable<PlanRow>
        table={table}
        rowKey="goodsReleaseId"
        exportSource={can.export ? plan.getBasicPlanListPage : undefined}
        emptyHint={staff ? t(category === 'basic' ? 'plan.list.emptyBasic' : 'plan.list.emptyPack') : t('plan.list.emptyCustomer')}
        toolbar={
          <PermButton perm={PLAN_PERM.add} type="primary" icon={<PlusOutlined />} onClick={() => navigate(planPaths.add())} data-testid="plan-add">
            {t(category === 'basic' ? 'plan.list.addBasic' : 'plan.list.addPack')}
          </PermButton>
        }
        fields={[
          { name: 'name', label: f('name') },
          { name: 'code', label: f('code') },
          { name: 'tariffType', label: f('tariffType'), type: 'select', options: tariffs.map((v) => ({ value: v, label: TariffType.label(v, lang) })) },
          { name: 'operatorId', label: f('operatorId'), type: 'enum', enumOf: Operator },
          ...(staff ? [{ name: 'status', label: f('status'), type: 'enum' as const, enumOf: PlanStatus }] : []),
        ]}
        scrollX={staff ? 1750 : 1350}
        columns={[
          { title: f('code'), dataIndex: 'code', width: 130 },
          {
            title: f('name'), dataIndex: 'name', sorter: true, ellipsis: true, width: 240,
            render: (v: string, r) => <Typography.Link onClick={() => navigate(planPaths.detail(r))}>{v}</Typography.Link>,
          },
          {
            title: f('salePrice'), dataIndex: 'salePrice', sorter: true, width: 150, align: 'right',
            render: (v: string, r) => (
              <Space orientation="vertical" size={0} style={{ alignItems: 'flex-end' }}>
                <span>{formatMoney(v)}</span>
                {r.pendingPrice != null && (
                  <Tooltip title={t('plan.pending', { price: formatMoney(r.pendingPrice), date: r.pendingDate })}>
                    <Tag color="gold" style={{ marginInlineEnd: 0 }}>{t('plan.list.pendingTag')}</Tag>
                  </Tooltip>
                )}
              </Space>
            ),
          },
          { title: f('tariffType'), dataIndex: 'tariffType', width: 120, render: (v: number) => <Tag color="blue">{TariffType.label(v, lang)}</Tag> },
          { title: f('goodsType'), dataIndex: 'goodsType', width: 100, render: (v: number) => PlanGoodsType.label(v, lang) },
          { title: f('operatorId'), dataIndex: 'operatorId', width: 110, render: (v: number | null) => Operator.label(v, lang) },
          { title: f('standardPrice'), dataIndex: 'standardPrice', width: 130, align: 'right', render: (v: string) => formatMoney(v) },
          { title: f('quota'), dataIndex: 'quotaMb', width: 120, align: 'right', render: (v: number) => formatSizeFromMB(v) },
          ...(staff
            ? [
                { title: f('status'), dataIndex: 'status', width: 100, render: (v: number) => <StatusTag enumOf={PlanStatus} value={v} colors={PLAN_STATUS_COLORS} /> },
                { title: f('releaseCount'), dataIndex: 'releaseCount', width: 100, align: 'right' as const },
              ]
            : []),
          { title: withZoneLabel(f('createdAt')), dataIndex: 'createdAt', sorter: true, width: 170, render: (v: string) => formatDateTime(v, lang) },
          {
            title: t('common.actions'), key: 'actions', fixed: 'right', width: staff ? 200 : 80,
            render: (_: unknown, r) => {
              const more = menuOf(r);
              return (
                <Space size={0}>
                  <Button type="link" size="small" onClick={() => navigate(planPaths.detail(r))}>{t('plan.list.detail')}</Button>
                  {can.publish && <Button type="link" size="small" onClick={() => setPublishing(r)}>{t('plan.list.publish')}</Button>}
                  {more.length > 0 && (
                    <Dropdown menu={{ items: more }}>
                      <Button type="link" size="small">{t('plan.list.more')} <DownOutlined /></Button>
                    </Dropdown>
                  )}
                </Space>
              );
            },
          },
        ]}
      />
      <PublishModal record={publishing} onClose={() => setPublishing(null)} onDone={invalidate} />
      <UnpublishModal record={unpublishing} onClose={() => setUnpublishing(null)} onDone={invalidate} />
    </>
  );
}
