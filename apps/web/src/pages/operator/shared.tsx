import { useMemo } from 'react';
import { Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { ApnStatus, ApnType, IpAllocation, formatDateTime, network, type ResponseOf, withZoneLabel } from '@lynx/contract';
import { call } from '../../request/http.ts';
import { StatusTag } from '../../components/StatusTag.tsx';

export type OperatorRow = ResponseOf<typeof network.getOperatorList>[number];
export type ApnRow = ResponseOf<typeof network.getApnListPage>['list'][number];
type Lang = 'zh' | 'en';

/** The operators (no paging); shared by the three operator screens through one cache entry. */
export function useOperators() {
  return useQuery({
    queryKey: [network.getOperatorList.name, {}],
    queryFn: ({ signal }) => call(network.getOperatorList, {}, { signal }),
  });
}

export const operatorName = (o: Pick<OperatorRow, 'nameZh' | 'nameEn'>, lang: Lang): string => (lang === 'en' ? o.nameEn : o.nameZh);

/** operatorId → name in the current language. */
export function useOperatorNames(operators: OperatorRow[] | undefined, lang: Lang) {
  return useMemo(() => new Map((operators ?? []).map((o) => [o.operatorId, operatorName(o, lang)])), [operators, lang]);
}

export const STATUS_COLORS = { [ApnStatus.Enabled]: 'success', [ApnStatus.Disabled]: 'default' };
export const TYPE_COLORS = { [ApnType.Public]: 'blue', [ApnType.Private]: 'purple' };

/** APN columns shared by the APN list and the by-operator view. */
export function apnColumns(t: TFunction, names: Map<number, string>, opts: { withOperator: boolean }): ColumnsType<ApnRow> {
  return [
    {
      title: t('operator.apn.apnName'), dataIndex: 'apnName', sorter: true, width: 220, ellipsis: true,
      render: (v: string) => <Typography.Text code style={{ whiteSpace: 'nowrap' }}>{v}</Typography.Text>,
    },
    ...(opts.withOperator
      ? [{ title: t('operator.apn.operator'), dataIndex: 'operatorId', width: 140, render: (v: number) => names.get(v) ?? String(v) }]
      : []),
    { title: t('operator.apn.apnType'), dataIndex: 'apnType', width: 120, render: (v: number) => <StatusTag enumOf={ApnType} value={v} colors={TYPE_COLORS} /> },
    { title: t('operator.apn.ipAllocation'), dataIndex: 'ipAllocation', width: 130, render: (v: number) => <StatusTag enumOf={IpAllocation} value={v} /> },
    { title: t('operator.apn.status'), dataIndex: 'status', width: 100, render: (v: number) => <StatusTag enumOf={ApnStatus} value={v} colors={STATUS_COLORS} /> },
    {
      title: t('operator.apn.remark'), dataIndex: 'remark', width: 240,
      render: (v: string | null) => (v ? <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 220 }}>{v}</Typography.Text> : '-'),
    },
    { title: t('operator.apn.createdBy'), dataIndex: 'createdBy', width: 120 },
    { title: withZoneLabel(t('operator.apn.updatedAt')), dataIndex: 'updatedAt', sorter: true, width: 180, render: (v: string) => formatDateTime(v) },
  ];
}
