import { useEffect, useRef, useState } from 'react';
import { Alert, App, Button, Col, Form, Input, Modal, Radio, Row, Space, Statistic, Steps, Tabs, Typography, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { batch, pathOf } from '@lynx/contract';
import { call, downloadFile, upload } from '../../../request/http.ts';
import { SearchTable } from '../../../components/SearchTable.tsx';
import { useSearchTable } from '../../../components/useSearchTable.ts';
import { OperationFields, paramsOf } from './OperationFields.tsx';
import { DowntimeFee, downtimeConfirmNote } from './DowntimeFee.tsx';
import { operationText, parseIccids, SCOPES, type BatchItemRow, type BatchScope, type BatchSummary } from './scope.ts';

const ACCEPT = ['.xlsx', '.csv'];
const extOf = (name: string) => name.slice(name.lastIndexOf('.')).toLowerCase();
type Source = 'selection' | 'filter' | 'file' | 'paste';

export interface NewBatchProps {
  open: boolean;
  onClose: () => void;
  scope: BatchScope;
  /** types the user may run in this scope */
  types: readonly number[];
  initialType?: number;
  /** ICCIDs ticked on the card list */
  selection?: string[];
  /** the card list's current filters */
  filters?: Record<string, unknown>;
  onConfirmed: (b: BatchSummary) => void;
  /** step 1 values set by the caller (e.g. the pool of a pool's page) */
  presets?: Record<string, unknown>;
  /** fields of step 1 the user cannot change (e.g. 'type', 'poolId') */
  locked?: readonly string[];
  title?: string;
}

export const downloadTemplate = (format: 'xlsx' | 'csv', lang: 'zh' | 'en') =>
  void downloadFile(pathOf(batch.downloadBatchTemplate), { format, templateLang: lang }).catch(() => undefined);

/** New batch: 1 the operation, 2 the cards (selection, filter, file or pasted ICCIDs), 3 the check and the confirmation. */
export function NewBatchModal({ open, onClose, scope, types, initialType, selection, filters, onConfirmed, presets, locked, title }: NewBatchProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm();
  const [step, setStep] = useState(0);
  const [source, setSource] = useState<Source>('paste');
  const [file, setFile] = useState<File | null>(null);
  const [paste, setPaste] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<BatchSummary | null>(null);
  const W = (k: string, o?: Record<string, unknown>) => t(`batch.wizard.${k}`, o);
  const type = Form.useWatch('type', form) as number | undefined;
  const max = type === batch.BatchType.DataRecovery ? batch.DATA_RECOVERY_MAX_CARDS : SCOPES[scope].max;

  // the cards and filters as they were when the flow opened (the list behind it may change meanwhile)
  const latest = useRef({ selection, filters, initialType, types, presets });
  latest.current = { selection, filters, initialType, types, presets };
  const [snap, setSnap] = useState<{ selection?: string[]; filters?: Record<string, unknown> }>({});
  useEffect(() => {
    if (!open) return;
    const p = latest.current;
    setSnap({ selection: p.selection?.length ? [...p.selection] : undefined, filters: p.filters });
    setStep(0);
    setResult(null);
    setError(null);
    setFile(null);
    setPaste('');
    setSource(p.selection?.length ? 'selection' : p.filters ? 'filter' : 'paste');
    form.resetFields();
    form.setFieldsValue({ type: p.initialType && p.types.includes(p.initialType) ? p.initialType : p.types[0], ...p.presets });
  }, [open, form]);

  const refresh = () => {
    void qc.invalidateQueries({ queryKey: [batch.getBatchPage.name] });
    void qc.invalidateQueries({ queryKey: [batch.getBatchDetail.name] });
  };

  const validate = async () => {
    const params = paramsOf(form.getFieldsValue(true));
    setError(null);
    if (source === 'file' && !file) return setError(t('common.uploadRequired'));
    const iccids = source === 'selection' ? (snap.selection ?? []) : source === 'paste' ? parseIccids(paste) : [];
    if ((source === 'selection' || source === 'paste') && !iccids.length) return setError(W('noCards'));
    setBusy(true);
    try {
      let r: BatchSummary | null;
      if (source === 'file') {
        r = await upload(batch.validateBatchFile, file!, { params: JSON.stringify(params) }, { silent: true });
      } else if (source === 'filter') {
        const { current: _c, pageSize: _p, sortField: _s, sortOrder: _o, ...f } = snap.filters ?? {};
        r = await call(batch.validateBatch, { params, sourceKind: 'filter', filters: f }, { silent: true });
      } else {
        r = await call(batch.validateBatch, { params, sourceKind: source, iccids }, { silent: true });
      }
      if (r) {
        setResult(r);
        setStep(2);
        refresh();
      }
    } catch (e) {
      if (e instanceof Error && e.message !== 'unauthorized') setError(e.message);
    } finally {
      setBusy(false);
    }
  };

  const confirm = () => {
    if (!result) return;
    const fee = downtimeConfirmNote(qc, result, t);
    modal.confirm({
      title: W('confirmTitle'),
      content: <>{W('confirmContent', { valid: result.validCount, operation: operationText(result, t) })}{fee && <div style={{ marginTop: 8 }}>{fee}</div>}</>,
      okText: W('confirm'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          const r = await call(batch.confirmBatch, { batchId: result.batchId });
          if (!r) return;
          message.success(W('confirmed'));
          refresh();
          onConfirmed(r);
        } catch {
          /* shown by the request layer */
        }
      },
    });
  };

  const discard = async () => {
    if (!result) return onClose();
    try {
      await call(batch.cancelBatch, { batchId: result.batchId });
      message.success(W('discarded'));
      refresh();
      onClose();
    } catch {
      /* shown by the request layer */
    }
  };

  const pasted = parseIccids(paste);
  const fileList: UploadFile[] = file ? [{ uid: 'file', name: file.name, size: file.size, status: 'done' }] : [];
  const footer =
    step === 0 ? [
      <Button key="cancel" onClick={onClose}>{t('common.cancel')}</Button>,
      <Button key="next" type="primary" data-testid="batch-next" onClick={() => void form.validateFields().then(() => setStep(1), () => undefined)}>{W('next')}</Button>,
    ] : step === 1 ? [
      <Button key="prev" onClick={() => setStep(0)} disabled={busy}>{W('prev')}</Button>,
      <Button key="validate" type="primary" loading={busy} onClick={() => void validate()} data-testid="batch-validate">{busy ? W('validating') : W('validate')}</Button>,
    ] : [
      <Button key="discard" danger onClick={() => void discard()}>{W('discard')}</Button>,
      <Button key="confirm" type="primary" disabled={!result?.validCount} onClick={confirm} data-testid="batch-confirm">{W('confirm')}</Button>,
    ];

  return (
    <Modal open={open} title={title ?? W('title')} width={step === 2 ? 1000 : 720} onCancel={() => !busy && onClose()} maskClosable={false} destroyOnHidden footer={footer}>
      <Steps current={step} size="small" style={{ marginBottom: 24 }} items={[{ title: W('step1') }, { title: W('step2') }, { title: W('step3') }]} />
      <Form form={form} layout="vertical" style={{ display: step === 0 ? undefined : 'none' }}>
        <OperationFields form={form} types={types} locked={locked} />
      </Form>
      {step === 1 && (
        <Space orientation="vertical" style={{ width: '100%' }} size={12}>
          <Radio.Group value={source} onChange={(e) => { setSource(e.target.value); setError(null); }} data-testid="batch-source">
            <Space orientation="vertical">
              {!!snap.selection?.length && <Radio value="selection">{W('sourceSelection', { n: snap.selection.length })}</Radio>}
              {snap.filters && <Radio value="filter">{W('sourceFilter')}</Radio>}
              <Radio value="file">{W('sourceFile')}</Radio>
              <Radio value="paste">{W('sourcePaste')}</Radio>
            </Space>
          </Radio.Group>
          {source === 'filter' && <Typography.Text type="secondary">{W('sourceFilterHint', { max })}</Typography.Text>}
          {source === 'file' && (
            <>
              <Space wrap>
                <Button icon={<DownloadOutlined />} onClick={() => downloadTemplate('xlsx', lang)}>{t('batch.templateXlsx')}</Button>
                <Button type="link" onClick={() => downloadTemplate('csv', lang)}>{t('batch.templateCsv')}</Button>
              </Space>
              <Upload.Dragger
                accept={ACCEPT.join(',')} maxCount={1} fileList={fileList} data-testid="batch-upload"
                beforeUpload={(f) => {
                  if (!ACCEPT.includes(extOf(f.name))) setError(W('fileType'));
                  else if (f.size > batch.BATCH_FILE_MAX_BYTES) setError(W('fileTooBig'));
                  else {
                    setError(null);
                    setFile(f);
                    return false;
                  }
                  setFile(null);
                  return false;
                }}
                onRemove={() => setFile(null)}
              >
                <p className="ant-upload-drag-icon"><InboxOutlined /></p>
                <p className="ant-upload-text">{W('dragHint')}</p>
                <p className="ant-upload-hint">{W('fileHint')}</p>
              </Upload.Dragger>
            </>
          )}
          {source === 'paste' && (
            <>
              <Input.TextArea value={paste} onChange={(e) => setPaste(e.target.value)} autoSize={{ minRows: 6, maxRows: 12 }}
                placeholder={W('pastePlaceholder')} data-testid="batch-paste" />
              <Typography.Text type={pasted.length > max ? 'danger' : 'secondary'}>{W('pasteCount', { n: pasted.length })} · {W('limit', { max })}</Typography.Text>
            </>
          )}
          {error && <Alert type="error" showIcon title={error} role="alert" />}
        </Space>
      )}
      {step === 2 && result && <CheckResult result={result} />}
    </Modal>
  );
}

