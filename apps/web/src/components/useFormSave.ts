import { useState } from 'react';
import { App } from 'antd';
import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { LogicError } from '../request/http.ts';

/**
 * Runs a form's save call: busy state, the success message, and a refusal whose error code belongs to a
 * field (a taken name, an end date before the send time) shown on that field instead of as a toast.
 * Resolves true when the save went through.
 */
export function useFormSave(form: FormInstance, fieldOfError: Partial<Record<number, string>>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const save = async (run: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    try {
      await run();
      message.success(t('common.operationSuccess'));
      return true;
    } catch (e) {
      const field = e instanceof LogicError && e.errorCode != null ? fieldOfError[e.errorCode] : undefined;
      if (field) form.setFields([{ name: field, errors: [(e as Error).message] }]);
      else if (e instanceof Error) message.error(e.message);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, save };
}
