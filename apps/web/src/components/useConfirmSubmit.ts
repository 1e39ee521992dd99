import { App, type ButtonProps, type FormInstance } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** What the confirmation of a submit says and does. */
export interface ConfirmStep {
  title: ReactNode;
  content: ReactNode;
  /** the confirm button's text; "OK" by default */
  okText?: ReactNode;
  /** a red confirm button (a refund, a rejection) */
  danger?: boolean;
  /** the confirm button's data-testid (the browser specs click it) */
  testId: string;
  /** runs on confirm; the button shows as busy until it settles */
  onOk: () => Promise<void>;
}

/**
 * A dialog's two-step submit: the form is validated (errors stay on their fields and nothing is asked), then a
 * confirmation built from the valid values is shown, and only its OK sends anything. `ask` may be async (to look
 * up a name for the question).
 */
export function useConfirmSubmit<V>(form: FormInstance<V>) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  return async (ask: (values: V) => ConfirmStep | Promise<ConfirmStep>): Promise<void> => {
    let values: V;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const step = await ask(values);
    modal.confirm({
      title: step.title,
      content: step.content,
      okText: step.okText ?? t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { ...(step.danger ? { danger: true } : {}), 'data-testid': step.testId } as ButtonProps,
      onOk: step.onOk,
    });
  };
}
