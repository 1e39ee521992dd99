import { useState } from 'react';
import { Alert, App, Button, Form, Input, List, Modal, Select, Typography, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EuiccAction, euicc, type ResponseOf } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { useSession } from '../../../stores/session.ts';
import { IMPORT_TEMPLATE, iccidLines, parseImport, parsePairs, useLang } from './shared.tsx';

const MAX = euicc.EUICC_BATCH_MAX;
type Props = { open: boolean; onClose: () => void; onDone: () => void };
const EID_RE = new RegExp(euicc.EID_PATTERN);
const ICCID_RE = new RegExp(euicc.PROFILE_ICCID_PATTERN);

function downloadText(name: string, text: string) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** Import eUICCs and profiles from a CSV file (all rows or none); staff choose the customer. */
export function ImportModal({ open, onClose, onDone }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const staff = useSession((s) => s.custId == null);
  const [rows, setRows] = useState<ReturnType<typeof parseImport> | null>(null);
  const [custId, setCustId] = useState<number | undefined>();
  const [busy, setBusy] = useState(false);
  const customers = useQuery({
    queryKey: [euicc.euiccCustomers.name], enabled: open && staff,
    queryFn: ({ signal }) => call(euicc.euiccCustomers, {}, { signal, silent: true }),
  });
  const close = () => { setRows(null); onClose(); };
  const submit = async () => {
    if (!rows?.length) return void message.warning(t('euicc.importNoRows'));
    if (rows.length > MAX) return void message.error(t('euicc.tooMany', { count: rows.length, max: MAX }));
    if (staff && !custId) return void message.warning(`${t('euicc.importCustomer')}: ${t('common.required')}`);
    setBusy(true);
    try {
      const r = await call(euicc.batchInsert, { rows, ...(staff && custId ? { custId } : {}) });
      message.success(t('euicc.imported', r));
      onDone();
      close();
    } catch { /* shown by the request layer */ } finally { setBusy(false); }
  };
  return (
    <Modal open={open} title={t('euicc.importTitle')} onCancel={close} onOk={() => void submit()} confirmLoading={busy} destroyOnHidden
      okButtonProps={{ disabled: !rows?.length, 'data-testid': 'euicc-import-ok' } as never}>
      <Typography.Paragraph type="secondary">{t('euicc.importHelp', { max: MAX })}</Typography.Paragraph>
      {staff && (
        <Form.Item label={t('euicc.importCustomer')} required>
          <Select value={custId} onChange={setCustId} showSearch optionFilterProp="label" data-testid="euicc-import-customer"
            options={(customers.data ?? []).map((c) => ({ value: c.custId, label: c.name }))} placeholder={t('common.required')} />
        </Form.Item>
      )}
      <Upload accept=".csv,.txt" maxCount={1} showUploadList={false}
        beforeUpload={(file) => { void file.text().then((text) => setRows(parseImport(text))); return false; }}>
        <Button icon={<UploadOutlined />} data-testid="euicc-import-file">{t('euicc.importFile')}</Button>
      </Upload>
      <Button type="link" onClick={() => downloadText('euicc-template.csv', IMPORT_TEMPLATE)}>{t('euicc.template')}</Button>
      {rows && (
        <Alert style={{ marginTop: 12 }} type={rows.length ? 'info' : 'warning'} showIcon data-testid="euicc-import-count"
          title={rows.length ? t('euicc.importRows', { count: rows.length }) : t('euicc.importNoRows')} />
      )}
    </Modal>
  );
}

/** Assign one EID to one unbound profile. */
export function AssignModal({ open, onClose, onDone }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ iccid: string; eid: string }>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setBusy(true);
    try {
      await call(euicc.assignEid, { iccid: v.iccid.trim(), eid: v.eid.trim() });
      message.success(t('euicc.assigned', { count: 1 }));
      form.resetFields();
      onDone();
      onClose();
    } catch { /* shown by the request layer */ } finally { setBusy(false); }
  };
  return (
    <Modal open={open} title={t('euicc.assignTitle')} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} destroyOnHidden forceRender
      okButtonProps={{ 'data-testid': 'euicc-assign-ok' } as never}>
      <Typography.Paragraph type="secondary">{t('euicc.assignHelp')}</Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item name="iccid" label={t('euicc.iccid')} rules={[{ required: true, message: t('common.required') }, { pattern: ICCID_RE, message: t('euicc.iccidRule') }]}>
          <Input maxLength={20} data-testid="euicc-assign-iccid" />
        </Form.Item>
        <Form.Item name="eid" label="EID" rules={[{ required: true, message: t('common.required') }, { pattern: EID_RE, message: t('euicc.eidRule') }]}>
          <Input maxLength={32} data-testid="euicc-assign-eid" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Batch assignment from "ICCID,EID" lines: all or nothing. */
