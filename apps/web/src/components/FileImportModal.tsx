import { useState, type ReactNode } from 'react';
import { Alert, App, Button, Input, Modal, Space, Steps, Table, Typography, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatSize, type Lang } from '@lynx/contract';
import { LogicError, downloadFile } from '../request/http.ts';

const ACCEPT = ['.xlsx', '.csv'];
const extOf = (name: string) => name.slice(name.lastIndexOf('.')).toLowerCase();

/** One wrong row of a refused file, as the server lists it: the row's identifying cell under `idKey`. */
type RowError = { row: number; column: string; reason: string } & Record<string, unknown>;

export interface FileImportModalProps<B> {
  open: boolean;
  onClose: () => void;
  onDone: (b: B) => void;
  /** the locale keys' prefix: `${ns}.modalTitle`, `.step1`, `.templateZh`, `.dragHint`, `.remark`, `.done` … */
  ns: string;
  /** test ids: `${testId}-upload`, `${testId}-import-submit`, `${testId}-import-error`, `${testId}-import-errors` */
  testId: string;
  width: number;
  /** the template download's path (GET, with templateLang and format) */
  templatePath: string;
  maxBytes: number;
  maxRows: number;
  /** sends the file with the trimmed remark; the import made, or nothing (the session ended) */
  send: (file: File, remark: string) => Promise<B | undefined>;
  /** the values of the `${ns}.done` message */
  doneValues: (b: B) => Record<string, unknown>;
  /** steps: numbered antd Steps; headings: numbered titles */
  layout?: 'steps' | 'headings';
  remarkMax: number;
  /** the remark's placeholder (default: the `${ns}.remark` text) */
  remarkPlaceholder?: string;
  /** how many rules (`${ns}.rule1` …) the info box below lists; none: no box */
  rules?: number;
  /** the all-or-nothing refusal whose data lists the wrong rows, and the title and field of the rows' identifying cell */
  rowErrors?: { code: number; idTitle: string; idKey: string };
  /** fields of the caller's own shown above the file (a sales order, say) */
  extra?: ReactNode;
  /** the caller's own checks at submit, run before the file's; false stops the submit */
  validate?: () => boolean;
  /** called when the dialog clears (closed, or an import made) */
  onReset?: () => void;
}

/**
 * Upload of an import file: template downloads in both languages and formats, the file (xlsx or csv, size-checked),
 * a remark; a refused all-or-nothing file lists its wrong rows (nothing was stored).
 */
