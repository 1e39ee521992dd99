import { useState, type ReactNode } from 'react';
import { LiveText } from '../../../request/LiveText.tsx';
import { App, Button, Popconfirm, Space, Switch, Typography } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { OperatorGoodsStatus, OperatorGoodsType, QuotaUnit, formatDateTime, formatMoney, formatSizeIn, netconfig, type ResponseOf, withZoneLabel } from '@lynx/contract';
import { SearchTable } from '../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../components/useSearchTable.ts';
import { PermButton, usePerm } from '../../../components/PermButton.tsx';
import { StatusTag } from '../../../components/StatusTag.tsx';
import { call } from '../../../request/http.ts';
import { operatorName, useOperatorNames, useOperators } from '../shared.tsx';

export type GoodsRow = ResponseOf<typeof netconfig.getOperatorGoodsList>['list'][number];

/** The permission codes a screen uses: the Operator screen (70200xx) or the Stock screen (110200xx). */
export interface GoodsPerms {
  switch: number;
  delete: number;
  upload: number;
}
export const OPERATOR_GOODS_PERMS: GoodsPerms = { switch: 7020001, delete: 7020002, upload: 7020003 };
export const STOCK_GOODS_PERMS: GoodsPerms = { switch: 11020001, delete: 11020002, upload: 11020003 };

const TYPE_COLORS = { [OperatorGoodsType.Data]: 'blue', [OperatorGoodsType.Sms]: 'green', [OperatorGoodsType.Voice]: 'purple' };
const STATUS_COLORS = { [OperatorGoodsStatus.On]: 'success', [OperatorGoodsStatus.Off]: 'default' };

/** '2 GB' (data scaled like every size: 10240 MB → '10 GB'), '100 条', '60 minutes' */
export const quotaText = (quota: number, unit: number, lang: 'zh' | 'en') =>
  unit === QuotaUnit.Mb || unit === QuotaUnit.Gb ? formatSizeIn(quota, unit === QuotaUnit.Gb ? 'GB' : 'MB') : `${quota} ${QuotaUnit.label(unit, lang)}`;
/** The quota in the base unit operators bill in, on purpose unscaled: '2048 MB', '100 条'. */
const baseQuotaText = (quota: number, unit: number, lang: 'zh' | 'en') => `${quota} ${QuotaUnit.label(unit === QuotaUnit.Gb ? QuotaUnit.Mb : unit, lang)}`;

