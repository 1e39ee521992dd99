import { useState } from 'react';
import { Alert, App, Button, Form, Input, List, Modal, Progress, Select, Space, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorCode, EuiccAction, EuiccProfileState, batch, euicc, pathOf, type ResponseOf } from '@lynx/contract';
import { call, upload } from '../../../request/http.ts';
import { FileImportModal } from '../../../components/FileImportModal.tsx';
import { useSession } from '../../../stores/session.ts';
import { iccidLines, parsePairs, useLang } from './shared.tsx';

const { BatchState } = batch;

const MAX = euicc.EUICC_BATCH_MAX;
type Props = { open: boolean; onClose: () => void; onDone: () => void };
const EID_RE = new RegExp(euicc.EID_PATTERN);
const ICCID_RE = new RegExp(euicc.PROFILE_ICCID_PATTERN);

/**
 * Import eUICCs and profiles from an xlsx or csv file (the shared import dialog: templates in both languages, wrong rows
 * listed, all rows or none); staff choose the customer.
 */
export function ImportModal({ open, onClose, onDone }: Props) {
  const { t } = useTranslation();
  const staff = useSession((s) => s.custId == null);
  const [custId, setCustId] = useState<number | undefined>();
  const [custError, setCustError] = useState(false);
  const customers = useQuery({
    queryKey: [euicc.euiccCustomers.name], enabled: open && staff,
    queryFn: ({ signal }) => call(euicc.euiccCustomers, {}, { signal, silent: true }),
  });
  return (
    <FileImportModal<Imported>
      open={open} onClose={onClose} onDone={() => { onDone(); onClose(); }} ns="euicc.file" testId="euicc" width={760} layout="headings"
      templatePath={pathOf(euicc.downloadEuiccTemplate)} maxBytes={euicc.EUICC_IMPORT_MAX_BYTES} maxRows={MAX}
      send={(file, remark) => upload(euicc.importEuiccFile, file, { custId: staff && custId ? String(custId) : undefined, remark: remark || undefined }, { silent: true })}
      doneValues={(r) => r} remarkMax={64} rules={3}
      rowErrors={{ code: ErrorCode.EuiccImportInvalid, idTitle: 'EID / ICCID', idKey: 'id' }}
      validate={() => { const ok = !staff || !!custId; setCustError(!ok); return ok; }}
      onReset={() => { setCustId(undefined); setCustError(false); }}
      extra={staff && (
        <Form.Item label={t('euicc.importCustomer')} required validateStatus={custError ? 'error' : undefined} help={custError ? t('common.required') : undefined}>
          <Select value={custId} onChange={(v) => { setCustId(v); setCustError(false); }} showSearch optionFilterProp="label" data-testid="euicc-import-customer"
            options={(customers.data ?? []).map((c) => ({ value: c.custId, label: c.name }))} placeholder={t('common.required')} />
        </Form.Item>
      )}
    />
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
type Imported = ResponseOf<typeof euicc.importEuiccFile>;

/**
 * Batch state change: check first (what can change, what cannot and why: a batch of the card batch engine, nothing
 * changed yet), then run it for the ones that can; the dialog then follows the batch (operations placed with the
 * SM-DP+) and where its profiles are (their states, how many still wait for the SM-DP+), with a link to the list of
 * the batch's profiles.
 */
export function StateModal({ open, onClose, onDone, onShowBatch }: Props & { onShowBatch: (batchId: string) => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message, modal } = App.useApp();
  const [text, setText] = useState('');
  const [action, setAction] = useState<number>(EuiccAction.Download);
  const [checked, setChecked] = useState<Checked | null>(null);
  const [running, setRunning] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const iccids = iccidLines(text);
  const progress = useQuery({
    queryKey: [euicc.getEuiccBatch.name, running], enabled: open && !!running,
    queryFn: ({ signal }) => call(euicc.getEuiccBatch, { batchId: running! }, { signal, silent: true }),
    refetchInterval: (q) => (q.state.data && q.state.data.state === BatchState.Done && q.state.data.inFlight === 0 ? false : 1000),
  });
  const check = async () => {
    if (!iccids.length) return void message.warning(t('common.required'));
    if (iccids.length > MAX) return void message.error(t('euicc.tooMany', { count: iccids.length, max: MAX }));
    setBusy(true);
    try { setChecked(await call(euicc.checkProfiles, { iccids, action })); } catch { /* shown */ } finally { setBusy(false); }
  };
  const run = () => checked && modal.confirm({
    title: t('euicc.confirmAction', { count: checked.valid, action: EuiccAction.label(action, lang) }),
    content: action === EuiccAction.Delete ? t('euicc.confirmDelete') : undefined,
    okButtonProps: { 'data-testid': 'euicc-state-confirm' } as never,
    onOk: async () => {
      const r = await call(euicc.changeProfileState, { batchId: checked.batchId });
      message.success(t('euicc.sent', { count: r.accepted }));
      setRunning(r.batchId);
      onDone();
    },
  });
  const close = () => { setChecked(null); setRunning(null); setText(''); onClose(); };
  const b = progress.data;
  const finished = !!b && b.state === BatchState.Done && b.inFlight === 0;
  return (
    <Modal open={open} title={t('euicc.stateTitle')} onCancel={close} destroyOnHidden width={640}
      footer={running ? [
        <Button key="l" onClick={() => { onShowBatch(running); close(); }} data-testid="euicc-batch-profiles">{t('euicc.batchProfiles')}</Button>,
        <Button key="c" type="primary" onClick={close}>{t('common.close')}</Button>,
      ] : [
        <Button key="c" onClick={() => void check()} loading={busy} data-testid="euicc-state-check">{t('euicc.check')}</Button>,
        <Button key="r" type="primary" disabled={!checked?.valid} onClick={run} data-testid="euicc-state-run">{t('euicc.runValid', { count: checked?.valid ?? 0 })}</Button>,
      ]}>
      {running ? (
        <div data-testid="euicc-batch-progress" data-finished={finished ? 'yes' : 'no'}>
          <Typography.Paragraph>{t('euicc.batchNo', { id: running.slice(0, 8), action: EuiccAction.label(action, lang) })}</Typography.Paragraph>
          <Progress percent={b && b.valid ? Math.floor((b.processed / b.valid) * 100) : 0} status={finished ? 'success' : 'active'} />
          {b && (
            <>
              <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
                {t('euicc.batchCounts', b)}{b.inFlight > 0 ? ` · ${t('euicc.batchInFlight', { count: b.inFlight })}` : ''}
              </Typography.Paragraph>
              <Space wrap data-testid="euicc-batch-states">
                {b.states.map((s) => <Tag key={s.state} data-state={s.state}>{EuiccProfileState.label(s.state, lang)}: {s.count}</Tag>)}
              </Space>
              {finished && <Alert style={{ marginTop: 12 }} type={b.failed ? 'warning' : 'success'} showIcon title={t('euicc.batchDone', b)} data-testid="euicc-batch-done" />}
            </>
          )}
        </div>
      ) : (
        <>
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
        </>
      )}
    </Modal>
  );
}
