import { describe, it, expect, beforeEach } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Button, Form } from 'antd';
import { setLanguage } from '../../../../locales/i18n.ts';
import { renderAt } from '../../../../test/render.tsx';
import { NUMBER_MATCH_DEFAULTS, numberField, numberMatchFilters } from './numberMatch.tsx';
import { cardFilters } from './index.tsx';

describe('number match modes → list filters', () => {
  it('sends a mode only when it is not the default and its number has a value', () => {
    expect(numberMatchFilters({ ...NUMBER_MATCH_DEFAULTS, iccid: '123456' })).toEqual({ iccid: '123456' });
    expect(numberMatchFilters({ iccidMatch: 'contains', iccid: '123456', msisdnMatch: 'prefix', msisdn: '1064', imsiMatch: 'contains' }))
      .toEqual({ iccid: '123456', iccidMatch: 'contains', msisdn: '1064', msisdnMatch: 'prefix' });
    expect(numberMatchFilters({ iccidMatch: 'exact', iccid: '  ', imsiMatch: 'exact', imsi: '460001234567890' })).toEqual({ iccid: '  ', imsi: '460001234567890' });
    // the whole card list transform keeps them
    expect(cardFilters({ iccidMatch: 'contains', iccid: '901234', online: 'yes' })).toEqual({ iccid: '901234', iccidMatch: 'contains', online: true });
  });
});

function Harness({ onFinish }: { onFinish: (v: Record<string, unknown>) => void }) {
  const [form] = Form.useForm();
  const field = numberField('msisdn', 'MSISDN');
  return (
    <Form form={form} initialValues={NUMBER_MATCH_DEFAULTS} onFinish={onFinish}>
      {field.type === 'item' ? field.item : null}
      <Button htmlType="submit">go</Button>
    </Form>
  );
}

describe('a number filter with its match mode', () => {
  beforeEach(async () => {
    await setLanguage('en');
  });
  it('says what the chosen mode expects and refuses "contains" under 6 digits, in both languages', async () => {
    const sent: Record<string, unknown>[] = [];
    renderAt('/', [{ path: '/', element: <Harness onFinish={(v) => sent.push(v)} /> }]);
    const input = screen.getByTestId('card-search-msisdn') as HTMLInputElement;
    expect(input.placeholder).toBe('MSISDN');
    const select = screen.getByTestId('card-search-msisdn-match').querySelector('input')!;
    fireEvent.mouseDown(select);
    fireEvent.click(await screen.findByTitle('Contains'));
    await waitFor(() => expect(input.placeholder).toBe('6 or more digits, anywhere'));
    fireEvent.change(input, { target: { value: '12345' } });
    fireEvent.click(screen.getByText('go'));
    expect(await screen.findByText('"Contains" needs at least 6 digits')).toBeInTheDocument();
    expect(sent).toEqual([]);
    await act(() => setLanguage('zh'));
    fireEvent.click(screen.getByText('go'));
    expect(await screen.findByText('“包含”至少需要 6 位数字')).toBeInTheDocument();
    fireEvent.change(input, { target: { value: '123456' } });
    fireEvent.click(screen.getByText('go'));
    await waitFor(() => expect(sent).toEqual([{ msisdn: '123456', msisdnMatch: 'contains' }]));
  });
});
