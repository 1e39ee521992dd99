import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Button, Form, Input } from 'antd';
import { renderAt } from '../test/render.tsx';
import { setLanguage } from '../locales/i18n.ts';
import { useConfirmSubmit, type ConfirmStep } from './useConfirmSubmit.ts';

const sent = vi.fn();
let step: Partial<ConfirmStep> = {};

function Dialog() {
  const [form] = Form.useForm<{ amount: string }>();
  const confirmSubmit = useConfirmSubmit(form);
  const submit = () => confirmSubmit(async (v) => ({
    title: 'Confirm the refund', content: `Refund ${v.amount}?`, testId: 'refund-confirm', onOk: async () => sent(v.amount), ...step,
  }));
  return (
    <Form form={form}>
      <Form.Item name="amount" rules={[{ required: true, message: 'Enter an amount' }]}><Input data-testid="amount" /></Form.Item>
      <Button onClick={() => void submit()}>Submit</Button>
    </Form>
  );
}
const show = () => renderAt('/', [{ path: '/', element: <Dialog /> }]);

beforeEach(async () => {
  await setLanguage('en');
  sent.mockReset();
  step = {};
});

describe('a dialog\'s confirm-before-submit', () => {
  it('asks nothing while the form is invalid', async () => {
    show();
    fireEvent.click(screen.getByText('Submit'));
    expect(await screen.findByText('Enter an amount')).toBeInTheDocument();
    expect(screen.queryByText('Confirm the refund')).toBeNull();
  });

  it('asks with the valid values, sends only on OK, and never on Cancel', async () => {
    show();
    fireEvent.change(screen.getByTestId('amount'), { target: { value: '12.50' } });
    fireEvent.click(screen.getByText('Submit'));
    expect(await screen.findByText('Refund 12.50?')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(sent).not.toHaveBeenCalled();

    fireEvent.click(screen.getByText('Submit'));
    // the cancelled confirmation may still be fading out: the new one is the last
    const ok = (await screen.findAllByTestId('refund-confirm')).at(-1)!;
    expect(ok).toHaveTextContent('OK');
    expect(ok).not.toHaveClass('ant-btn-dangerous');
    fireEvent.click(ok);
    await waitFor(() => expect(sent).toHaveBeenCalledWith('12.50'));
  });

  it('shows a red confirm button with its own text when asked to', async () => {
    step = { danger: true, okText: 'Refund' };
    show();
    fireEvent.change(screen.getByTestId('amount'), { target: { value: '1' } });
    fireEvent.click(screen.getByText('Submit'));
    const ok = await screen.findByTestId('refund-confirm');
    expect(ok).toHaveClass('ant-btn-dangerous');
    expect(ok).toHaveTextContent('Refund');
  });
});
