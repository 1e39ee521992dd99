import { describe, it, expect, beforeEach, vi } from 'vitest';
import { render, screen, fireEvent, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ErrorCode } from '@lynx/contract';
import { setLanguage } from '../../../locales/i18n.ts';
import { LogicError } from '../../../request/http.ts';
import { ImportPage } from './ImportPage.tsx';

const upload = vi.hoisted(() => vi.fn());
vi.mock('../../../request/http.ts', async (importOriginal) => ({ ...(await importOriginal<object>()), upload }));

const renderPage = () =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={['/operator/goods-import/add']}>
        <App>
          <ImportPage listPath="/operator/goods-import/list" />
        </App>
      </MemoryRouter>
    </QueryClientProvider>,
  );

const choose = (name: string) => {
  const input = screen.getByTestId('goods-upload').querySelector('input[type=file]') ?? document.querySelector('input[type=file]');
  fireEvent.change(input!, { target: { files: [new File(['x'], name)] } });
};

describe('operator plan import page', () => {
  beforeEach(async () => {
    upload.mockReset();
    await setLanguage('en');
  });

  it('asks for a file before calling the server', async () => {
    renderPage();
    fireEvent.click(screen.getByTestId('goods-import-submit'));
    expect(await screen.findByTestId('goods-file-error')).toHaveTextContent('Please upload a file');
    expect(upload).not.toHaveBeenCalled();
  });

  it('refuses other file types in the browser', async () => {
    renderPage();
    choose('plans.pdf');
    expect(await screen.findByTestId('goods-file-error')).toHaveTextContent('Only .xlsx and .csv files');
    fireEvent.click(screen.getByTestId('goods-import-submit'));
    expect(upload).not.toHaveBeenCalled();
  });

  it('lists every bad row (row, column, reason) when the server refuses the file', async () => {
    upload.mockRejectedValue(
      new LogicError('The file has 2 errors; no plan was imported.', ErrorCode.OperatorGoodsImportInvalid, {
        total: 3,
        errors: [
          { row: 3, column: 'Operator plan code', reason: 'is required' },
          { row: 4, column: 'Quota unit', reason: 'for this plan type the unit must be messages' },
        ],
      }),
    );
    renderPage();
    choose('plans.csv');
    fireEvent.click(screen.getByTestId('goods-import-submit'));
    const errors = await screen.findByTestId('goods-import-errors');
    expect(errors).toHaveTextContent('The file has 2 errors; no plan was imported');
    expect(errors).toHaveTextContent('3 data rows');
    const rows = errors.querySelectorAll('tbody tr');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toHaveTextContent('4Quota unitfor this plan type the unit must be messages');
    await waitFor(() => expect(upload).toHaveBeenCalledTimes(1));
    expect((upload.mock.calls[0][1] as File).name).toBe('plans.csv');
  });
});
