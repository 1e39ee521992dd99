import { useEffect } from 'react';
import { Alert, Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { CardState, carddata } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { required } from '../../../../components/rules.ts';
import { useFormSave } from '../../../../components/useFormSave.ts';
import type { DiagnoseResult } from './CheckList.tsx';

/** Change the diagnosed card's state (6050002) through carddata.changeCardStatus; only the changes the lifecycle rules allow are offered. */
export function ChangeStatusModal({ result, open, onClose, onChanged }: {
  result: DiagnoseResult; open: boolean; onClose: () => void; onChanged: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [form] = Form.useForm<{ action: string; reason?: string }>();
  const { busy, save } = useFormSave(form);
  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);

  const submit = async () => {
    let v: { action: string; reason?: string };
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const action = result.stateActions.find((a) => a.action === v.action)!.action;
    const ok = await save(() => call(carddata.changeCardStatus, { iccid: result.iccid, action, ...(v.reason?.trim() ? { reason: v.reason.trim() } : {}) }, { silent: true }));
    if (ok) {
      onClose();
      onChanged();
    }
  };

  return (
    <Modal
      open={open} title={t('diagnose.changeStatusTitle')} onCancel={onClose} onOk={submit} confirmLoading={busy} destroyOnHidden
      okButtonProps={{ disabled: result.stateActions.length === 0 }} okText={t('common.submit')} cancelText={t('common.cancel')}
    >
      <Form form={form} layout="vertical" data-testid="diagnose-change-status">
        <Form.Item label={t('diagnose.currentState')}>{CardState.label(result.state, lang)}</Form.Item>
        {result.stateActions.length === 0 ? (
          <Alert type="info" showIcon message={t('diagnose.noStateActions')} />
        ) : (
          <>
            <Form.Item name="action" label={t('diagnose.targetAction')} rules={[required()]}>
              <Select options={result.stateActions.map((a) => ({ value: a.action, label: CardState.label(a.toState, lang) }))} placeholder={t('common.required')} />
            </Form.Item>
            <Form.Item name="reason" label={t('diagnose.reason')} extra={t('diagnose.reasonHint')} rules={[{ max: carddata.CARD_CHANGE_REASON_MAX }]}>
              <Input.TextArea rows={2} maxLength={carddata.CARD_CHANGE_REASON_MAX} showCount />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}
