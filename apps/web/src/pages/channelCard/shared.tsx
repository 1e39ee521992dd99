import { useState } from 'react';
import { App, Button, Input, Modal, Space, Table, Typography, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ChannelCardState, ErrorCode, channelcard, formatSize, pathOf, type Lang, type ResponseOf } from '@lynx/contract';
import { LogicError, call, downloadFile, upload } from '../../request/http.ts';

export type ChannelCardRow = ResponseOf<typeof channelcard.getChannelCardPage>['list'][number];
export type ChannelCardBillRow = ResponseOf<typeof channelcard.getChannelCardBillPage>['list'][number];
type Batch = ResponseOf<typeof channelcard.importChannelCards>;
type RowError = { row: number; iccid: string | null; column: string; reason: string };

export const STATE_COLORS: Record<number, string> = { [ChannelCardState.InUse]: 'green', [ChannelCardState.Stopped]: 'default' };
const ACCEPT = ['.xlsx', '.csv'];
const extOf = (name: string) => name.slice(name.lastIndexOf('.')).toLowerCase();
const SALES_ORDER = new RegExp(channelcard.SALES_ORDER_PATTERN);

/** The channel names the viewer's channel cards use (for the filters and the bill generation). */
export function useChannelNames() {
  return useQuery({
    queryKey: [channelcard.getChannelNames.name],
    queryFn: ({ signal }) => call(channelcard.getChannelNames, {}, { signal, silent: true }),
  });
}

