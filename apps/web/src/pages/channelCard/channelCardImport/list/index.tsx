import { useState } from 'react';
import { Typography } from 'antd';
import { ImportOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { Perm, channelcard, formatDateTime, formatSize, withZoneLabel, type ResponseOf } from '@lynx/contract';
import { SearchTable } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton } from '../../../../components/PermButton.tsx';
import { ChannelCardImportModal } from '../../shared.tsx';

type Batch = ResponseOf<typeof channelcard.getChannelCardImportPage>['list'][number];

/** /channelCard/channelCardImport/list/:salesorder? (16010000): channel card imports, by sales order; staff import (16010001). */
export default function ChannelCardImportList() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const salesOrder = useParams().salesorder;
  const T = (k: string, o?: Record<string, unknown>) => t(`channelcard.${k}`, o);
  const table = useSearchTable(channelcard.getChannelCardImportPage, { initialFilters: salesOrder ? { salesOrder } : {} });
  const [importing, setImporting] = useState(false);
  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 8px' }}>{T('import.intro')}</Typography.Paragraph>
      <SearchTable<Batch>
        table={table}
        title={T('import.title')}
        rowKey="batchId"
        emptyHint={T('import.empty')}
        toolbar={(
          <PermButton perm={Perm.ChannelCardImportAdd} type="primary" icon={<ImportOutlined />} onClick={() => setImporting(true)} data-testid="cc-import">
            {T('import.button')}
          </PermButton>
        )}
        fields={[{ name: 'salesOrder', label: T('salesOrder') }]}
        columns={[
          {
            title: T('salesOrder'), dataIndex: 'salesOrder', key: 'salesOrder', width: 160,
            render: (v: string) => <Link to={`/channelCard/channelCardImport/list/${encodeURIComponent(v)}`}>{v}</Link>,
          },
          { title: T('import.fileName'), dataIndex: 'fileName', key: 'fileName', width: 220, ellipsis: true, render: (v: string, r) => <span title={formatSize(r.fileSize)}>{v}</span> },
          { title: T('customer'), dataIndex: 'custName', key: 'custName', width: 200, ellipsis: true, render: (v: string | null) => v ?? T('stockCustomer') },
          { title: T('import.cardCount'), dataIndex: 'cardCount', key: 'cardCount', width: 90, align: 'right' },
          { title: T('import.remark'), dataIndex: 'remark', key: 'remark', width: 160, ellipsis: true, render: (v: string | null) => v ?? '-' },
          { title: T('import.createdBy'), dataIndex: 'createdBy', key: 'createdBy', width: 110 },
          { title: withZoneLabel(T('createdAt')), dataIndex: 'createdAt', key: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
        ]}
      />
      <ChannelCardImportModal
        open={importing} salesOrder={salesOrder} onClose={() => setImporting(false)}
        onDone={(b) => {
          setImporting(false);
          void qc.invalidateQueries({ queryKey: [channelcard.getChannelCardImportPage.name] });
          void qc.invalidateQueries({ queryKey: [channelcard.getChannelCardPage.name] });
          void qc.invalidateQueries({ queryKey: [channelcard.getChannelNames.name] });
          navigate(`/channelCard/channelCardImport/list/${encodeURIComponent(b.salesOrder)}`);
        }}
      />
    </>
  );
}
