import { useState } from 'react';
import { Alert, App, Button, Input, Modal, Space, Table, Typography, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ErrorCode, dsim, formatSize, pathOf, type Lang, type ResponseOf } from '@lynx/contract';
import { LogicError, downloadFile, upload } from '../../../request/http.ts';

type Batch = ResponseOf<typeof dsim.importDsims>;
type RowError = { row: number; sn: string | null; column: string; reason: string };

const ACCEPT = ['.xlsx', '.csv'];
const extOf = (name: string) => name.slice(name.lastIndexOf('.')).toLowerCase();

/** Upload of a super SIM file: templates, the file, a remark; a refused file lists its wrong rows (nothing was stored). */
export function DsimImportModal({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: (b: Batch) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [remark, setRemark] = useState('');
  const [busy, setBusy] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const [rowErrors, setRowErrors] = useState<{ list: RowError[]; count: number } | null>(null);
  const I = (k: string, o?: Record<string, unknown>) => t(`dsim.import.${k}`, o);
  const limits = { size: formatSize(dsim.DSIM_IMPORT_MAX_BYTES), rows: dsim.DSIM_IMPORT_MAX_ROWS };
  const template = (templateLang: Lang, format: 'xlsx' | 'csv') =>
    void downloadFile(pathOf(dsim.downloadDsimImportTemplate), { templateLang, format }).catch(() => undefined);

  const reset = () => {
    setFile(null);
    setRemark('');
    setFileError(null);
    setRowErrors(null);
  };
  const close = () => {
    if (busy) return;
    reset();
    onClose();
  };
  const submit = async () => {
    if (!file) {
      setFileError(t('common.uploadRequired'));
      return;
    }
    setBusy(true);
    setRowErrors(null);
    try {
      const r = await upload(dsim.importDsims, file, { remark: remark.trim() || undefined }, { silent: true });
      if (!r) return;
      message.success(I('done', { sims: r.simCount, cards: r.cardCount }));
      reset();
      onDone(r);
    } catch (e) {
      if (e instanceof LogicError && e.errorCode === ErrorCode.DsimImportInvalid) {
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
        <Button key="ok" type="primary" loading={busy} onClick={() => void submit()} data-testid="dsim-import-submit">{I('submit')}</Button>,
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
      <Upload.Dragger
        accept={ACCEPT.join(',')} maxCount={1} fileList={fileList}
        beforeUpload={(f) => {
          setRowErrors(null);
          if (!ACCEPT.includes(extOf(f.name))) {
            setFileError(I('fileTypeHint'));
            setFile(null);
          } else if (f.size > dsim.DSIM_IMPORT_MAX_BYTES) {
            setFileError(I('step2Desc', limits));
            setFile(null);
          } else {
            setFileError(null);
            setFile(f);
          }
          return false;
        }}
        onRemove={() => setFile(null)}
        data-testid="dsim-upload"
      >
        <p className="ant-upload-drag-icon"><InboxOutlined /></p>
        <p className="ant-upload-text">{I('dragHint')}</p>
        <p className="ant-upload-hint">{I('fileTypeHint')}</p>
      </Upload.Dragger>
      {fileError && <Typography.Text type="danger" role="alert">{fileError}</Typography.Text>}
      {rowErrors && (
        <Table<RowError>
          style={{ marginTop: 8 }} size="small" rowKey={(r) => `${r.row}/${r.column}`} dataSource={rowErrors.list} data-testid="dsim-import-errors"
          title={() => I('errorsTitle', { count: rowErrors.count })} pagination={{ pageSize: 8, showSizeChanger: false }}
          columns={[
            { title: I('row'), dataIndex: 'row', key: 'row', width: 70 },
            { title: 'SN', dataIndex: 'sn', key: 'sn', render: (v: string | null) => v ?? '-' },
            { title: I('column'), dataIndex: 'column', key: 'column' },
            { title: I('reason'), dataIndex: 'reason', key: 'reason' },
          ]}
        />
      )}
      <Input style={{ marginTop: 12 }} value={remark} maxLength={64} showCount placeholder={I('remark')} onChange={(e) => setRemark(e.target.value)} aria-label={I('remark')} />
      <Alert
        type="info" style={{ marginTop: 8 }} title={I('rules')}
        description={<ul style={{ margin: 0, paddingInlineStart: 18 }}><li>{I('rule1')}</li><li>{I('rule2')}</li><li>{I('rule3')}</li></ul>}
      />
    </Modal>
  );
}
