import { useEffect, useState } from 'react';
import { LiveText } from '../../../request/LiveText.tsx';
import { App, Form, Input, Modal, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CardChangeFailureState, countChars, opconfig, validateLength, type ResponseOf } from '@lynx/contract';
import { call } from '../../../request/http.ts';
import { required, ruleOf } from '../../../components/rules.ts';
import type { Lang } from '../config/shared.tsx';

export type FailureRow = ResponseOf<typeof opconfig.getCardChangeFailurePage>['list'][number];

export const FAILURE_STATE_COLORS = {
  [CardChangeFailureState.Pending]: 'warning',
  [CardChangeFailureState.Handled]: 'default',
  [CardChangeFailureState.RetriedOk]: 'success',
  [CardChangeFailureState.RetryFailed]: 'error',
};

export const isOpen = (state: number) => state === CardChangeFailureState.Pending || state === CardChangeFailureState.RetryFailed;

/** The request sent to the operator, in words: "Target state: Deactivated" / "Plan code: CM-1G · Takes effect: Next cycle". */
export function RequestSummary({ request, lang }: { request: FailureRow['request']; lang: Lang }) {
  const { t, i18n } = useTranslation();
  void lang;
  const value = (k: string, v: unknown) => (k === 'effective' && typeof v === 'string' && i18n.exists(`opconfig.failure.effective.${v}`) ? t(`opconfig.failure.effective.${v}`) : String(v));
  const parts = Object.entries(request).map(([k, v]) => `${i18n.exists(`opconfig.failure.requestKeys.${k}`) ? t(`opconfig.failure.requestKeys.${k}`) : k}: ${value(k, v)}`);
  return <Typography.Text>{parts.join(' · ') || '-'}</Typography.Text>;
}

/** Retry and mark-handled, with the outcome as a message; refreshes the failure lists. */
export function useFailureActions() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [busy, setBusy] = useState<number | null>(null);
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: [opconfig.getCardChangeFailurePage.name] });
    void qc.invalidateQueries({ queryKey: [opconfig.getCardChangeFailuresByMsisdn.name] });
  };
  const retry = async (failureId: number) => {
    setBusy(failureId);
    try {
      const r = await call(opconfig.retryCardChangeFailure, { failureId });
      if (r.ok) message.success(t('opconfig.failure.retryOk', { message: r.message }));
      else message.error(t('opconfig.failure.retryFailed', { message: r.message }));
      refresh();
    } catch {
      /* shown by the request layer */
    } finally {
      setBusy(null);
    }
  };
  return { busy, retry, refresh };
}

/** Mark a failure handled; the remark is required (at most 500 characters). */
export function HandleModal({ failureId, onClose, onDone }: { failureId: number | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ remark: string }>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (failureId !== null) form.resetFields();
  }, [failureId, form]);
  const submit = async () => {
    let v: { remark: string };
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setBusy(true);
    try {
      await call(opconfig.handleCardChangeFailure, { failureId: failureId!, remark: v.remark.trim() });
      message.success(<LiveText k="common.operationSuccess" />);
      onDone();
      onClose();
    } catch {
      /* shown by the request layer */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={failureId !== null} title={t('opconfig.failure.handleTitle')} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy}
      okText={t('common.submit')} cancelText={t('common.cancel')} destroyOnHidden>
      <Form form={form} layout="vertical" disabled={busy}>
        <Form.Item name="remark" label={t('opconfig.failure.remark')} extra={t('opconfig.failure.handleHint')} rules={[{ ...required(), whitespace: true }, ruleOf((x) => validateLength(x, 500))]}>
          <Input.TextArea rows={4} count={{ show: true, max: 500, strategy: countChars }} data-testid="failure-remark" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