/** Imported operator plans: search, switch on/off and delete with confirmation, export. */
export function GoodsList({ perms, importPath, goodsType, tabs }: { perms: GoodsPerms; importPath: string; goodsType?: number; tabs?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const table = useSearchTable(netconfig.getOperatorGoodsList, { fixed: goodsType !== undefined ? { goodsType } : undefined });
  const operators = useOperators();
  const names = useOperatorNames(operators.data, lang);
  const canSwitch = usePerm(perms.switch);
  const canDelete = usePerm(perms.delete);
  const [switching, setSwitching] = useState<number | null>(null);

  const refresh = () => {
    void qc.invalidateQueries({ queryKey: [netconfig.getOperatorGoodsList.name] });
    void qc.invalidateQueries({ queryKey: [netconfig.getOperatorPackageList.name] });
  };
  const toggle = async (r: GoodsRow) => {
    setSwitching(r.goodsId);
    try {
      await call(netconfig.switchOperatorGoods, { goodsId: r.goodsId, status: r.status === OperatorGoodsStatus.On ? OperatorGoodsStatus.Off : OperatorGoodsStatus.On });
      message.success(<LiveText k="common.operationSuccess" />);
      refresh();
    } catch {
      /* shown by the request layer */
    } finally {
      setSwitching(null);
    }
  };
  const remove = async (goodsIds: number[]) => {
    try {
      const r = await call(netconfig.deleteOperatorGoods, { goodsIds });
      message.success(t('netconfig.goods.deleted', { count: r?.deleted ?? goodsIds.length }));
      refresh();
    } catch {
      /* shown by the request layer */
    }
  };

  return (
    <>
      {tabs}
      <SearchTable<GoodsRow>
        table={table}
        title={t('netconfig.goods.title')}
        rowKey="goodsId"
        exportSource={netconfig.getOperatorGoodsList}
        emptyHint={t('netconfig.goods.emptyHint')}
        toolbar={
          <>
            <PermButton perm={perms.upload} type="primary" icon={<UploadOutlined />} onClick={() => navigate(importPath)} data-testid="goods-import">
              {t('netconfig.goods.import')}
            </PermButton>
          </>
        }
        fields={[
          { name: 'goodsCode', label: t('netconfig.goods.goodsCode') },
          { name: 'goodsName', label: t('netconfig.goods.goodsName') },
          {
            name: 'operatorId', label: t('netconfig.goods.operator'), type: 'select',
            options: (operators.data ?? []).map((o) => ({ value: o.operatorId, label: operatorName(o, lang) })),
          },
          ...(goodsType === undefined ? [{ name: 'goodsType', label: t('netconfig.goods.goodsType'), type: 'enum' as const, enumOf: OperatorGoodsType }] : []),
          { name: 'status', label: t('netconfig.goods.status'), type: 'enum', enumOf: OperatorGoodsStatus },
        ]}
        columns={[
          { title: t('netconfig.goods.goodsCode'), dataIndex: 'goodsCode', sorter: true, width: 180, render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
          { title: t('netconfig.goods.goodsName'), dataIndex: 'goodsName', width: 200 },
          { title: t('netconfig.goods.operator'), dataIndex: 'operatorId', width: 110, render: (v: number) => names.get(v) ?? v },
          { title: t('netconfig.goods.goodsType'), dataIndex: 'goodsType', width: 90, render: (v: number) => <StatusTag enumOf={OperatorGoodsType} value={v} colors={TYPE_COLORS} /> },
          { title: t('netconfig.goods.quota'), key: 'quota', width: 120, render: (_: unknown, r) => quotaText(r.quota, r.quotaUnit, lang) },
          {
            title: t('netconfig.goods.quotaBase'), dataIndex: 'quotaBase', width: 130,
            render: (v: number, r) => <span className="lx-exact-units">{baseQuotaText(v, r.quotaUnit, lang)}</span>,
          },
          { title: t('netconfig.goods.validityDays'), dataIndex: 'validityDays', width: 100, render: (v: number) => t('netconfig.goods.days', { n: v }) },
          { title: t('netconfig.goods.price'), dataIndex: 'price', sorter: true, width: 110, align: 'right', render: (v: string) => formatMoney(v) },
          {
            title: t('netconfig.goods.status'), dataIndex: 'status', width: 110,
            render: (v: number, r) =>
              canSwitch ? (
                <Popconfirm
                  title={t(v === OperatorGoodsStatus.On ? 'netconfig.goods.switchOffConfirm' : 'netconfig.goods.switchOnConfirm', { name: r.goodsName })}
                  onConfirm={() => toggle(r)} okText={t('common.ok')} cancelText={t('common.cancel')}
                >
                  <Switch
                    checked={v === OperatorGoodsStatus.On} loading={switching === r.goodsId} checkedChildren={OperatorGoodsStatus.label(1, lang)}
                    unCheckedChildren={OperatorGoodsStatus.label(0, lang)} aria-label={t(v === OperatorGoodsStatus.On ? 'netconfig.goods.switchOff' : 'netconfig.goods.switchOn')}
                  />
                </Popconfirm>
              ) : (
                <StatusTag enumOf={OperatorGoodsStatus} value={v} colors={STATUS_COLORS} />
              ),
          },
          { title: t('netconfig.goods.createdBy'), dataIndex: 'createdBy', width: 110 },
          { title: withZoneLabel(t('netconfig.goods.createdAt')), dataIndex: 'createdAt', sorter: true, width: 170, render: (v: string) => formatDateTime(v) },
          ...(canDelete
            ? [{
                title: t('common.actions'), key: 'actions', fixed: 'right' as const, width: 90,
                render: (_: unknown, r: GoodsRow) => (
                  <Space size={0}>
                    <Popconfirm title={t('netconfig.goods.deleteConfirm', { name: r.goodsName })} onConfirm={() => remove([r.goodsId])} okText={t('common.ok')} cancelText={t('common.cancel')}>
                      <Button type="link" size="small" danger>{t('common.delete')}</Button>
                    </Popconfirm>
                  </Space>
                ),
              }]
            : []),
        ]}
      />
    </>
  );
}
