import { describe, it, expect, beforeEach, vi } from 'vitest';
import { render, screen, fireEvent, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { validatePassword, validatePasswordPair } from '@lynx/contract';
import { setLanguage } from '../locales/i18n.ts';
import { EditForm } from './EditForm.tsx';
import { ImageUpload } from './ImageUpload.tsx';
import { DetailPage } from './DetailPage.tsx';

beforeEach(async () => {
  await setLanguage('en');
});

const fields = [
  { name: 'newPassword', label: 'New password', type: 'password' as const, required: true, validate: validatePassword },
  { name: 'confirmPassword', label: 'Confirm', type: 'password' as const, required: true, dependencies: ['newPassword'], validateWith: (v: string, get: (n: string) => any) => validatePasswordPair(get('newPassword'), v) },
];

describe('EditForm', () => {
  it('checks the contract rules before submitting, then submits, reports success and closes', async () => {
    const onSubmit = vi.fn(async () => undefined);
    const onClose = vi.fn();
    render(<AntApp><EditForm open title="Change" fields={fields} onSubmit={onSubmit} onClose={onClose} /></AntApp>);
    const [pw, confirm] = [screen.getByLabelText('New password'), screen.getByLabelText('Confirm')];
    fireEvent.change(pw, { target: { value: 'short' } });
    fireEvent.change(confirm, { target: { value: 'other' } });
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    expect((await screen.findAllByText('Password must be 8-18 characters long')).length).toBeGreaterThan(0);
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.change(pw, { target: { value: 'Good#pass2026' } });
    fireEvent.change(confirm, { target: { value: 'Good#pass2027' } });
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    expect(await screen.findByText('The two passwords do not match')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.change(pw, { target: { value: 'Good#pass2026' } });
    fireEvent.change(confirm, { target: { value: 'Good#pass2026' } });
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ newPassword: 'Good#pass2026', confirmPassword: 'Good#pass2026' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(await screen.findByText('Operation success')).toBeInTheDocument();
  });

  it('stays open when the server refuses', async () => {
    const onClose = vi.fn();
    render(<AntApp><EditForm open title="Change" fields={[fields[0]]} onSubmit={async () => { throw new Error('refused'); }} onClose={onClose} /></AntApp>);
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'Good#pass2026' } });
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    await new Promise((r) => setTimeout(r, 50));
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('ImageUpload', () => {
  // the uploader replaces its input after each pick: look it up every time
  const pick = (container: HTMLElement, file: File) => fireEvent.change(container.querySelector('input[type=file]')!, { target: { files: [file] } });

  it('refuses a logo of 1500 KB or more or of the wrong type with the spec message, and passes a good one on', async () => {
    const onFile = vi.fn(async () => undefined);
    const { container } = render(<AntApp><ImageUpload use="logo" onFile={onFile}>logo</ImageUpload></AntApp>);
    expect((container.querySelector('input[type=file]') as HTMLInputElement).accept).toBe('.jpg,.jpeg,.png');
    pick(container, new File([new Uint8Array(1_536_000)], 'big.png', { type: 'image/png' }));
    expect(await screen.findByText('Logo must be smaller than 1500 KB')).toBeInTheDocument();
    pick(container, new File([new Uint8Array(10)], 'fake.png', { type: 'text/plain' }));
    expect(await screen.findByText('File type error')).toBeInTheDocument();
    expect(onFile).not.toHaveBeenCalled();
    pick(container, new File([new Uint8Array(1000)], 'ok.png', { type: 'image/png' }));
    await waitFor(() => expect(onFile).toHaveBeenCalledTimes(1));
  });

  it('accepts a GIF payment proof under 2 MB but not of 2 MB', async () => {
    const onFile = vi.fn(async () => undefined);
    const { container } = render(<AntApp><ImageUpload use="paymentProof" onFile={onFile} /></AntApp>);
    pick(container, new File([new Uint8Array(2 * 1024 * 1024)], 'p.gif', { type: 'image/gif' }));
    expect(await screen.findByText('File too big: it must be under 2 MB')).toBeInTheDocument();
    pick(container, new File([new Uint8Array(100)], 'p.gif', { type: 'image/gif' }));
    await waitFor(() => expect(onFile).toHaveBeenCalledTimes(1));
  });
});

describe('DetailPage', () => {
  it('shows loading, not found, or the labelled fields', () => {
    const { rerender, container } = render(<AntApp><DetailPage loading title="T" items={[]} /></AntApp>);
    expect(container.querySelector('.ant-skeleton')).not.toBeNull();
    rerender(<AntApp><DetailPage loading={false} error={new Error('x')} title="T" items={[]} /></AntApp>);
    expect(screen.getByText('Sorry, the page you visited does not exist!')).toBeInTheDocument();
    rerender(<AntApp><DetailPage loading={false} title="Role" items={[{ label: 'Code', value: 'ADMIN' }, { label: 'Note', value: null }]} /></AntApp>);
    expect(screen.getByText('ADMIN')).toBeInTheDocument();
    expect(screen.getByText('-')).toBeInTheDocument();
  });
});

describe('useFormSave', () => {
  it('puts a refusal whose code belongs to a field on that field, and reports success otherwise', async () => {
    const { Form, Input } = await import('antd');
    const { LogicError } = await import('../request/http.ts');
    const { useFormSave } = await import('./useFormSave.ts');
    let result: boolean | null = null;
    function F({ fail }: { fail: boolean }) {
      const [form] = Form.useForm();
      const { save } = useFormSave(form, { 20043: 'apnName' });
      return (
        <Form form={form}>
          <Form.Item name="apnName"><Input aria-label="name" /></Form.Item>
          <button type="button" onClick={async () => {
            result = await save(async () => {
              if (fail) throw new LogicError('This operator already has an APN with this name', 20043);
            });
          }}>go</button>
        </Form>
      );
    }
    const { rerender } = render(<AntApp><F fail /></AntApp>);
    fireEvent.click(screen.getByText('go'));
    expect(await screen.findByText('This operator already has an APN with this name')).toBeInTheDocument();
    expect(result).toBe(false);
    rerender(<AntApp><F fail={false} /></AntApp>);
    fireEvent.click(screen.getByText('go'));
    expect(await screen.findByText('Operation success')).toBeInTheDocument();
    await waitFor(() => expect(result).toBe(true));
  });
});
