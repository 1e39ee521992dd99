import { describe, it, expect, beforeEach } from 'vitest';
import { useState } from 'react';
import { render, screen, fireEvent } from '@testing-library/react';
import { setLanguage } from '../../../locales/i18n.ts';
import { WhitelistEditor } from './WhitelistEditor.tsx';

function Harness({ initial }: { initial: string[] }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <WhitelistEditor value={value} onChange={setValue} />
      <output data-testid="value">{value.join(',')}</output>
    </>
  );
}

const type = (text: string) => {
  fireEvent.change(screen.getByTestId('whitelist-input'), { target: { value: text } });
  fireEvent.click(screen.getByTestId('whitelist-add'));
};
const ips = (n: number) => Array.from({ length: n }, (_, i) => `10.0.0.${i + 1}`);

describe('WhitelistEditor', () => {
  beforeEach(() => setLanguage('en'));

  it('adds pasted entries and counts them against the limit', () => {
    render(<Harness initial={[]} />);
    expect(screen.getByTestId('whitelist-count')).toHaveTextContent('0 / 32');
    type('iot.example.com; 203.0.113.0/24\n8.8.8.8');
    expect(screen.getByTestId('value')).toHaveTextContent('iot.example.com,203.0.113.0/24,8.8.8.8');
    expect(screen.getByTestId('whitelist-count')).toHaveTextContent('3 / 32');
    expect(screen.getByTestId('whitelist-input')).toHaveValue('');
  });

  it('refuses the 33rd entry on the field, naming the limit', () => {
    render(<Harness initial={ips(32)} />);
    expect(screen.getByTestId('whitelist-count')).toHaveTextContent('32 / 32');
    type('a.example.com');
    expect(screen.getByTestId('whitelist-error')).toHaveTextContent('The whitelist holds at most 32 domain names or addresses: entry 33 is one too many');
    expect(screen.getByTestId('value').textContent?.split(',')).toHaveLength(32);
    expect(screen.getByTestId('whitelist-input')).toHaveValue('a.example.com');
  });

  it('shows invalid and duplicate entries in Chinese too', async () => {
    await setLanguage('zh');
    render(<Harness initial={['a.example.com']} />);
    type('999.1.1.1');
    expect(screen.getByTestId('whitelist-error')).toHaveTextContent('“999.1.1.1”不是有效的域名、IPv4 地址或 IPv4 网段');
    type('A.example.com');
    expect(screen.getByTestId('whitelist-error')).toHaveTextContent('不能重复填写：A.example.com');
    expect(screen.getByTestId('value')).toHaveTextContent(/^a\.example\.com$/);
  });
});
