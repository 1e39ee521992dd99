import { formatCount } from '@lynx/contract';
import type { ReactNode } from 'react';
import { Button, Empty, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TableProps } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Endpoint } from '@lynx/contract';
import { SearchForm, type SearchField } from './SearchForm.tsx';
import type { SearchTableHandle } from './useSearchTable.ts';
import { ExportButton } from './ExportButton.tsx';
import { fitHeaderWidths, fitScrollX, headerTextMeasure } from './columnWidths.ts';
import { pickerToInstant } from './businessTime.ts';

export type { SearchField } from './SearchForm.tsx';

export interface SearchTableProps<Row> {
  table: SearchTableHandle;
  fields?: SearchField[];
  columns: ColumnsType<Row>;
  rowKey: string | ((row: Row) => string);
  title?: ReactNode;
  /** toolbar buttons (wrap in PermButton for permission codes) */
  toolbar?: ReactNode;
  /** the list endpoint, when the list can be exported */
  exportSource?: Endpoint;
  /** the list's own export endpoint (filters + format → a download task), instead of the generic one */
  exportVia?: Endpoint;
  emptyHint?: ReactNode;
  scrollX?: number;
  /** checkboxes on the rows (e.g. cards chosen for an allocation or a QR download) */
  rowSelection?: TableProps<Row>['rowSelection'];
  /** the list its "more filters" state is remembered for, when not the page's path */
  listKey?: string;
  /** row height (a long list, e.g. the card list, uses 'middle' to show ten rows on a laptop screen) */
  size?: TableProps<Row>['size'];
  /** a fixed row under the rows (e.g. a report's totals over every page) */
  summary?: TableProps<Row>['summary'];
}

/** A configured list page: search form, toolbar with export, table with paging and sorting. */
export function SearchTable<Row extends object>({ table, fields = [], columns, rowKey, title, toolbar, exportSource, exportVia, emptyHint, scrollX, rowSelection, listKey, size, summary }: SearchTableProps<Row>) {
  const { t } = useTranslation();
  // a header never squeezed onto two lines or cut: its column grows, the table scrolls sideways
  const fitted = fitHeaderWidths(columns, headerTextMeasure());
  return (
    <div className="lx-search-table">
      {fields.length > 0 && (
        <div className="lx-card">
          <SearchForm form={table.form} fields={fields} onFinish={table.search} onReset={table.reset} listKey={listKey} />
        </div>
      )}
      <div className="lx-card">
        <div style={{ display: 'flex', alignItems: 'center', marginBottom: 12, gap: 8, flexWrap: 'wrap' }}>
          <Typography.Title level={5} style={{ margin: 0 }}>{title}</Typography.Title>
          <Space style={{ marginLeft: 'auto' }} wrap>
            {toolbar}
            {(exportSource || exportVia) && <ExportButton source={exportSource} via={exportVia} filters={table.body} />}
            <Button icon={<ReloadOutlined />} onClick={() => void table.refresh()} aria-label={t('common.refresh')} />
          </Space>
        </div>
        <Table<Row>
          rowKey={rowKey}
          size={size}
          rowSelection={rowSelection}
          columns={fitted}
          dataSource={table.list as Row[]}
          loading={table.query.isFetching}
          onChange={table.onChange as never}
          summary={summary}
          scroll={{ x: fitScrollX(scrollX, columns, fitted) ?? 'max-content' }}
          pagination={{
            current: table.state.current,
            pageSize: table.state.pageSize,
            total: table.total,
            showSizeChanger: true,
            pageSizeOptions: [10, 20, 50, 100],
            showTotal: (total) => (table.totalCapped ? t('common.totalCapped', { total: formatCount(total) }) : t('common.total', { total })),
          }}
          locale={{ emptyText: <Empty description={<>{t('common.empty')}<br /><Typography.Text type="secondary">{emptyHint ?? t('common.emptyHint')}</Typography.Text></>} /> }}
        />
      </div>
    </div>
  );
}

/** Date range form value → startDate/endDate filters: the picked wall-clock times on the business clock. */
export function dateRange(values: Record<string, any>, field = 'range'): Record<string, unknown> {
  const { [field]: range, ...rest } = values;
  if (!range?.[0]) return rest;
  return { ...rest, startDate: pickerToInstant(range[0]), endDate: pickerToInstant(range[1]) };
}
