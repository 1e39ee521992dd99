import { useEffect, useState } from 'react';
import { Alert, Button, Checkbox, Col, DatePicker, Form, Input, Modal, Progress, Radio, Row, Select, Space, Table, Typography, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { ChannelBillSource, ChannelBillState, Operator, channelbill, formatCount, formatSize, pathOf, type Lang } from '@lynx/contract';
import { call, downloadFile, upload } from '../../../request/http.ts';
import { isBusy, progressPercent, type ChannelBillRow } from './shared.tsx';

const ACCEPT = ['.csv', '.xlsx'];
const extOf = (name: string) => name.slice(name.lastIndexOf('.')).toLowerCase();

interface Values { operatorId: number; period: Dayjs; sourceType: number; sourceName: string; findMissing: boolean; remark?: string }

/** What the import is doing now: the bill as the job left it, polled every second while it runs. */
function ImportProgress({ billId, onOpen, onChanged }: { billId: number; onOpen: (billId: number) => void; onChanged?: () => void }) {
  const { t } = useTranslation();
  const I = (k: string, o?: Record<string, unknown>) => t(`channelbill.import.${k}`, o);
  const q = useQuery({
    queryKey: [channelbill.getChannelBillDetail.name, billId, 'import'],
    queryFn: ({ signal }) => call(channelbill.getChannelBillDetail, { billId }, { signal }),
    refetchInterval: (s) => (s.state.data && !isBusy(s.state.data.bill) ? false : 1000),
  });
  const failed = q.data?.bill.state === ChannelBillState.Failed;
  const errors = useQuery({
    queryKey: [channelbill.getChannelBillErrors.name, billId],
    queryFn: ({ signal }) => call(channelbill.getChannelBillErrors, { billId, pageSize: 10 }, { signal }),
    enabled: failed,
  });
  const b = q.data?.bill;
  const settled = b ? !isBusy(b) : false;
  // the list behind the dialog shows the end at once, not at its next poll
  useEffect(() => {
    if (settled) onChanged?.();
  }, [settled]); // eslint-disable-line react-hooks/exhaustive-deps
  if (!b) return <Progress percent={0} status="active" />;
  const pct = progressPercent(b);
  const text = b.state === ChannelBillState.Reconciled ? I('reconciled', { matched: formatCount(b.matched), differs: formatCount(b.differs), missingOnPlatform: formatCount(b.missingOnPlatform), missingInChannel: formatCount(b.missingInChannel) })
    : b.state === ChannelBillState.Reconciling ? I('reconciling')
      : b.state === ChannelBillState.Importing ? (b.totalLines ? I('importing', { done: formatCount(b.linesDone), total: formatCount(b.totalLines) }) : I('reading'))
        : (b.failure ?? I('failed', { count: formatCount(b.errorCount) }));
  return (
    <div data-testid="channel-bill-import-progress">
      {pct !== null && isBusy(b) && <Progress percent={pct} status="active" />}
      <Alert type={failed ? 'error' : b.state === ChannelBillState.Reconciled ? 'success' : 'info'} title={text} showIcon style={{ marginTop: 8 }}
        description={isBusy(b) ? I('background') : undefined} data-testid="channel-bill-import-result" />
      {failed && (
        <Table size="small" style={{ marginTop: 12 }} rowKey={(r) => `${r.lineNo}-${r.column}`} pagination={false} loading={errors.isFetching}
          dataSource={errors.data?.list ?? []} data-testid="channel-bill-import-errors"
          columns={[
            { title: t('channelbill.detail.line'), dataIndex: 'lineNo', width: 80, render: (v: number) => (v === 0 ? t('channelbill.detail.fileLine') : v) },
            { title: 'ICCID', dataIndex: 'iccid', width: 190, render: (v: string | null) => v ?? '-' },
            { title: t('channelbill.detail.column'), dataIndex: 'column', width: 120 },
            { title: t('channelbill.detail.reason'), dataIndex: 'reason' },
          ]} />
      )}
      {!isBusy(b) && <Button type="link" style={{ paddingInline: 0, marginTop: 8 }} onClick={() => onOpen(b.billId)} data-testid="channel-bill-import-open">{t('channelbill.action.open')}</Button>}
    </div>
  );
}

/** The import: operator, period, issuer, the file; then the job's progress and, for a failed file, its errors. */
export function ImportModal({ open, onClose, onOpen, onStarted }: { open: boolean; onClose: () => void; onOpen: (billId: number) => void; /** the list's refresh: when the upload is accepted and when its job has finished */
  onStarted?: () => void }) {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'en' ? 'en' : 'zh';
  const [form] = Form.useForm<Values>();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [started, setStarted] = useState<ChannelBillRow | null>(null);
  const I = (k: string, o?: Record<string, unknown>) => t(`channelbill.import.${k}`, o);
  const limits = { size: formatSize(channelbill.CHANNEL_BILL_MAX_BYTES), lines: formatCount(channelbill.CHANNEL_BILL_MAX_LINES) };
  const template = (templateLang: Lang, format: 'xlsx' | 'csv') =>
    void downloadFile(pathOf(channelbill.downloadChannelBillTemplate), { templateLang, format }).catch(() => undefined);

  const close = () => {
    if (busy) return;
    setFile(null);
    setFileError(null);
    setStarted(null);
    form.resetFields();
    onClose();
  };
  const submit = async (v: Values) => {
    if (!file) {
      setFileError(t('common.uploadRequired'));
      return;
    }
    setBusy(true);
    try {
      const r = await upload(channelbill.importChannelBill, file, {
        operatorId: String(v.operatorId), periodKey: v.period.format('YYYY-MM'), sourceType: String(v.sourceType) as '1' | '2',
        sourceName: v.sourceName.trim(), findMissing: v.findMissing ? '1' : '0', remark: v.remark?.trim() || undefined,
      }, { silent: true });
      if (r) {
        setStarted(r);
        onStarted?.();
      }
    } catch (e) {
      if (e instanceof Error && e.message !== 'unauthorized') setFileError(e.message);
    } finally {
      setBusy(false);
    }
  };
  const fileList: UploadFile[] = file ? [{ uid: 'file', name: file.name, size: file.size, status: 'done' }] : [];

  return (
    <Modal open={open} title={I('title')} width={760} onCancel={close} maskClosable={!busy} destroyOnHidden
      footer={started ? [<Button key="close" onClick={close} data-testid="channel-bill-import-close">{t('common.close')}</Button>] : [
        <Button key="cancel" onClick={close} disabled={busy}>{t('common.cancel')}</Button>,
        <Button key="ok" type="primary" loading={busy} onClick={() => form.submit()} data-testid="channel-bill-import-submit">{busy ? I('uploading') : I('submit')}</Button>,
      ]}>
      {started ? <ImportProgress billId={started.billId} onChanged={onStarted} onOpen={(id) => { close(); onOpen(id); }} /> : (
        <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} initialValues={{ sourceType: ChannelBillSource.Operator, findMissing: true }} requiredMark>
          <Space wrap style={{ marginBottom: 12 }}>
            <Typography.Text type="secondary">{I('template')}:</Typography.Text>
            <Button size="small" icon={<DownloadOutlined />} onClick={() => template('zh', 'xlsx')}>{I('templateZh')}</Button>
            <Button size="small" icon={<DownloadOutlined />} onClick={() => template('en', 'xlsx')}>{I('templateEn')}</Button>
            <Button size="small" type="link" onClick={() => template('zh', 'csv')}>{I('templateCsvZh')}</Button>
            <Button size="small" type="link" onClick={() => template('en', 'csv')}>{I('templateCsvEn')}</Button>
          </Space>
          <Row gutter={16}>
            <Col xs={24} sm={8}>
              <Form.Item name="operatorId" label={I('operator')} rules={[{ required: true, message: I('required') }]}>
                <Select options={Operator.options(lang)} placeholder={I('operatorPlaceholder')} data-testid="channel-bill-operator" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={8}>
              <Form.Item name="period" label={I('period')} rules={[{ required: true, message: I('required') }]} tooltip={I('periodHelp')}>
                <DatePicker picker="month" style={{ width: '100%' }} placeholder={t('channelbill.list.pickMonth')} data-testid="channel-bill-period" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={8}>
              <Form.Item name="sourceType" label={I('sourceType')}>
                <Radio.Group options={ChannelBillSource.options(lang)} />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="sourceName" label={I('sourceName')} rules={[{ required: true, whitespace: true, message: I('required') }]}>
            <Input maxLength={channelbill.CHANNEL_BILL_SOURCE_NAME_MAX} placeholder={I('sourceNamePlaceholder')} data-testid="channel-bill-source" />
          </Form.Item>
          <Form.Item name="findMissing" valuePropName="checked" extra={I('findMissingHelp')} style={{ marginBottom: 12 }}>
            <Checkbox>{t('channelbill.f.findMissing')}</Checkbox>
          </Form.Item>
          <Upload.Dragger accept={ACCEPT.join(',')} maxCount={1} fileList={fileList} data-testid="channel-bill-upload" onRemove={() => setFile(null)}
            beforeUpload={(f) => {
              if (!ACCEPT.includes(extOf(f.name))) {
                setFileError(I('fileType'));
                setFile(null);
              } else if (f.size > channelbill.CHANNEL_BILL_MAX_BYTES) {
                setFileError(I('fileHint', limits));
                setFile(null);
              } else {
                setFileError(null);
                setFile(f);
              }
              return false;
            }}>
            <p className="ant-upload-drag-icon"><InboxOutlined /></p>
            <p className="ant-upload-text">{I('dragHint')}</p>
            <p className="ant-upload-hint">{I('fileHint', limits)}</p>
          </Upload.Dragger>
          {fileError && <Typography.Text type="danger" role="alert" data-testid="channel-bill-file-error">{fileError}</Typography.Text>}
          <Form.Item name="remark" label={I('remark')} style={{ marginTop: 12, marginBottom: 0 }}>
            <Input maxLength={channelbill.CHANNEL_BILL_REMARK_MAX} showCount />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
