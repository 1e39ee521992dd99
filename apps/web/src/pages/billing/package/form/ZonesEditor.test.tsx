import { describe, it, expect, beforeEach } from 'vitest';
import { render, screen, fireEvent, waitFor } from '@testing-library/react';
import { App as AntApp, Form, type FormInstance } from 'antd';
import { setLanguage } from '../../../../locales/i18n.ts';
import { ZonesEditor } from './ZonesEditor.tsx';
import { priceText } from '../money.ts';
import type { ServiceOption, ZoneValue } from './zones.ts';

const services = new Map<number, ServiceOption>([
  [1, { commservId: 1, name: 'Internet', qosCount: 2, whitelistCount: 0 }],
  [2, { commservId: 2, name: 'Bare', qosCount: 0, whitelistCount: 0 }],
]);

function Harness({ zones, onForm }: { zones: ZoneValue[]; onForm?: (form: FormInstance) => void }) {
  const [form] = Form.useForm();
  onForm?.(form);
  return (
    <AntApp>
      <Form form={form} initialValues={{ zones }}>
        <ZonesEditor form={form} services={services} loading={false} />
        <button type="button" onClick={() => void form.validateFields().catch(() => undefined)}>validate</button>
      </Form>
    </AntApp>
  );
}

beforeEach(async () => {
  await setLanguage('en');
});

describe('zones editor', () => {
  it('adds zones up to ten and refuses the eleventh with the spec message', async () => {
    render(<Harness zones={[]} />);
    expect(screen.getByText(/No zones yet/)).toBeInTheDocument();
    const add = screen.getByTestId('zone-add');
    for (let i = 0; i < 10; i++) fireEvent.click(add);
    await waitFor(() => expect(screen.getByText('10 / 10 zones')).toBeInTheDocument());
    expect(screen.queryByTestId('zone-limit-error')).toBeNull();
    expect(screen.getAllByTestId(/^zone-\d+-services$/)).toHaveLength(10);
    fireEvent.click(add);
    expect(await screen.findByTestId('zone-limit-error')).toHaveTextContent('Zones: a plan has at most 10 zones');
    expect(screen.getByText('10 / 10 zones')).toBeInTheDocument();
  });

  it('shows a service repeated across zones on both zone fields', async () => {
    render(<Harness zones={[{ zoneName: 'North', commservIds: [1] }, { zoneName: 'South', commservIds: [1, 2] }]} />);
    fireEvent.click(screen.getByText('validate'));
    expect(await screen.findByText('Zone "North": do not select the same communication service (Internet)')).toBeInTheDocument();
    expect(screen.getByText('Zone "South": do not select the same communication service (Internet)')).toBeInTheDocument();
  });

  it('refuses a service without QoS', async () => {
    render(<Harness zones={[{ zoneName: 'East', commservIds: [2] }]} />);
    fireEvent.click(screen.getByText('validate'));
    expect(await screen.findByText('Zone "East": communication service "Bare" has no QoS configured, select again')).toBeInTheDocument();
  });

  it('keeps a zone price as exact text, typed or loaded', async () => {
    let form: FormInstance | undefined;
    render(<Harness zones={[{ zoneName: 'West', price: '123456789012.34', commservIds: [] }]} onForm={(f) => { form = f; }} />);
    const input = screen.getByLabelText('Zone price (CNY)');
    expect(input).toHaveValue('123456789012.34');
    fireEvent.change(input, { target: { value: '0.1' } });
    fireEvent.blur(input);
    await waitFor(() => expect(input).toHaveValue('0.10'));
    expect(form!.getFieldValue(['zones', 0, 'price'])).toBe('0.1');
    const price: unknown = form!.getFieldValue(['zones', 0, 'price']);
    expect(typeof price).toBe('string');
    expect(priceText(price as string)).toBe('0.10');
  });

  it.each([
    ['en', '19.999', 'Zone price: an amount must not be negative and has at most two decimals'],
    ['en', '0.125', 'Zone price: an amount must not be negative and has at most two decimals'],
    ['zh', '19.999', '区域价格：金额不能为负，最多两位小数'],
  ] as const)('refuses a zone price with more than two decimals at the field, never rounding it (%s, %s)', async (lang, typed, text) => {
    await setLanguage(lang);
    let form: FormInstance | undefined;
    render(<Harness zones={[{ zoneName: 'West', price: '39.90', commservIds: [] }]} onForm={(f) => { form = f; }} />);
    const input = screen.getByLabelText(lang === 'zh' ? '区域价格（元）' : 'Zone price (CNY)');
    // a saved price shows as it was saved
    expect(input).toHaveValue('39.90');
    fireEvent.change(input, { target: { value: typed } });
    fireEvent.blur(input);
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(input).toHaveValue(typed);
    expect(form!.getFieldValue(['zones', 0, 'price'])).toBe(typed);
    // the user's own fix is accepted
    fireEvent.change(input, { target: { value: '19.99' } });
    fireEvent.blur(input);
    await waitFor(() => expect(screen.queryByText(text)).toBeNull());
    expect(form!.getFieldValue(['zones', 0, 'price'])).toBe('19.99');
  });
});
