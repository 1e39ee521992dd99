import { describe, it, expect, beforeEach, vi } from 'vitest';
import { render, screen, waitFor, fireEvent, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { setLanguage } from '../locales/i18n.ts';
import { LogicError } from '../request/http.ts';
import { FileImportModal, type FileImportModalProps } from './FileImportModal.tsx';

type Batch = { simCount: number; cardCount: number };

const show = (props: Partial<FileImportModalProps<Batch>> = {}) => {
  const p: FileImportModalProps<Batch> = {
    open: true, onClose: vi.fn(), onDone: vi.fn(), ns: 'dsim.import', testId: 'dsim', width: 760, layout: 'headings',
    templatePath: '/api/cmp/template', maxBytes: 1024, maxRows: 10, send: vi.fn(async () => ({ simCount: 1, cardCount: 2 })),
    doneValues: (r) => ({ sims: r.simCount, cards: r.cardCount }), remarkMax: 64, rules: 3,
    rowErrors: { code: 20700, idTitle: 'SN', idKey: 'sn' }, ...props,
  };
  render(<AntApp><FileImportModal<Batch> {...p} /></AntApp>);
  return p;
};
const fileInput = () => document.querySelector('input[type=file]') as HTMLInputElement;
const choose = (f: File) => fireEvent.change(fileInput(), { target: { files: [f] } });

beforeEach(async () => {
  await setLanguage('en');
});

describe('FileImportModal', () => {
  it('shows the steps, the four templates, the limits and the rules in the caller\'s texts', () => {
    show();
    expect(screen.getByText('Import super SIMs')).toBeInTheDocument();
    for (const t of ['Chinese template (xlsx)', 'English template (xlsx)', 'Chinese CSV', 'English CSV']) expect(screen.getByText(t)).toBeInTheDocument();
    expect(screen.getByText('xlsx or csv, at most 1 KB and 10 rows.')).toBeInTheDocument();
    expect(screen.getByText('The super SIM belongs to the customer of its cards.')).toBeInTheDocument();
  });

  it('asks for a file, refuses other types and large files, and sends a chosen one with the trimmed remark', async () => {
    const p = show();
    fireEvent.click(screen.getByTestId('dsim-import-submit'));
    expect(await screen.findByText('Please upload a file')).toBeInTheDocument();
    choose(new File(['x'], 'cards.txt'));
    expect(await screen.findAllByText('Only .xlsx and .csv files')).toHaveLength(2);
    choose(new File(['x'.repeat(2000)], 'big.csv'));
    expect(await screen.findByTestId('dsim-import-error')).toHaveTextContent('xlsx or csv, at most 1 KB and 10 rows.');
    choose(new File(['sn'], 'ok.csv'));
    await waitFor(() => expect(screen.queryByTestId('dsim-import-error')).toBeNull());
    fireEvent.change(screen.getByLabelText('Remark'), { target: { value: '  batch A  ' } });
    fireEvent.click(screen.getByTestId('dsim-import-submit'));
    await waitFor(() => expect(p.onDone).toHaveBeenCalledWith({ simCount: 1, cardCount: 2 }));
    expect(p.send).toHaveBeenCalledWith(expect.objectContaining({ name: 'ok.csv' }), 'batch A');
  });

  it('lists the wrong rows of a refused file, and runs the caller\'s own check first', async () => {
    const send = vi.fn(async () => {
      throw new LogicError('1 rows of the file are wrong', 20700, { errorCount: 1, errors: [{ row: 3, sn: 'SS1', column: 'SN', reason: 'is required' }] });
    });
    const validate = vi.fn(() => true);
    show({ send, validate });
    choose(new File(['sn'], 'ok.csv'));
    fireEvent.click(screen.getByTestId('dsim-import-submit'));
    const table = await screen.findByTestId('dsim-import-errors');
    expect(within(table).getByText('SS1')).toBeInTheDocument();
    expect(within(table).getByText('is required')).toBeInTheDocument();
    expect(screen.getByTestId('dsim-import-error')).toHaveTextContent('1 rows of the file are wrong');
    expect(validate).toHaveBeenCalled();
  });
});