/** Upload of a channel card file under a sales order: templates, the file; a refused file lists its wrong rows (nothing was stored). */
export function ChannelCardImportModal({ open, onClose, onDone, salesOrder: initialOrder }: {
  open: boolean; onClose: () => void; onDone: (b: Batch) => void; salesOrder?: string;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [salesOrder, setSalesOrder] = useState(initialOrder ?? '');
  const [remark, setRemark] = useState('');
  const [busy, setBusy] = useState(false);
  const [orderError, setOrderError] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [rowErrors, setRowErrors] = useState<{ list: RowError[]; count: number } | null>(null);
  const I = (k: string, o?: Record<string, unknown>) => t(`channelcard.import.${k}`, o);
  const limits = { size: formatSize(channelcard.CHANNEL_CARD_IMPORT_MAX_BYTES), rows: channelcard.CHANNEL_CARD_IMPORT_MAX_ROWS };
  const template = (templateLang: Lang, format: 'xlsx' | 'csv') =>
    void downloadFile(pathOf(channelcard.downloadChannelCardTemplate), { templateLang, format }).catch(() => undefined);

  const reset = () => {
    setFile(null);
    setRemark('');
    setOrderError(null);
    setFileError(null);
    setRowErrors(null);
  };
  const close = () => {
    if (busy) return;
    reset();
    onClose();
  };
  const submit = async () => {
    const order = salesOrder.trim();
    const orderOk = SALES_ORDER.test(order);
    setOrderError(orderOk ? null : I('salesOrderInvalid'));
    if (!file) setFileError(t('common.uploadRequired'));
    if (!orderOk || !file) return;
    setBusy(true);
    setRowErrors(null);
    try {
      const r = await upload(channelcard.importChannelCards, file, { salesOrder: order, remark: remark.trim() || undefined }, { silent: true });
      if (!r) return;
      message.success(I('done', { count: r.cardCount }));
      reset();
      onDone(r);
    } catch (e) {
      if (e instanceof LogicError && e.errorCode === ErrorCode.ChannelCardImportInvalid) {
        const d = e.data as { errors: RowError[]; errorCount: number };
        setFileError(e.message);
        setRowErrors({ list: d.errors, count: d.errorCount });
      } else if (e instanceof Error && e.message !== 'unauthorized') setFileError(e.message);
    } finally {
      setBusy(false);
    }
  };

  const fileList: UploadFile[] = file ? [{ uid: 'file', name: file.name, size: file.size, status: 'done' }] : [];
  return (
    <Modal
      open={open} title={I('modalTitle')} width={760} onCancel={close} maskClosable={!busy} destroyOnHidden
      footer={[
        <Button key="cancel" onClick={close} disabled={busy}>{t('common.cancel')}</Button>,
        <Button key="ok" type="primary" loading={busy} onClick={() => void submit()} data-testid="cc-import-submit">{I('submit')}</Button>,
      ]}
    >
      <Typography.Title level={5}>1. {I('step1')}</Typography.Title>
      <Typography.Paragraph type="secondary">{I('step1Desc')}</Typography.Paragraph>
      <Space wrap style={{ marginBottom: 12 }}>
        <Button icon={<DownloadOutlined />} onClick={() => template('zh', 'xlsx')}>{I('templateZh')}</Button>
        <Button icon={<DownloadOutlined />} onClick={() => template('en', 'xlsx')}>{I('templateEn')}</Button>
        <Button type="link" onClick={() => template('zh', 'csv')}>{I('templateCsvZh')}</Button>
        <Button type="link" onClick={() => template('en', 'csv')}>{I('templateCsvEn')}</Button>
      </Space>
      <Typography.Title level={5}>2. {I('step2')}</Typography.Title>
      <Typography.Paragraph type="secondary">{I('step2Desc', limits)}</Typography.Paragraph>
      <Input
        value={salesOrder} maxLength={32} placeholder={`${t('channelcard.salesOrder')}: ${I('salesOrderHint')}`} aria-label={t('channelcard.salesOrder')}
        status={orderError ? 'error' : undefined} onChange={(e) => setSalesOrder(e.target.value)} data-testid="cc-import-order" style={{ marginBottom: 4 }}
      />
      {orderError && <Typography.Text type="danger" role="alert">{orderError}</Typography.Text>}
      <Upload.Dragger
        style={{ marginTop: 8 }} accept={ACCEPT.join(',')} maxCount={1} fileList={fileList}
        beforeUpload={(f) => {
          setRowErrors(null);
          if (!ACCEPT.includes(extOf(f.name))) {
            setFileError(I('fileTypeHint'));
            setFile(null);
          } else if (f.size > channelcard.CHANNEL_CARD_IMPORT_MAX_BYTES) {
            setFileError(I('step2Desc', limits));
            setFile(null);
          } else {
            setFileError(null);
            setFile(f);
          }
          return false;
        }}
        onRemove={() => setFile(null)}
        data-testid="cc-upload"
      >
        <p className="ant-upload-drag-icon"><InboxOutlined /></p>
        <p className="ant-upload-text">{I('dragHint')}</p>
        <p className="ant-upload-hint">{I('fileTypeHint')}</p>
      </Upload.Dragger>
      {fileError && <Typography.Text type="danger" role="alert" data-testid="cc-import-error">{fileError}</Typography.Text>}
      {rowErrors && (
        <Table<RowError>
          style={{ marginTop: 8 }} size="small" rowKey={(r) => `${r.row}/${r.column}`} dataSource={rowErrors.list} data-testid="cc-import-errors"
          title={() => I('errorsTitle', { count: rowErrors.count })} pagination={{ pageSize: 8, showSizeChanger: false }}
          columns={[
            { title: I('row'), dataIndex: 'row', key: 'row', width: 70 },
            { title: 'ICCID', dataIndex: 'iccid', key: 'iccid', render: (v: string | null) => v ?? '-' },
            { title: I('column'), dataIndex: 'column', key: 'column' },
            { title: I('reason'), dataIndex: 'reason', key: 'reason' },
          ]}
        />
      )}
      <Input style={{ marginTop: 12 }} value={remark} maxLength={64} showCount placeholder={I('remark')} onChange={(e) => setRemark(e.target.value)} aria-label={I('remark')} />
    </Modal>
  );
}