export function BatchAssignModal({ open, onClose, onDone }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const pairs = parsePairs(text);
  const submit = async () => {
    if (!pairs || !pairs.length) return void message.warning(t('euicc.batchAssignRule'));
    if (pairs.length > MAX) return void message.error(t('euicc.tooMany', { count: pairs.length, max: MAX }));
    setBusy(true);
    try {
      const r = await call(euicc.batchAssignEid, { pairs });
      message.success(t('euicc.assigned', { count: r.assigned }));
      setText('');
      onDone();
      onClose();
    } catch { /* shown by the request layer */ } finally { setBusy(false); }
  };
  return (
    <Modal open={open} title={t('euicc.batchAssignTitle')} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('euicc.batchAssignHelp', { max: MAX })}</Typography.Paragraph>
      <Input.TextArea rows={8} value={text} onChange={(e) => setText(e.target.value)} data-testid="euicc-batch-assign-text" />
      <Typography.Text type={pairs === null ? 'danger' : 'secondary'}>
        {pairs === null ? t('euicc.batchAssignRule') : t('euicc.lines', { count: pairs.length })}
      </Typography.Text>
    </Modal>
  );
}

type Checked = ResponseOf<typeof euicc.checkProfiles>;

/** Batch state change: check first (what can change, what cannot and why), then run it for the ones that can. */
export function StateModal({ open, onClose, onDone }: Props) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message, modal } = App.useApp();
  const [text, setText] = useState('');
  const [action, setAction] = useState<number>(EuiccAction.Download);
  const [checked, setChecked] = useState<Checked | null>(null);
  const [busy, setBusy] = useState(false);
  const iccids = iccidLines(text);
  const check = async () => {
    if (!iccids.length) return void message.warning(t('common.required'));
    if (iccids.length > MAX) return void message.error(t('euicc.tooMany', { count: iccids.length, max: MAX }));
    setBusy(true);
    try { setChecked(await call(euicc.checkProfiles, { iccids, action })); } catch { /* shown */ } finally { setBusy(false); }
  };
  const run = () => checked && modal.confirm({
    title: t('euicc.confirmAction', { count: checked.valid, action: EuiccAction.label(action, lang) }),
    content: action === EuiccAction.Delete ? t('euicc.confirmDelete') : undefined,
    onOk: async () => {
      const r = await call(euicc.changeProfileState, { iccids: checked.validIccids, action });
      message.success(t('euicc.sent', { count: r.accepted }));
      setChecked(null);
      setText('');
      onDone();
      onClose();
    },
  });
  return (
    <Modal open={open} title={t('euicc.stateTitle')} onCancel={onClose} destroyOnHidden width={640}
      footer={[
        <Button key="c" onClick={() => void check()} loading={busy} data-testid="euicc-state-check">{t('euicc.check')}</Button>,
        <Button key="r" type="primary" disabled={!checked?.valid} onClick={run} data-testid="euicc-state-run">{t('euicc.runValid', { count: checked?.valid ?? 0 })}</Button>,
      ]}>
      <Typography.Paragraph type="secondary">{t('euicc.stateHelp', { max: MAX })}</Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item label={t('euicc.action')}>
          <Select value={action} onChange={(v) => { setAction(v); setChecked(null); }} options={EuiccAction.options(lang)} data-testid="euicc-state-action" />
        </Form.Item>
        <Form.Item label="ICCID" extra={t('euicc.lines', { count: iccids.length })}>
          <Input.TextArea rows={6} value={text} onChange={(e) => { setText(e.target.value); setChecked(null); }} data-testid="euicc-state-iccids" />
        </Form.Item>
      </Form>
      {checked && (
        <>
          <Alert type={checked.invalid ? 'warning' : 'success'} showIcon title={t('euicc.checked', checked)} data-testid="euicc-state-checked" />
          {checked.refused.length > 0 && (
            <List size="small" style={{ maxHeight: 200, overflow: 'auto', marginTop: 8 }} dataSource={checked.refused}
              renderItem={(r) => <List.Item>{lang === 'en' ? r.reasonEn : r.reasonZh}</List.Item>} />
          )}
        </>
      )}
    </Modal>
  );
}
