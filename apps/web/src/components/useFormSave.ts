import { useState } from 'react';
import { App } from 'antd';
import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { LogicError } from '../request/http.ts';

/** The field a refusal names in its data (`data.field`), as a form name path: `fields.port` → ['fields', 'port']. */
export function namedField(e: unknown): string[] | null {
  if (!(e instanceof LogicError)) return null;
  const field = (e.data as { field?: unknown } | null)?.field;
  return typeof field === 'string' && field ? field.split('.') : null;
}

/**
 * Runs a form's save call: busy state, the success message, and a refusal that belongs to a field shown on
 * that field instead of as a toast: by its error code (a taken name, an end date before the send time), or
 * else by the field the server names when this form has that field. Resolves true when the save went through.
 */
export function useFormSave(form: FormInstance, fieldOfError: Partial<Record<number, string>> = {}) {
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
      const byCode = e instanceof LogicError && e.errorCode != null ? fieldOfError[e.errorCode] : undefined;
      const named = namedField(e);
      const field = byCode ?? (named && form.getFieldInstance(named as never) !== undefined ? named : undefined);
      if (field) form.setFields([{ name: field, errors: [(e as Error).message] }]);
      else if (e instanceof Error) message.error(e.message);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, save };
}
