import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Form, type FormInstance } from 'antd';
import { renderAt } from '../../../test/render.tsx';
import { setLanguage } from '../../../locales/i18n.ts';
import { NoteField } from './NoteField.tsx';

let form: FormInstance;
function Note(props: { required?: boolean | string; max?: number }) {
  const [f] = Form.useForm();
  form = f;
  return (
    <Form form={f}>
      <NoteField name="note" label="Note" max={props.max ?? 5} required={props.required} testId="note" />
    </Form>
  );
}
const show = (props: { required?: boolean | string; max?: number } = {}) => renderAt('/', [{ path: '/', element: <Note {...props} /> }]);
const type = (text: string) => fireEvent.change(screen.getByTestId('note'), { target: { value: text } });
const validate = async () => act(async () => form.validateFields().then(() => true, () => false));

beforeEach(async () => {
  await setLanguage('en');
});

describe('the money dialogs\' note field', () => {
  it('counts characters as people do (an emoji is one) against its limit', async () => {
    show();
    type('😀😀😀😀😀');
    expect(await screen.findByText('5 / 5')).toBeInTheDocument();
    expect(await validate()).toBe(true);
    type('😀😀😀😀😀x');
    expect(await screen.findByText('6 / 5')).toBeInTheDocument();
    expect(await validate()).toBe(false);
    expect(await screen.findByText('At most 5 characters')).toBeInTheDocument();
  });

  it('ignores surrounding blanks for the limit', async () => {
    show();
    type('  abcde  ');
    expect(await validate()).toBe(true);
  });

  it('is optional unless required, with the common text or its own', async () => {
    show();
    expect(await validate()).toBe(true);
  });

  it.each([
    [true, 'Please select or enter'],
    ['Give a reason', 'Give a reason'],
  ])('required=%j refuses an empty or blank note with %s', async (required, message) => {
    show({ required });
    type('   ');
    expect(await validate()).toBe(false);
    await waitFor(() => expect(screen.getByText(message)).toBeInTheDocument());
  });

  it('says the limit in Chinese too', async () => {
    await setLanguage('zh');
    show({ max: 2 });
    type('超过了');
    expect(await validate()).toBe(false);
    expect(await screen.findByText('不能超过 2 个字符')).toBeInTheDocument();
  });
});
