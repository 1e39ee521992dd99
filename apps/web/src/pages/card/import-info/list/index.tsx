import { useState } from 'react';
import { Button, Result, Tag, Typography } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Dayjs } from 'dayjs';
import { STAFF_ROLE_TYPES, carddata, formatDateTime, formatSize, type ResponseOf, withZoneLabel } from '@lynx/contract';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { ImportModal } from '../ImportModal.tsx';
import { useSession } from '../../../../stores/session.ts';

type BatchRow = ResponseOf<typeof carddata.getCardImportPage>['list'][number];

/** Search form values → filters: the import date range as days. */
export function importFilters(v: Record<string, any>): Record<string, unknown> {
  const { created, withErrors, ...rest } = v as { created?: [Dayjs, Dayjs] | null; withErrors?: string } & Record<string, unknown>;
  return {
    ...rest,
    ...(withErrors === 'yes' ? { withErrors: true } : {}),
    ...(created?.[0] ? { createdFrom: created[0].format('YYYY-MM-DD'), createdTo: created[1].format('YYYY-MM-DD') } : {}),
  };
}

/** /card/import-info/list: card files imported by staff, with upload; each opens its failed rows. */
export default function CardImportList() {
  const { t } = useTranslation();
  const staff = STAFF_ROLE_TYPES.includes(Number(useSession((s) => s.roleId)));
  if (!staff) return <div className="lx-card"><Result status="403" subTitle={t('carddata.import.staffOnly')} /></div>;
  return <StaffImportList />;
}

function StaffImportList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const table = useSearchTable(carddata.getCardImportPage, { transform: importFilters });
  const [open, setOpen] = useState(false);
  const I = (k: string) => t(`carddata.import.${k}`);
  const detail = (batchId: string) => navigate(`/card/import-info/detail/${batchId}`);

  return (
    <>
      <SearchTable<BatchRow>
        table={table}
        title={I('title')}
        rowKey="batchId"
        emptyHint={I('emptyHint')}
        toolbar={<Button type="primary" icon={<UploadOutlined />} onClick={() => setOpen(true)} data-testid="card-import">{I('upload')}</Button>}
        fields={[
          { name: 'fileName', label: I('fileName') },
          { name: 'created', label: I('createdRange'), type: 'dateRange' },
          { name: 'withErrors', label: I('withErrors'), type: 'select', options: [{ value: 'yes', label: I('yes') }] },
        ]}
        columns={[
          {
            title: I('fileName'), dataIndex: 'fileName', width: 240, ellipsis: true,
            render: (v: string, r) => <Typography.Link onClick={() => detail(r.batchId)}>{v}</Typography.Link>,
          },
          { title: I('remark'), dataIndex: 'remark', width: 160, ellipsis: true, render: (v: string | null) => v ?? '-' },
          { title: I('totalRows'), dataIndex: 'totalRows', sorter: true, width: 100, align: 'right' },
          { title: I('successRows'), dataIndex: 'successRows', width: 100, align: 'right', render: (v: number) => <Tag color="success">{v}</Tag> },
          { title: I('failedRows'), dataIndex: 'failedRows', width: 100, align: 'right', render: (v: number) => <Tag color={v ? 'error' : 'default'}>{v}</Tag> },
          { title: I('fileSize'), dataIndex: 'fileSize', width: 100, render: (v: number) => formatSize(v) },
          { title: I('createdBy'), dataIndex: 'createdBy', width: 120 },
          { title: withZoneLabel(I('createdAt')), dataIndex: 'createdAt', sorter: true, width: 170, render: (v: string) => formatDateTime(v) },
          {
            title: t('common.actions'), key: 'actions', fixed: 'right', width: 90,
            render: (_: unknown, r) => <Button type="link" size="small" onClick={() => detail(r.batchId)}>{I('detail')}</Button>,
          },
        ]}
      />
      <ImportModal
        open={open}
        onClose={() => setOpen(false)}
        onDone={(b) => {
          setOpen(false);
          void qc.invalidateQueries({ queryKey: [carddata.getCardImportPage.name] });
          void qc.invalidateQueries({ queryKey: [carddata.getSimListPage.name] });
          if (b.failedRows > 0) detail(b.batchId);
        }}
      />
    </>
  );
}
