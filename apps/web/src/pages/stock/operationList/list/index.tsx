import { useState } from 'react';
import { Segmented, Space, Typography } from 'antd';
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { formatCount, formatDateTime, StockBatchState, StockOpType, stock, type Lang } from '@lynx/contract';
import { SearchTable, type SearchField } from '../../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../../components/useSearchTable.ts';
import { PermButton } from '../../../../components/PermButton.tsx';
import { StatusTag } from '../../../../components/StatusTag.tsx';
import { OpModal } from '../OpModal.tsx';
import { FileInModal, type Validated } from '../FileInModal.tsx';
import { OpProgress, POLL_MS, STATE_COLORS, TYPE_PARAM, type StockOpRow } from '../shared.tsx';

/** /stock/operationList/list/:param? (11030000): the stock operations, by type (:param in | match | out | scrap). */
export default function StockOpList() {
  const { t, i18n } = useTranslation();
  const lang = (i18n.language === 'zh' ? 'zh' : 'en') as Lang;
  const T = (k: string, o?: Record<string, unknown>) => t(`stock.${k}`, o);
  const navigate = useNavigate();
  const { param } = useParams();
  const type = param ? TYPE_PARAM[param] : undefined;
  const [open, setOpen] = useState(false);
  const [fileOpen, setFileOpen] = useState(false);
  const [fromFile, setFromFile] = useState<Validated | null>(null);
  const table = useSearchTable(stock.getStockOpPage, {
    fixed: type ? { type } : {},
    refetchInterval: (d) => (d?.list.some((b) => b.state === StockBatchState.Running) ? POLL_MS : false),
  });
  const fields: SearchField[] = [{ name: 'state', label: T('opState'), type: 'enum', enumOf: StockBatchState }];
  const tabs = [{ value: 'all', label: T('allTypes') }, ...Object.entries(TYPE_PARAM).map(([k, v]) => ({ value: k, label: StockOpType.label(v, lang) }))];

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 8px' }}>{T('opIntro', { max: formatCount(stock.STOCK_BATCH_MAX) })}</Typography.Paragraph>
      <Segmented style={{ marginBottom: 12 }} value={param && TYPE_PARAM[param] ? param : 'all'} options={tabs}
        onChange={(k) => navigate(k === 'all' ? '/stock/operationList/list' : `/stock/operationList/list/${k}`)} />
      <SearchTable<StockOpRow>
        table={table}
        title={T('opListTitle')}
        rowKey="batchId"
        fields={fields}
        toolbar={(
          <Space>
            <PermButton perm={stock.StockPerm.Operations} type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)} data-testid="stock-op-new">{T('newOp')}</PermButton>
            {(!type || type === StockOpType.In) && (
              <PermButton perm={stock.StockPerm.Operations} icon={<UploadOutlined />} onClick={() => setFileOpen(true)} data-testid="stock-in-file">{T('inFile')}</PermButton>
            )}
          </Space>
        )}
        columns={[
          { title: T('opType'), dataIndex: 'type', key: 'type', width: 100, render: (v: number) => StockOpType.label(v, lang) },
          { title: T('opState'), dataIndex: 'state', key: 'state', width: 100, render: (v: number) => <StatusTag enumOf={StockBatchState} value={v} colors={STATE_COLORS} /> },
          { title: T('counts'), key: 'counts', width: 170, render: (_: unknown, b) => `${b.total} / ${b.valid} / ${b.invalid}` },
          { title: T('progress'), key: 'progress', width: 170, render: (_: unknown, b) => <OpProgress b={b} /> },
          { title: T('succeeded'), dataIndex: 'succeeded', key: 'succeeded', width: 90, align: 'right' },
          { title: T('failed'), dataIndex: 'failed', key: 'failed', width: 90, align: 'right' },
          { title: T('createdBy'), dataIndex: 'createdBy', key: 'createdBy', width: 110 },
          { title: T('createdAt'), dataIndex: 'createdAt', key: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
          { title: T('finishedAt'), dataIndex: 'finishedAt', key: 'finishedAt', width: 170, render: (v: string | null) => (v ? formatDateTime(v) : '-') },
          {
            title: t('common.actions'), key: 'action', fixed: 'right', width: 100,
            render: (_: unknown, b) => <Link to={`/stock/operationList/detail/${b.batchId}`} data-testid="stock-op-detail-link">{T('viewDetail')}</Link>,
          },
        ]}
      />
      <OpModal open={open} type={type} onClose={() => setOpen(false)} onStarted={(id) => { setOpen(false); navigate(`/stock/operationList/detail/${id}`); }} />
      <FileInModal open={fileOpen} onClose={() => setFileOpen(false)} onDone={(v) => { setFileOpen(false); setFromFile(v); }} />
      <OpModal
        open={!!fromFile} type={StockOpType.In} validated={fromFile} onClose={() => { setFromFile(null); void table.refresh(); }}
        onStarted={(id) => { setFromFile(null); navigate(`/stock/operationList/detail/${id}`); }}
      />
    </>
  );
}
