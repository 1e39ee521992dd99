import { Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { carddata, formatDateTime, formatSize, type ResponseOf, withZoneLabel } from '@lynx/contract';
import { DetailPage } from '../../../../components/DetailPage.tsx';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { call } from '../../../../request/http.ts';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

type ErrorRow = ResponseOf<typeof carddata.getCardImportErrorPage>['list'][number];

/** /card/import-info/detail/:batchId: one import's counts and its failed rows (with export). */
export default function CardImportDetail() {
  const { t } = useTranslation();
  const batchId = useParams().batchId ?? '';
  const batch = useQuery({
    queryKey: [carddata.getCardImportDetail.name, { batchId }],
    queryFn: ({ signal }) => call(carddata.getCardImportDetail, { batchId }, { signal, silent: true }),
  });
  const errors = useSearchTable(carddata.getCardImportErrorPage, { fixed: { batchId } });
  const I = (k: string) => t(`carddata.import.${k}`);
  const D = (k: string) => t(`carddata.detail.${k}`);
  const b = batch.data;
  usePageTitle(b?.fileName);

  return (
    <DetailPage
      loading={batch.isLoading}
      error={batch.error ?? (batch.isSuccess && !b ? true : undefined)}
      title={D('title')}
      items={
        b
          ? [
              { label: I('fileName'), value: b.fileName },
              { label: I('remark'), value: b.remark ?? '-' },
              { label: I('fileSize'), value: formatSize(b.fileSize) },
              { label: I('totalRows'), value: b.totalRows },
              { label: I('successRows'), value: <Tag color="success">{b.successRows}</Tag> },
              { label: I('failedRows'), value: <Tag color={b.failedRows ? 'error' : 'default'}>{b.failedRows}</Tag> },
              { label: I('createdBy'), value: b.createdBy },
              { label: withZoneLabel(I('createdAt')), value: formatDateTime(b.createdAt) },
            ]
          : []
      }
    >
      <SearchTable<ErrorRow>
        table={errors}
        title={D('errors')}
        rowKey={(r) => `${r.row}-${r.column}`}
        exportSource={carddata.getCardImportErrorPage}
        emptyHint={D('noErrors')}
        columns={[
          { title: D('row'), dataIndex: 'row', width: 80, align: 'right' },
          { title: 'ICCID', dataIndex: 'iccid', width: 200, render: (v: string | null) => v ?? '-' },
          { title: 'MSISDN', dataIndex: 'msisdn', width: 140, render: (v: string | null) => v ?? '-' },
          { title: 'IMSI', dataIndex: 'imsi', width: 160, render: (v: string | null) => v ?? '-' },
          { title: D('column'), dataIndex: 'column', width: 120 },
          { title: D('reason'), dataIndex: 'reason' },
        ]}
      />
    </DetailPage>
  );
}

