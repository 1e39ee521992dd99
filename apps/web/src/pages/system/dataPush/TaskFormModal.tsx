import { useEffect, useState } from 'react';
import { Alert, Button, Form, Input, InputNumber, Modal, Radio, Switch, TimePicker, Typography, type ButtonProps } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { ErrorCode, datapush, type ResponseOf } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { useFormSave } from '../../../components/useFormSave.ts';
import { zoneLabel } from '../../../components/businessTime.ts';
import { CustomerSelect } from '../../home/customer/CustomerSelect.tsx';
import { DataPushAuthType, DataPushFileType, type TaskRow } from './shared.tsx';

interface TaskForm {
  custId?: number; taskName: string; fileType: number; host: string; port: number; account: string; authType: number;
  password?: string; privateKey?: string; passphrase?: string; remotePath: string; pushTime: Dayjs | null; open: boolean;
}
type TestResult = ResponseOf<typeof datapush.testDataPushConnection>;

const { DATA_PUSH_ACCOUNT_MAX, DATA_PUSH_HOST_MAX, DATA_PUSH_KEY_MAX, DATA_PUSH_NAME_MAX, DATA_PUSH_PASSWORD_MAX, DATA_PUSH_PATH_MAX } = datapush;
const CONNECTION = ['host', 'port', 'account', 'authType', 'password', 'privateKey', 'passphrase', 'remotePath'] as const;

