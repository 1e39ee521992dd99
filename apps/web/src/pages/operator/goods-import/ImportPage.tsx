import { useRef, useState } from 'react';
import { Alert, App, Button, Space, Steps, Table, Typography, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { ErrorCode, formatSize, netconfig, pathOf, type Lang } from '@lynx/contract';
import { LogicError, downloadFile, upload } from '../../../request/http.ts';
import { useTabs } from '../../../stores/tabs.ts';

interface RowError {
  row: number;
  column: string;
  reason: string;
}
interface Refusal {
  message: string;
  errors: RowError[];
  total: number;
}

const ACCEPT = ['.xlsx', '.csv'];
const extOf = (name: string) => name.slice(name.lastIndexOf('.')).toLowerCase();

/** Uploads the operator's plan file; all rows or none, with every bad row listed when refused. */
export function ImportPage({ listPath }: { listPath: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const tabKey = useRef(useLocation().pathname).current;
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);

  const template = (templateLang: Lang, format: 'xlsx' | 'csv') =>
    void downloadFile(pathOf(netconfig.downloadOperatorGoodsTemplate), { templateLang, format }).catch(() => undefined);

  const leave = () => {
    useTabs.getState().close(tabKey);
    void navigate(listPath);
  };

  const submit = async () => {
    if (!file) {
      setFileError(t('common.uploadRequired'));
      return;
    }
    setBusy(true);
    setRefusal(null);
    try {
      const r = await upload(netconfig.importOperatorGoods, file, {}, { silent: true });
      if (!r) return;
      message.success(t('netconfig.import.success', { count: r.imported }));
      void qc.invalidateQueries({ queryKey: [netconfig.getOperatorGoodsList.name] });
      void qc.invalidateQueries({ queryKey: [netconfig.getOperatorPackageList.name] });
      leave();
    } catch (e) {
      if (e instanceof LogicError && e.errorCode === ErrorCode.OperatorGoodsImportInvalid) {
        const data = e.data as { errors: RowError[]; total: number };
        setRefusal({ message: e.message, errors: data.errors, total: data.total });
      } else if (e instanceof Error && e.message !== 'unauthorized') {
        setFileError(e.message);
      }
    } finally {
      setBusy(false);
    }
  };

  const fileList: UploadFile[] = file ? [{ uid: 'file', name: file.name, size: file.size, status: 'done' }] : [];

  return (
    <div className="lx-card">
      <Typography.Title level={5} style={{ marginTop: 0 }}>{t('netconfig.import.title')}</Typography.Title>
      <Steps
        orientation="vertical"
        current={file ? 1 : 0}
        items={[
          {
            title: t('netconfig.import.step1'),
            content: (
              <Space orientation="vertical" style={{ marginTop: 4 }}>
                <Typography.Text type="secondary">{t('netconfig.import.step1Desc')}</Typography.Text>
                <Space wrap>
                  <Button icon={<DownloadOutlined />} onClick={() => template('zh', 'xlsx')} data-testid="goods-template-zh">{t('netconfig.import.templateZh')}</Button>
                  <Button icon={<DownloadOutlined />} onClick={() => template('en', 'xlsx')} data-testid="goods-template-en">{t('netconfig.import.templateEn')}</Button>
                  <Button type="link" onClick={() => template('zh', 'csv')}>{t('netconfig.import.templateCsvZh')}</Button>
                  <Button type="link" onClick={() => template('en', 'csv')}>{t('netconfig.import.templateCsvEn')}</Button>
                </Space>
              </Space>
            ),
          },
          {
            title: t('netconfig.import.step2'),
            content: (
              <div style={{ marginTop: 4, maxWidth: 640 }}>
                <Typography.Paragraph type="secondary">
                  {t('netconfig.import.step2Desc', { size: formatSize(netconfig.IMPORT_MAX_BYTES), rows: netconfig.IMPORT_MAX_ROWS })}
                </Typography.Paragraph>
                <Upload.Dragger
                  accept={ACCEPT.join(',')}
                  maxCount={1}
                  fileList={fileList}
                  beforeUpload={(f) => {
                    setRefusal(null);
                    if (!ACCEPT.includes(extOf(f.name))) {
                      setFileError(t('netconfig.import.fileTypeHint'));
                      setFile(null);
                    } else if (f.size > netconfig.IMPORT_MAX_BYTES) {
                      setFileError(`${t('netconfig.import.step2Desc', { size: formatSize(netconfig.IMPORT_MAX_BYTES), rows: netconfig.IMPORT_MAX_ROWS })}`);
                      setFile(null);
                    } else {
                      setFileError(null);
                      setFile(f);
                    }
                    return false;
                  }}
                  onRemove={() => {
                    setFile(null);
                    setRefusal(null);
                  }}
                  data-testid="goods-upload"
                >
                  <p className="ant-upload-drag-icon"><InboxOutlined /></p>
                  <p className="ant-upload-text">{t('netconfig.import.dragHint')}</p>
                  <p className="ant-upload-hint">{t('netconfig.import.fileTypeHint')}</p>
                </Upload.Dragger>
                {fileError && <Typography.Text type="danger" role="alert" data-testid="goods-file-error">{fileError}</Typography.Text>}
              </div>
            ),
          },
        ]}
      />
      <Alert
        type="info"
        style={{ margin: '8px 0 16px', maxWidth: 880 }}
        title={t('netconfig.import.rules')}
        description={
          <ul className="lx-exact-units" style={{ margin: 0, paddingInlineStart: 18 }}>
            <li>{t('netconfig.import.rule1')}</li>
            <li>{t('netconfig.import.rule2')}</li>
            <li>{t('netconfig.import.rule3')}</li>
            <li>{t('netconfig.import.rule4')}</li>
          </ul>
        }
      />
      {refusal && (
        <div style={{ marginBottom: 16 }} data-testid="goods-import-errors">
          <Alert
            type="error" showIcon style={{ marginBottom: 8 }}
            title={t('netconfig.import.errorsTitle', { count: refusal.errors.length })}
            description={t('netconfig.import.errorsDesc', { total: refusal.total })}
          />
          <Table<RowError>
            size="small"
            rowKey={(r) => `${r.row}-${r.column}-${r.reason}`}
            dataSource={refusal.errors}
            pagination={refusal.errors.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
            columns={[
              { title: t('netconfig.import.row'), dataIndex: 'row', width: 90 },
              { title: t('netconfig.import.column'), dataIndex: 'column', width: 200 },
              { title: t('netconfig.import.reason'), dataIndex: 'reason' },
            ]}
          />
        </div>
      )}
      <Space>
        <Button type="primary" loading={busy} onClick={() => void submit()} data-testid="goods-import-submit">{t('netconfig.import.submit')}</Button>
        <Button onClick={leave}>{t('netconfig.import.backToList')}</Button>
      </Space>
    </div>
  );
}
