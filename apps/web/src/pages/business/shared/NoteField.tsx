import { Form, Input } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Characters as people count them (an emoji is one), as the server counts them. */
export const chars = (s: string) => [...s].length;

/**
 * A note or reason of a money dialog (spec §5 limits: 20 / 40 / 500 characters). The count shows the characters
 * typed against the limit; past it the field says so rather than cutting a pasted text short. `required` is off,
 * on (the common "please enter" text) or the text to show when it is missing.
 */
export function NoteField({ name, label, max, required = false, rows = 2, testId }: {
  name: string;
  label: ReactNode;
  max: number;
  required?: boolean | string;
  rows?: number;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Form.Item name={name} label={label}
      rules={[
        ...(required ? [{ required: true, whitespace: true, message: typeof required === 'string' ? required : t('common.required') }] : []),
        {
          validator: async (_r: unknown, v: string | undefined) => {
            if (v && chars(v.trim()) > max) throw new Error(t('money.noteTooLong', { max }));
          },
        },
      ]}>
      <Input.TextArea rows={rows} showCount={{ formatter: ({ value }) => `${chars(value)} / ${max}` }} data-testid={testId} />
    </Form.Item>
  );
}
