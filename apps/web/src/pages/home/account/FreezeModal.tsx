import { useState } from 'react';
import { LiveText } from '../../../request/LiveText.tsx';
import { Alert, App, Form, Input, Modal } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { account, FreezeAction, NOTE_LIMITS, validateLength } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { required, ruleOf } from '../../../components/rules.ts';
import { nextFreezeAction } from './helpers.ts';

/** Invalidates every query that shows an account's state (lists, header info, freeze records). */
export function invalidateAccounts(qc: ReturnType<typeof useQueryClient>) {
  for (const e of [account.getAccountListPage, account.getAccountInfoByLoginName, account.getAccountFreezeList]) {
    void qc.invalidateQueries({ queryKey: [e.name] });
  }
}

/** Freezes or thaws an account; the reason is required (spec §6) and kept in its freeze records. */
export function FreezeModal({ target, onClose }: { target: { loginName: string; status: number } | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);
  const action = target ? nextFreezeAction(target.status) : FreezeAction.Freeze;
  const freezing = action === FreezeAction.Freeze;
  const submit = async ({ reason }: { reason: string }) => {
    if (!target) return;
    setBusy(true);
    try {
      await call(account.saveAccountFreeze, { loginName: target.loginName, action, reason: reason.trim() });
      message.success(<LiveText k="common.operationSuccess" />);
      invalidateAccounts(qc);
      onClose();
    } catch {
      /* the request layer shows why */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={target !== null}
      title={t(freezing ? 'home.account.freezeTitle' : 'home.account.thawTitle', { loginName: target?.loginName })}
      okText={t(freezing ? 'home.account.freeze' : 'home.account.thaw')}
      okButtonProps={{ danger: freezing, loading: busy, 'data-testid': 'freeze-ok' } as never}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Alert type={freezing ? 'warning' : 'info'} showIcon title={t(freezing ? 'home.account.freezeHint' : 'home.account.thawHint')} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" onFinish={submit} preserve={false}>
        <Form.Item
          name="reason"
          label={t('home.account.reason')}
          rules={[required(), { whitespace: true, message: t('common.required') }, ruleOf((v) => validateLength(v, NOTE_LIMITS.long))]}
        >
          <Input.TextArea rows={4} showCount maxLength={NOTE_LIMITS.long} placeholder={t('home.account.reasonPlaceholder')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
