import { useState } from 'react';
import { Drawer, Table, Typography } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { dsim, formatDateTime, withZoneLabel, type ResponseOf } from '@lynx/contract';
import { call } from '../../../request/http.ts';

type Batch = ResponseOf<typeof dsim.getDsimImportPage>['list'][number];
const PAGE = 10;

/** The super SIM import batches (staff), each opening /card/import-info/dsimdetail/:batchId. */
export function DsimImportRecords({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const I = (k: string) => t(`dsim.import.${k}`);
  const [current, setCurrent] = useState(1);
  const q = useQuery({
    queryKey: [dsim.getDsimImportPage.name, current],
    queryFn: ({ signal }) => call(dsim.getDsimImportPage, { current, pageSize: PAGE }, { signal }),
    enabled: open,
    placeholderData: keepPreviousData,
  });
  return (
    <Drawer open={open} onClose={onClose} title={I('records')} size={920} destroyOnHidden>
      <Table<Batch>
        size="small" rowKey="batchId" loading={q.isFetching} dataSource={q.data?.list ?? []} scroll={{ x: 'max-content' }}
        locale={{ emptyText: I('empty') }}
        pagination={{ current, pageSize: PAGE, total: q.data?.total ?? 0, onChange: setCurrent, showSizeChanger: false }}
        columns={[
          {
            title: I('fileName'), dataIndex: 'fileName', key: 'fileName',
            render: (v: string, r) => <Link to={`/card/import-info/dsimdetail/${r.batchId}`} onClick={onClose}>{v}</Link>,
          },
          { title: I('remark'), dataIndex: 'remark', key: 'remark', render: (v: string | null) => v ?? '-' },
          { title: I('simCount'), dataIndex: 'simCount', key: 'simCount', align: 'right' },
          { title: I('cardCount'), dataIndex: 'cardCount', key: 'cardCount', align: 'right' },
          { title: I('createdBy'), dataIndex: 'createdBy', key: 'createdBy' },
          { title: withZoneLabel(I('createdAt')), dataIndex: 'createdAt', key: 'createdAt', render: (v: string) => <Typography.Text>{formatDateTime(v)}</Typography.Text> },
        ]}
      />
    </Drawer>
  );
}
