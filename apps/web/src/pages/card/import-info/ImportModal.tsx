import { useState } from 'react';
import { Alert, App, Button, Input, Modal, Space, Steps, Typography, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { carddata, formatSize, pathOf, type Lang, type ResponseOf } from '@lynx/contract';
import { downloadFile, upload } from '../../../request/http.ts';

type Batch = ResponseOf<typeof carddata.importCards>;

const ACCEPT = ['.xlsx', '.csv'];
const extOf = (name: string) => name.slice(name.lastIndexOf('.')).toLowerCase();
const REMARK_MAX = 100;

/** Upload of a card file: template downloads, the file, an optional remark; calls onDone with the import. */
export function ImportModal({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: (b: Batch) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [remark, setRemark] = useState('');
  const [busy, setBusy] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const I = (k: string, o?: Record<string, unknown>) => t(`carddata.import.${k}`, o);
  const limits = { size: formatSize(carddata.CARD_IMPORT_MAX_BYTES), rows: carddata.CARD_IMPORT_MAX_ROWS };

  const template = (templateLang: Lang, format: 'xlsx' | 'csv') =>
    void downloadFile(pathOf(carddata.downloadCardImportTemplate), { templateLang, format }).catch(() => undefined);

  const close = () => {
    if (busy) return;
    setFile(null);
    setRemark('');
    setFileError(null);
    onClose();
  };

  const submit = async () => {
    if (!file) {
      setFileError(t('common.uploadRequired'));
      return;
    }
    setBusy(true);
    try {
      const r = await upload(carddata.importCards, file, { remark: remark.trim() }, { silent: true });
      if (!r) return;
      message.success(I('done', { success: r.successRows, failed: r.failedRows }));
      setFile(null);
      setRemark('');
      onDone(r);
    } catch (e) {
      if (e instanceof Error && e.message !== 'unauthorized') setFileError(e.message);
    } finally {
      setBusy(false);
    }
  };

  const fileList: UploadFile[] = file ? [{ uid: 'file', name: file.name, size: file.size, status: 'done' }] : [];
  return (
    <Modal
      open={open} title={I('modalTitle')} width={720} onCancel={close} maskClosable={!busy} destroyOnHidden
      footer={[
        <Button key="cancel" onClick={close} disabled={busy}>{t('common.cancel')}</Button>,
        <Button key="ok" type="primary" loading={busy} onClick={() => void submit()} data-testid="card-import-submit">{I('submit')}</Button>,
      ]}
    >
      <Steps
        orientation="vertical" current={file ? 1 : 0}
        items={[
          {
            title: I('step1'),
            content: (
              <Space orientation="vertical" style={{ marginTop: 4 }}>
                <Typography.Text type="secondary">{I('step1Desc')}</Typography.Text>
                <Space wrap>
                  <Button icon={<DownloadOutlined />} onClick={() => template('zh', 'xlsx')}>{I('templateZh')}</Button>
                  <Button icon={<DownloadOutlined />} onClick={() => template('en', 'xlsx')}>{I('templateEn')}</Button>
                  <Button type="link" onClick={() => template('zh', 'csv')}>{I('templateCsvZh')}</Button>
                  <Button type="link" onClick={() => template('en', 'csv')}>{I('templateCsvEn')}</Button>
                </Space>
              </Space>
            ),
          },
          {
            title: I('step2'),
            content: (
              <div style={{ marginTop: 4 }}>
                <Typography.Paragraph type="secondary">{I('step2Desc', limits)}</Typography.Paragraph>
                <Upload.Dragger
                  accept={ACCEPT.join(',')} maxCount={1} fileList={fileList}
                  beforeUpload={(f) => {
                    if (!ACCEPT.includes(extOf(f.name))) {
                      setFileError(I('fileTypeHint'));
                      setFile(null);
                    } else if (f.size > carddata.CARD_IMPORT_MAX_BYTES) {
                      setFileError(I('step2Desc', limits));
                      setFile(null);
                    } else {
                      setFileError(null);
                      setFile(f);
                    }
                    return false;
                  }}
                  onRemove={() => setFile(null)}
                  data-testid="card-upload"
                >
                  <p className="ant-upload-drag-icon"><InboxOutlined /></p>
                  <p className="ant-upload-text">{I('dragHint')}</p>
                  <p className="ant-upload-hint">{I('fileTypeHint')}</p>
                </Upload.Dragger>
                {fileError && <Typography.Text type="danger" role="alert">{fileError}</Typography.Text>}
                <Input
                  style={{ marginTop: 12 }} value={remark} maxLength={REMARK_MAX} showCount placeholder={`${I('remark')}: ${I('remarkHint')}`}
                  onChange={(e) => setRemark(e.target.value)} aria-label={I('remark')}
                />
              </div>
            ),
          },
        ]}
      />
      <Alert
        type="info" style={{ marginTop: 8 }} title={I('rules')}
        description={
          <ul style={{ margin: 0, paddingInlineStart: 18 }}>
            <li>{I('rule1')}</li>
            <li>{I('rule2')}</li>
            <li>{I('rule3')}</li>
            <li>{I('rule4')}</li>
          </ul>
        }
      />
    </Modal>
  );
}
