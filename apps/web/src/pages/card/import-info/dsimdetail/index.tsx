import { Result } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { STAFF_ROLE_TYPES, dsim, formatDateTime, formatSize, withZoneLabel, type ResponseOf } from '@lynx/contract';
import { DetailPage } from '../../../../components/DetailPage.tsx';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { call } from '../../../../request/http.ts';
import { usePageTitle } from '../../../../layout/pageTitle.ts';
import { useSession } from '../../../../stores/session.ts';
import { OperatorTag, detailPath } from '../../dsimlist/shared.tsx';

type Item = ResponseOf<typeof dsim.getDsimImportItemPage>['list'][number];

/** /card/import-info/dsimdetail/:batchId (2070000, staff): one super SIM import and its SNs with their ICCIDs per operator. */
export default function DsimImportDetail() {
  const { t } = useTranslation();
  const staff = STAFF_ROLE_TYPES.includes(Number(useSession((s) => s.roleId)));
  if (!staff) return <div className="lx-card"><Result status="403" subTitle={t('dsim.import.staffOnly')} /></div>;
  return <Detail />;
}

function Detail() {
  const { t } = useTranslation();
  const batchId = useParams().batchId ?? '';
  const valid = /^[0-9a-f-]{36}$/i.test(batchId);
  const I = (k: string, o?: Record<string, unknown>) => t(`dsim.import.${k}`, o);
  const batch = useQuery({
    queryKey: [dsim.getDsimImportDetail.name, { batchId }],
    queryFn: ({ signal }) => call(dsim.getDsimImportDetail, { batchId }, { signal, silent: true }),
    enabled: valid,
  });
  const items = useSearchTable(dsim.getDsimImportItemPage, { fixed: { batchId } });
  const b = batch.data;
  usePageTitle(b?.fileName);
  return (
    <DetailPage
      loading={valid && batch.isLoading}
      error={!valid || batch.isError ? true : undefined}
      title={b ? I('detailTitle', { file: b.fileName }) : ''}
      items={b ? [
        { label: I('fileName'), value: b.fileName },
        { label: I('remark'), value: b.remark ?? '-' },
        { label: I('fileSize'), value: formatSize(b.fileSize) },
        { label: I('simCount'), value: b.simCount },
        { label: I('cardCount'), value: b.cardCount },
        { label: I('createdBy'), value: b.createdBy },
        { label: withZoneLabel(I('createdAt')), value: formatDateTime(b.createdAt) },
      ] : []}
    >
      {b && (
        <SearchTable<Item>
          table={items}
          title={I('items')}
          rowKey={(r) => `${r.sn}/${r.operatorId}`}
          fields={[{ name: 'snNumber', label: 'SN' }]}
          columns={[
            { title: 'SN', dataIndex: 'sn', key: 'sn', render: (v: string, r) => <Link to={detailPath({ sn: v, isSupplierCard: r.isSupplierCard })}>{v}</Link> },
            { title: I('operator'), dataIndex: 'operatorId', key: 'operatorId', render: (v: number) => <OperatorTag value={v} /> },
            { title: 'ICCID', dataIndex: 'iccid', key: 'iccid' },
          ]}
        />
      )}
    </DetailPage>
  );
}