/** Step 3: the counts and the rows that will not run, before anything changes. */
function CheckResult({ result }: { result: BatchSummary }) {
  const { t, i18n } = useTranslation();
  const W = (k: string) => t(`batch.wizard.${k}`);
  const C = (k: string) => t(`batch.col.${k}`);
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={16}>
      <Alert type="info" showIcon title={batch.POOL_BATCH_TYPES.includes(result.type) ? operationText(result, t) /* already says join / leave */ : `${batch.BatchType.label(result.type, i18n.language === 'en' ? 'en' : 'zh')} · ${operationText(result, t)}`} description={W('checkHint')} />
      <Row gutter={16}>
        <Col span={5}><Statistic title={C('total')} value={result.totalCount} /></Col>
        <Col span={5}><Statistic title={C('valid')} value={result.validCount} styles={{ content: { color: '#389e0d' } }} /></Col>
        <Col span={5}><Statistic title={C('invalid')} value={result.invalidCount} styles={{ content: { color: result.invalidCount ? '#cf1322' : undefined } }} /></Col>
        <Col span={5}><Statistic title={C('already')} value={result.alreadyCount} /></Col>
        <Col span={4}><Statistic title={C('duplicates')} value={result.duplicateCount} /></Col>
      </Row>
      {!result.validCount && <Alert type="warning" showIcon title={W('nothingValid')} />}
      {!!result.validCount && batch.isDeactivation(result) && <DowntimeFee batchId={result.batchId} framed="card" />}
      <Tabs
        items={[
          { key: 'invalid', label: `${W('invalidRows')} (${result.invalidCount})`, children: <Rows batchId={result.batchId} verdict={batch.BatchVerdict.Invalid} empty={W('noInvalid')} /> },
          { key: 'already', label: `${W('alreadyRows')} (${result.alreadyCount})`, children: <Rows batchId={result.batchId} verdict={batch.BatchVerdict.Already} empty={W('noAlready')} /> },
        ]}
      />
    </Space>
  );
}

function Rows({ batchId, verdict, empty }: { batchId: string; verdict: number; empty: string }) {
  const { t } = useTranslation();
  const table = useSearchTable(batch.getBatchItemPage, { fixed: { batchId, verdict }, pageSize: 10 });
  const C = (k: string) => t(`batch.col.${k}`);
  return (
    <SearchTable<BatchItemRow>
      table={table} rowKey="seq" exportSource={batch.getBatchItemPage} emptyHint={empty}
      columns={[
        { title: C('seq'), dataIndex: 'seq', width: 70, align: 'right' },
        { title: C('iccid'), dataIndex: 'iccid', width: 210 },
        { title: C('reason'), dataIndex: 'reason', render: (v: string | null) => v ?? '-' },
      ]}
    />
  );
}