/** Add a task or edit one (its customer stays); "Test connection" tries the typed fields (and the stored secret when editing). */
export function TaskFormModal({ open, task, staff, onClose, onSaved }: { open: boolean; task: TaskRow | null; staff: boolean; onClose: () => void; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [form] = Form.useForm<TaskForm>();
  const { busy, save } = useFormSave(form, {
    [ErrorCode.DataPushNameTaken]: 'taskName', [ErrorCode.DataPushKeyInvalid]: 'privateKey',
  });
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<TestResult | null>(null);
  const authType = Form.useWatch('authType', form);
  const F = (k: string) => t(`datapush.f.${k}`);
  const required = { required: true, whitespace: true, message: t('datapush.form.required') };
  // the stored secret is kept when the field is left empty and the sign-in kind stays
  const keeps = (kind: number) => task !== null && task.hasSecret && task.authType === kind;

  useEffect(() => {
    if (!open) return;
    setResult(null);
    form.resetFields();
    form.setFieldsValue(task
      ? {
        custId: task.custId, taskName: task.taskName, fileType: task.fileType, host: task.host, port: task.port, account: task.account,
        authType: task.authType, remotePath: task.remotePath, pushTime: dayjs(`2000-01-01T${task.pushTime}:00`), open: task.open === 1,
      }
      : { fileType: DataPushFileType.CardList, port: 22, authType: DataPushAuthType.Password, pushTime: dayjs('2000-01-01T02:00:00'), open: true });
  }, [open, task, form]);

  const connectionOf = (v: Partial<TaskForm>) => ({
    host: v.host!.trim(), port: v.port!, account: v.account!.trim(), authType: v.authType!, remotePath: v.remotePath!.trim(),
    ...(v.authType === DataPushAuthType.Password ? { password: v.password || undefined } : { privateKey: v.privateKey || undefined, passphrase: v.passphrase || undefined }),
  });

  const test = async () => {
    let v: Partial<TaskForm>;
    try {
      v = await form.validateFields([...CONNECTION]);
    } catch {
      return;
    }
    setTesting(true);
    setResult(null);
    try {
      setResult(await call(datapush.testDataPushConnection, { ...connectionOf(v), ...(task ? { taskId: task.taskId } : {}) }));
    } catch (e) {
      setResult({ ok: false, message: (e as Error).message, errorCode: null, elapsedMs: 0, hostKey: null, hostKeyChanged: false });
    } finally {
      setTesting(false);
    }
  };

  const submit = async () => {
    let v: TaskForm;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    // the fingerprint the test showed for these connection fields is the one the user accepts by saving
    const fields = {
      taskName: v.taskName.trim(), fileType: v.fileType, pushTime: v.pushTime!.format('HH:mm'), ...connectionOf(v),
      ...(result?.hostKey ? { hostKey: result.hostKey } : {}),
    };
    const ok = await save(async () => {
      if (task) await call(datapush.updateDataPush, { taskId: task.taskId, ...fields }, { silent: true });
      else await call(datapush.insertDataPush, { ...(staff ? { custId: v.custId } : {}), ...fields, open: v.open ? 1 : 0 }, { silent: true });
    });
    if (ok) {
      onSaved();
      onClose();
    }
  };

  return (
    <Modal open={open} title={t(task ? 'datapush.form.editTitle' : 'datapush.form.addTitle')} onCancel={onClose} destroyOnHidden forceRender width={640}
      footer={[
        <Button key="test" onClick={() => void test()} loading={testing} data-testid="data-push-test">{t('datapush.action.test')}</Button>,
        <Button key="cancel" onClick={onClose}>{t('common.cancel')}</Button>,
        <Button key="ok" type="primary" loading={busy} onClick={() => void submit()} {...({ 'data-testid': 'data-push-save' } as ButtonProps)}>{t('common.save')}</Button>,
      ]}>
      <Form form={form} layout="vertical" disabled={busy} onValuesChange={(changed) => {
        if (CONNECTION.some((k) => k in changed)) setResult(null);
      }}>
        {staff && (
          <Form.Item name="custId" label={F('customer')} rules={[{ required: true, message: t('datapush.ph.customer') }]}>
            {task ? <CustomerSelect disabled initialLabel={task.custName} /> : <CustomerSelect placeholder={t('datapush.ph.customer')} />}
          </Form.Item>
        )}
        <Form.Item name="taskName" label={F('name')} rules={[required, { max: DATA_PUSH_NAME_MAX }]}>
          <Input maxLength={DATA_PUSH_NAME_MAX} placeholder={t('datapush.ph.name')} data-testid="data-push-name" />
        </Form.Item>
        <Form.Item name="fileType" label={F('fileType')} extra={t('datapush.help.fileType')}>
          <Radio.Group options={DataPushFileType.options(lang)} data-testid="data-push-file-type" />
        </Form.Item>
        <div style={{ display: 'flex', gap: 12 }}>
          <Form.Item name="host" label={F('host')} rules={[required, { max: DATA_PUSH_HOST_MAX }, { pattern: /^[^\s/:]+$|^[0-9a-fA-F:]+$/, message: t('datapush.ph.host') }]} style={{ flex: 1 }}>
            <Input placeholder={t('datapush.ph.host')} data-testid="data-push-host" />
          </Form.Item>
          <Form.Item name="port" label={F('port')} rules={[{ required: true, message: t('datapush.form.required') }]}>
            <InputNumber min={1} max={65535} precision={0} style={{ width: 120 }} data-testid="data-push-port" />
          </Form.Item>
        </div>
        <Form.Item name="account" label={F('account')} rules={[required, { max: DATA_PUSH_ACCOUNT_MAX }]}>
          <Input autoComplete="off" data-testid="data-push-account" />
        </Form.Item>
        <Form.Item name="authType" label={F('authType')}>
          <Radio.Group options={DataPushAuthType.options(lang)} data-testid="data-push-auth-type" />
        </Form.Item>
        {authType === DataPushAuthType.PrivateKey ? (
          <>
            <Form.Item name="privateKey" label={F('privateKey')} extra={t('datapush.help.privateKey')}
              rules={keeps(DataPushAuthType.PrivateKey) ? [] : [required]}>
              <Input.TextArea rows={4} maxLength={DATA_PUSH_KEY_MAX} placeholder={keeps(DataPushAuthType.PrivateKey) ? F('secretKept') : '-----BEGIN OPENSSH PRIVATE KEY-----'}
                style={{ fontFamily: 'monospace' }} data-testid="data-push-key" />
            </Form.Item>
            <Form.Item name="passphrase" label={F('passphrase')}>
              <Input.Password maxLength={DATA_PUSH_PASSWORD_MAX} autoComplete="new-password" />
            </Form.Item>
          </>
        ) : (
          <Form.Item name="password" label={F('password')} rules={keeps(DataPushAuthType.Password) ? [] : [{ required: true, message: t('datapush.form.required') }]}>
            <Input.Password maxLength={DATA_PUSH_PASSWORD_MAX} autoComplete="new-password" placeholder={keeps(DataPushAuthType.Password) ? F('secretKept') : undefined}
              data-testid="data-push-password" />
          </Form.Item>
        )}
        <Form.Item name="remotePath" label={F('path')} extra={t('datapush.help.path')} rules={[required, { max: DATA_PUSH_PATH_MAX }, { pattern: /^\//, message: t('datapush.help.path') }]}>
          <Input placeholder={t('datapush.ph.path')} data-testid="data-push-path" />
        </Form.Item>
        <div style={{ display: 'flex', gap: 24 }}>
          <Form.Item name="pushTime" label={F('pushTime')} extra={t('datapush.help.pushTime', { tz: zoneLabel() })} rules={[{ required: true, message: t('datapush.form.pushTimeRequired') }]} style={{ flex: 1 }}>
            <TimePicker format="HH:mm" needConfirm={false} allowClear={false} data-testid="data-push-time" />
          </Form.Item>
          {!task && (
            <Form.Item name="open" label={F('open')} valuePropName="checked">
              <Switch data-testid="data-push-open" />
            </Form.Item>
          )}
        </div>
        <HostKeyField task={task} result={testing ? null : result} />
        {(testing || result) && (
          <Alert showIcon type={testing ? 'info' : result!.ok ? 'success' : 'error'} data-testid="data-push-test-result"
            title={testing ? t('datapush.test.running') : t(result!.ok ? 'datapush.test.ok' : 'datapush.test.failed')}
            description={testing ? undefined : `${result!.message}${result!.elapsedMs ? (lang === 'zh' ? `（${t('datapush.test.took', { ms: result!.elapsedMs })}）` : ` (${t('datapush.test.took', { ms: result!.elapsedMs })})`) : ''}`} />
        )}
      </Form>
    </Modal>
  );
}

/** The server's host key fingerprint: the one the test met (saving pins it), else the task's pinned one. */
function HostKeyField({ task, result }: { task: TaskRow | null; result: TestResult | null }) {
  const { t } = useTranslation();
  const shown = result?.hostKey ?? task?.hostKey ?? null;
  const note = result?.hostKey
    ? (result.hostKey === task?.hostKey ? t('datapush.hostKey.pinned') : t('datapush.hostKey.willPin'))
    : task?.hostKey ? t('datapush.hostKey.pinned') : t('datapush.hostKey.none');
  return (
    <Form.Item label={t('datapush.f.hostKey')} extra={note}>
      <Typography.Text code={shown !== null} copyable={shown ? { text: shown } : false} type={shown ? undefined : 'secondary'} data-testid="data-push-host-key">
        {shown ?? '-'}
      </Typography.Text>
      {result?.hostKeyChanged && (
        <Alert showIcon type="warning" style={{ marginTop: 8 }} data-testid="data-push-host-key-changed" title={t('datapush.hostKey.changedTitle')}
          description={t('datapush.hostKey.changed', { pinned: task?.hostKey ?? '-', presented: result.hostKey })} />
      )}
    </Form.Item>
  );
}
