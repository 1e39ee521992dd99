import { useState } from 'react';
import { App } from 'antd';
import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { LogicError } from '../../../request/http.ts';

/** 'Field ports: Port must be…' → 'Port must be…' when the message is shown under the field itself. */
export const withoutFieldPrefix = (msg: string) => msg.replace(/^(字段 [^：]+：|Field [^:]+: )/, '');

/**
 * Runs a save call (made with { silent: true }): a refusal whose `data.field` is a field of this form is
 * shown on that field, anything else as a message. Resolves true when the save went through.
 */
export function useFieldSave(form: FormInstance, fields: readonly string[], alias: Record<string, string> = {}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const save = async (run: () => Promise<unknown>, successText?: string): Promise<boolean> => {
    setBusy(true);
    try {
      await run();
      message.success(successText ?? t('common.operationSuccess'));
      return true;
    } catch (e) {
      const raw = e instanceof LogicError ? (e.data as { field?: string } | null)?.field : undefined;
      const field = raw ? (alias[raw] ?? raw) : undefined;
      if (field && fields.includes(field)) {
        form.setFields([{ name: field, errors: [withoutFieldPrefix((e as Error).message)] }]);
        form.scrollToField(field);
      } else if (e instanceof Error && e.message !== 'unauthorized') message.error(e.message);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, save };
}
