import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Form } from 'antd';
import { renderAt } from '../test/render.tsx';
import { setLanguage } from '../locales/i18n.ts';
import { useSession } from '../stores/session.ts';
import { SearchForm, activeCount, primaryFields, type SearchField } from './SearchForm.tsx';
import { loadMoreFilters } from './searchFormPrefs.ts';

const signIn = (loginName: string) =>
  useSession.getState().signIn({ accessToken: 'tok-123456789012345678901', roleId: 3000, loginName, userName: loginName, channelCustId: 1, custId: 1, permissions: [], mustResetPassword: false });

const text = (name: string, extra: Partial<SearchField> = {}) => ({ name, label: name.toUpperCase(), ...extra }) as SearchField;
const six = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => text(n));

function Harness({ fields, listKey }: { fields: SearchField[]; listKey?: string }) {
  const [form] = Form.useForm();
  return <SearchForm form={form} fields={fields} listKey={listKey} onFinish={() => {}} onReset={() => form.resetFields()} />;
}
const show = (fields: SearchField[], listKey?: string) => renderAt('/list', [{ path: '/list', element: <Harness fields={fields} listKey={listKey} /> }]);
const input = (name: string) => screen.getByPlaceholderText(name.toUpperCase());
// folded-away fields mount just after the form has drawn
const later = (name: string) => screen.findByPlaceholderText(name.toUpperCase());
const toggle = () => screen.getByTestId('search-more');

beforeEach(async () => {
  localStorage.clear();
  await setLanguage('en');
  signIn('alice');
});

describe('which filters stay on screen', () => {
  it.each([
    ['three fit one row with the buttons: nothing folded', six.slice(0, 3), null],
    ['without marks, the first three', six, ['a', 'b', 'c']],
    ['the marked ones, wherever they are', [text('a'), text('b', { primary: true }), text('c'), text('d', { primary: true })], ['b', 'd']],
    ['all marked: nothing folded', [text('a', { primary: true }), text('b', { primary: true })], null],
  ])('%s', (_, fields, shown) => {
    const s = primaryFields(fields);
    expect(s && [...s]).toEqual(shown);
  });

  it('counts the folded-away filters that have a value, a range once', () => {
    const fields = [text('a'), text('b'), text('c'), text('range', { names: ['from', 'to'] }), text('d'), text('e')];
    const shown = primaryFields(fields)!;
    expect(activeCount(fields, shown, {})).toBe(0);
    // shown fields never count; blanks, empty lists and cleared ranges are no filter
    expect(activeCount(fields, shown, { a: 'x', d: '  ', e: [], from: null, to: undefined })).toBe(0);
    expect(activeCount(fields, shown, { from: '1', to: '2', d: 0, e: [3] })).toBe(3);
    expect(activeCount(fields, shown, { to: '2', e: [null, null] })).toBe(1);
  });
});

describe('the "more filters" toggle', () => {
  it('starts folded with only the primary fields, and opens to show the rest', async () => {
    show(six);
    for (const n of ['a', 'b', 'c']) expect(input(n)).toBeVisible();
    for (const n of ['d', 'e', 'f']) expect(await later(n)).not.toBeVisible();
    expect(toggle()).toHaveTextContent(/^More filters$/);
    expect(toggle()).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(toggle());
    for (const n of ['a', 'b', 'c', 'd', 'e', 'f']) expect(input(n)).toBeVisible();
    expect(toggle()).toHaveAttribute('aria-expanded', 'true');
  });

  it('shows how many folded-away filters have a value', async () => {
    show(six);
    fireEvent.click(toggle());
    fireEvent.change(input('d'), { target: { value: '8986' } });
    fireEvent.change(input('f'), { target: { value: 'x' } });
    fireEvent.change(input('a'), { target: { value: 'shown, not counted' } });
    fireEvent.click(toggle());
    await waitFor(() => expect(toggle()).toHaveTextContent('More filters (2)'));
    expect(input('d')).not.toBeVisible();
    fireEvent.change(input('f'), { target: { value: '' } });
    await waitFor(() => expect(toggle()).toHaveTextContent('More filters (1)'));
  });

  it('speaks Chinese', async () => {
    await setLanguage('zh');
    show(six);
    expect(toggle()).toHaveTextContent('更多筛选');
  });

  it('is remembered per login name and per list after a remount', async () => {
    const first = show(six, 'cards');
    fireEvent.click(toggle());
    expect(loadMoreFilters('alice', 'cards')).toBe(true);
    first.unmount();

    const again = show(six, 'cards');
    expect(input('e')).toBeVisible();
    expect(toggle()).toHaveAttribute('aria-expanded', 'true');
    again.unmount();

    // another list of the same user, and the same list of another user, start folded
    const other = show(six, 'pools');
    expect(await later('e')).not.toBeVisible();
    other.unmount();
    act(() => signIn('bob'));
    show(six, 'cards');
    expect(await later('e')).not.toBeVisible();
  });

  it('leaves a form that fits one row as it is', () => {
    show(six.slice(0, 3));
    expect(screen.queryByTestId('search-more')).toBeNull();
    for (const n of ['a', 'b', 'c']) expect(input(n)).toBeVisible();
  });

  it('draws the folded-away fields after the first frame; a search before that still carries their values', async () => {
    let sent: Record<string, unknown> | null = null;
    function Early() {
      const [form] = Form.useForm();
      return <SearchForm form={form} fields={six} initialValues={{ e: 'remembered' }} onFinish={(v) => { sent = v; }} onReset={() => form.resetFields()} />;
    }
    renderAt('/list', [{ path: '/list', element: <Early /> }]);
    // the first frame: the three primary fields only
    expect(screen.queryByPlaceholderText('E')).toBeNull();
    fireEvent.change(input('a'), { target: { value: '8986' } });
    fireEvent.click(screen.getByRole('button', { name: /Search/ }));
    await waitFor(() => expect(sent).toMatchObject({ a: '8986', e: 'remembered' }));
    expect(await later('e')).toHaveValue('remembered');
  });

  it('opens at once, folded-away fields and all, when asked before they were drawn', () => {
    show(six);
    fireEvent.click(toggle());
    for (const n of ['d', 'e', 'f']) expect(input(n)).toBeVisible();
  });
});