export function FileImportModal<B>(p: FileImportModalProps<B>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [remark, setRemark] = useState('');
  const [busy, setBusy] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const [rowErrors, setRowErrors] = useState<{ list: RowError[]; count: number } | null>(null);
  const I = (k: string, o?: Record<string, unknown>) => t(`${p.ns}.${k}`, o);
  const limits = { size: formatSize(p.maxBytes), rows: p.maxRows };
  const template = (templateLang: Lang, format: 'xlsx' | 'csv') => void downloadFile(p.templatePath, { templateLang, format }).catch(() => undefined);

  const reset = () => {
    setFile(null);
    setRemark('');
    setFileError(null);
    setRowErrors(null);
    p.onReset?.();
  };
  const close = () => {
    if (busy) return;
    reset();
    p.onClose();
  };
  const submit = async () => {
    const ok = p.validate ? p.validate() : true;
    if (!file) setFileError(t('common.uploadRequired'));
    if (!ok || !file) return;
    setBusy(true);
    setRowErrors(null);
    try {
      const r = await p.send(file, remark.trim());
      if (!r) return;
      message.success(I('done', p.doneValues(r)));
      reset();
      p.onDone(r);
    } catch (e) {
      if (p.rowErrors && e instanceof LogicError && e.errorCode === p.rowErrors.code) {
        const d = e.data as { errors: RowError[]; errorCount: number };
        setFileError(e.message);
        setRowErrors({ list: d.errors, count: d.errorCount });
      } else if (e instanceof Error && e.message !== 'unauthorized') setFileError(e.message);
    } finally {
      setBusy(false);
    }
  };

  const fileList: UploadFile[] = file ? [{ uid: 'file', name: file.name, size: file.size, status: 'done' }] : [];
  const templates = (
    <Space wrap style={p.layout === 'steps' ? undefined : { marginBottom: 12 }}>
      <Button icon={<DownloadOutlined />} onClick={() => template('zh', 'xlsx')}>{I('templateZh')}</Button>
      <Button icon={<DownloadOutlined />} onClick={() => template('en', 'xlsx')}>{I('templateEn')}</Button>
      <Button type="link" onClick={() => template('zh', 'csv')}>{I('templateCsvZh')}</Button>
      <Button type="link" onClick={() => template('en', 'csv')}>{I('templateCsvEn')}</Button>
    </Space>
  );
  const upload = (
    <>
      <Typography.Paragraph type="secondary">{I('step2Desc', limits)}</Typography.Paragraph>
      {p.extra}
      <Upload.Dragger
        style={p.extra ? { marginTop: 8 } : undefined} accept={ACCEPT.join(',')} maxCount={1} fileList={fileList}
        beforeUpload={(f) => {
          setRowErrors(null);
          if (!ACCEPT.includes(extOf(f.name))) {
            setFileError(I('fileTypeHint'));
            setFile(null);
          } else if (f.size > p.maxBytes) {
            setFileError(I('step2Desc', limits));
            setFile(null);
          } else {
            setFileError(null);
            setFile(f);
          }
          return false;
        }}
        onRemove={() => setFile(null)}
        data-testid={`${p.testId}-upload`}
      >
        <p className="ant-upload-drag-icon"><InboxOutlined /></p>
        <p className="ant-upload-text">{I('dragHint')}</p>
        <p className="ant-upload-hint">{I('fileTypeHint')}</p>
      </Upload.Dragger>
      {fileError && <Typography.Text type="danger" role="alert" data-testid={`${p.testId}-import-error`}>{fileError}</Typography.Text>}
      {rowErrors && p.rowErrors && (
        <Table<RowError>
          style={{ marginTop: 8 }} size="small" rowKey={(r) => `${r.row}/${r.column}`} dataSource={rowErrors.list} data-testid={`${p.testId}-import-errors`}
          title={() => I('errorsTitle', { count: rowErrors.count })} pagination={{ pageSize: 8, showSizeChanger: false }}
          columns={[
            { title: I('row'), dataIndex: 'row', key: 'row', width: 70 },
            { title: p.rowErrors.idTitle, dataIndex: p.rowErrors.idKey, key: p.rowErrors.idKey, render: (v: string | null) => v ?? '-' },
            { title: I('column'), dataIndex: 'column', key: 'column' },
            { title: I('reason'), dataIndex: 'reason', key: 'reason' },
          ]}
        />
      )}
      <Input
        style={{ marginTop: 12 }} value={remark} maxLength={p.remarkMax} showCount placeholder={p.remarkPlaceholder ?? I('remark')}
        onChange={(e) => setRemark(e.target.value)} aria-label={I('remark')}
      />
    </>
  );

  return (
    <Modal
      open={p.open} title={I('modalTitle')} width={p.width} onCancel={close} maskClosable={!busy} destroyOnHidden
      footer={[
        <Button key="cancel" onClick={close} disabled={busy}>{t('common.cancel')}</Button>,
        <Button key="ok" type="primary" loading={busy} onClick={() => void submit()} data-testid={`${p.testId}-import-submit`}>{I('submit')}</Button>,
      ]}
    >
      {p.layout === 'steps' ? (
        <Steps
          orientation="vertical" current={file ? 1 : 0}
          items={[
            {
              title: I('step1'),
              content: (
                <Space orientation="vertical" style={{ marginTop: 4 }}>
                  <Typography.Text type="secondary">{I('step1Desc')}</Typography.Text>
                  {templates}
                </Space>
              ),
            },
            { title: I('step2'), content: <div style={{ marginTop: 4 }}>{upload}</div> },
          ]}
        />
      ) : (
        <>
          <Typography.Title level={5}>1. {I('step1')}</Typography.Title>
          <Typography.Paragraph type="secondary">{I('step1Desc')}</Typography.Paragraph>
          {templates}
          <Typography.Title level={5}>2. {I('step2')}</Typography.Title>
          {upload}
        </>
      )}
      {!!p.rules && (
        <Alert
          type="info" style={{ marginTop: 8 }} title={I('rules')}
          description={<ul style={{ margin: 0, paddingInlineStart: 18 }}>{Array.from({ length: p.rules }, (_, i) => <li key={i}>{I(`rule${i + 1}`)}</li>)}</ul>}
        />
      )}
    </Modal>
  );
}
