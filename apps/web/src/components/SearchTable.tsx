import type { ReactNode } from 'react';
import { Button, Col, DatePicker, Empty, Form, Input, InputNumber, Row, Select, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TableProps } from 'antd';
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Endpoint, EnumHelpers } from '@lynx/contract';
import type { SearchTableHandle } from './useSearchTable.ts';
import { ExportButton } from './ExportButton.tsx';

export type SearchField =
  | { name: string; label: string; type?: 'text'; placeholder?: string }
  | { name: string; label: string; type: 'number' }
  | { name: string; label: string; type: 'select'; options: { value: string | number; label: string }[] }
  | { name: string; label: string; type: 'enum'; enumOf: EnumHelpers<number> }
  | { name: string; label: string; type: 'dateRange' }
  /** any form control (e.g. the customer picker that searches the server) */
  | { name: string; label: string; type: 'custom'; control: ReactNode };

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
  emptyHint?: string;
  scrollX?: number;
  /** checkboxes on the rows (e.g. cards chosen for an allocation or a QR download) */
  rowSelection?: TableProps<Row>['rowSelection'];
}

/** A configured list page: search form, toolbar with export, table with paging and sorting. */
export function SearchTable<Row extends object>({ table, fields = [], columns, rowKey, title, toolbar, exportSource, exportVia, emptyHint, scrollX, rowSelection }: SearchTableProps<Row>) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const control = (f: SearchField) => {
    switch (f.type) {
      case 'number':
        return <InputNumber style={{ width: '100%' }} placeholder={f.label} />;
      case 'select':
        return <Select allowClear options={f.options} placeholder={t('common.all')} />;
      case 'enum':
        return <Select allowClear options={f.enumOf.options(lang)} placeholder={t('common.all')} />;
      case 'dateRange':
        return <DatePicker.RangePicker showTime style={{ width: '100%' }} />;
      case 'custom':
        return f.control;
      default:
        return <Input allowClear placeholder={'placeholder' in f && f.placeholder ? f.placeholder : f.label} />;
    }
  };
  return (
    <div className="lx-search-table">
      {fields.length > 0 && (
        <div className="lx-card">
          <Form form={table.form} layout="vertical" onFinish={table.search}>
            <Row gutter={16} align="bottom">
              {fields.map((f) => (
                <Col key={f.name} xs={24} sm={12} md={8} xl={6}>
                  <Form.Item name={f.name} label={f.label}>
                    {control(f)}
                  </Form.Item>
                </Col>
              ))}
              <Col flex="auto">
                <Form.Item>
                  <Space>
                    <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>{t('common.search')}</Button>
                    <Button onClick={table.reset}>{t('common.reset')}</Button>
                  </Space>
                </Form.Item>
              </Col>
            </Row>
          </Form>
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
          rowSelection={rowSelection}
          columns={columns}
          dataSource={table.list as Row[]}
          loading={table.query.isFetching}
          onChange={table.onChange as never}
          scroll={{ x: scrollX ?? 'max-content' }}
          pagination={{
            current: table.state.current,
            pageSize: table.state.pageSize,
            total: table.total,
            showSizeChanger: true,
            pageSizeOptions: [10, 20, 50, 100],
            showTotal: (total) => (table.totalCapped ? t('common.totalCapped', { total: total.toLocaleString() }) : t('common.total', { total })),
          }}
          locale={{ emptyText: <Empty description={<>{t('common.empty')}<br /><Typography.Text type="secondary">{emptyHint ?? t('common.emptyHint')}</Typography.Text></>} /> }}
        />
      </div>
    </div>
  );
}

/** Date range form value → startDate/endDate filters. */
export function dateRange(values: Record<string, any>, field = 'range'): Record<string, unknown> {
  const { [field]: range, ...rest } = values;
  if (!range?.[0]) return rest;
  return { ...rest, startDate: range[0].toISOString(), endDate: range[1].toISOString() };
}
