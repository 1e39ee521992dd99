import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { WithdrawState, fenToMoney, formatMoney, moneyToFen } from '@lynx/contract';
import { POLL, api, apiLogin, dialog, launch, login, newPage, row, shot, visible } from './support.ts';

/**
 * Issue 13, withdrawals: an enterprise applies (the dialog shows what it can withdraw, the payee and the expected
 * arrival), a second application is refused with the spec's message, admin approves and starts the payout run, the
 * withdrawal shows paid and the withdrawable balance is lower by the amount.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const shared = { no: '', id: 0, before: '' };

describe('withdrawals', () => {
  it('an enterprise applies for a withdrawal and the amount is held (en)', async () => {
    const token = await apiLogin('enterprise');
    const info = (await api<{ withdrawable: string; inProgress: unknown }>('core/finance/withdraw/getApplyInfo', {}, token)).data;
    expect(info.inProgress).toBeNull();
    shared.before = info.withdrawable;

    const page = await newPage(browser, 'en');
    await login(page, 'enterprise');
    await page.goto('/business/withdraw/list');
    await visible(page).getByTestId('withdraw-apply').click();
    const form = dialog(page);
    await expect.poll(() => form.getByTestId('withdraw-withdrawable').innerText(), POLL).toBe(formatMoney(info.withdrawable));
    expect(await form.getByTestId('withdraw-payee').innerText()).toContain('6225880212345678');
    expect(await form.getByTestId('withdraw-expected').innerText()).toMatch(/paid out in the run on \d{4}-\d{2}-10 and should arrive by \d{4}-\d{2}-\d{2}/);
    // over the withdrawable balance: refused in the form, nothing sent
    await form.getByTestId('withdraw-amount').fill(fenToMoney(moneyToFen(info.withdrawable)! + 1n));
    await form.getByTestId('withdraw-apply-ok').click();
    await expect.poll(() => form.innerText(), POLL).toContain('Insufficient for withdrawal');
    await form.getByTestId('withdraw-amount').fill('1000');
    await shot(page, 'withdraw-apply-en');
    await form.getByTestId('withdraw-apply-ok').click();
    await page.getByTestId('withdraw-apply-confirm').click();

    type W = { withdrawId: number; withdrawNo: string; amount: string; state: number };
    await expect.poll(async () => {
      const list = (await api<{ list: W[] }>('core/finance/withdraw/getWithdrawListPage', { pageSize: 10 }, token)).data.list;
      const w = list.find((r) => r.amount === '1000.00' && r.state === WithdrawState.Applied);
      if (w) Object.assign(shared, { no: w.withdrawNo, id: w.withdrawId });
      return !!w;
    }, POLL).toBe(true);
    const line = row(page, shared.no);
    await line.waitFor();
    expect(await line.innerText()).toContain('1,000.00');
    expect(await line.innerText()).toContain(WithdrawState.label(WithdrawState.Applied, 'en'));
    await page.context().close();
  });

  it('a second application while one is in progress is refused with the message (zh)', async () => {
    expect(shared.id, 'the withdrawal of the step before').toBeGreaterThan(0);
    const page = await newPage(browser, 'zh');
    await login(page, 'enterprise');
    await page.goto('/business/withdraw/list');
    await visible(page).getByTestId('withdraw-apply').click();
    const form = dialog(page);
    await expect.poll(() => form.getByTestId('withdraw-in-progress').innerText(), POLL).toContain('有提现正在处理中，暂不能发起新的提现');
    expect(await form.getByTestId('withdraw-in-progress').innerText()).toContain(shared.no);
    expect(await form.getByTestId('withdraw-apply-ok').isDisabled()).toBe(true);
    await shot(page, 'withdraw-in-progress-zh');
    // and the server says the same to a call that tries anyway
    const r = await api('core/finance/withdraw/apply', { amount: '1.00' }, await apiLogin('enterprise'));
    expect(r.msg).toBe('A withdrawal cannot be started while one is being processed');
    await page.context().close();
  });

  it('admin approves and runs the payout; the withdrawal shows paid and the balance is lower (en)', async () => {
    expect(shared.id, 'the withdrawal of the first step').toBeGreaterThan(0);
    const page = await newPage(browser, 'en');
    await login(page, 'admin');
    await page.goto('/business/withdraw/list');
    const line = row(page, shared.no);
    await line.waitFor();
    await line.getByTestId(`withdraw-approve-${shared.id}`).click();
    await page.getByTestId('withdraw-approve-ok').click();
    await expect.poll(() => line.innerText(), POLL).toContain(WithdrawState.label(WithdrawState.Approved, 'en'));

    await visible(page).getByTestId('withdraw-run').click();
    await page.getByTestId('withdraw-run-ok').click();
    const runs = dialog(page);
    await expect.poll(() => runs.innerText(), POLL).toContain('admin');
    await expect.poll(() => runs.innerText(), { timeout: 30_000 }).toContain('Finished');
    await shot(page, 'withdraw-runs-en');
    await runs.getByRole('button', { name: 'Close' }).last().click();
    await expect.poll(() => line.innerText(), { timeout: 30_000 }).toContain(WithdrawState.label(WithdrawState.Paid, 'en'));
    await shot(page, 'withdraw-paid-en');
    await page.context().close();

    // the customer's screen: paid, and 1,000.00 less to withdraw
    const customer = await newPage(browser, 'en');
    await login(customer, 'enterprise');
    await customer.goto('/business/withdraw/list');
    const mine = row(customer, shared.no);
    await mine.waitFor();
    await expect.poll(() => mine.innerText(), POLL).toContain(WithdrawState.label(WithdrawState.Paid, 'en'));
    await visible(customer).getByTestId('withdraw-apply').click();
    const after = fenToMoney(moneyToFen(shared.before)! - 100000n);
    await expect.poll(() => dialog(customer).getByTestId('withdraw-withdrawable').innerText(), POLL).toBe(formatMoney(after));
    await customer.context().close();
  });

  it('staff keep the working-day calendar: add a holiday, see it, delete it (en); a customer reads it (zh)', async () => {
    const page = await newPage(browser, 'en');
    await login(page, 'admin');
    await page.goto('/business/withdraw/list');
    await visible(page).getByTestId('withdraw-calendar').click();
    await page.waitForURL('**/business/withdraw/holidays');
    const table = visible(page).locator('.ant-table');
    await expect.poll(() => table.innerText(), POLL).toContain('2026-10-01');
    expect(await table.innerText()).toContain('National Day');
    expect(await table.innerText()).toContain('Make-up working day');
    await visible(page).getByTestId('calendar-add').click();
    const form = dialog(page);
    await form.getByTestId('calendar-day').click();
    await page.keyboard.type('2026-12-31');
    await page.keyboard.press('Enter');
    await form.locator('#name').fill('Year-end closing');
    await form.getByRole('button', { name: /Save/ }).click();
    await expect.poll(() => table.innerText(), POLL).toContain('Year-end closing');
    await shot(page, 'withdraw-calendar-en');
    const added = row(page, '2026-12-31');
    await added.getByRole('button', { name: 'Delete' }).click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => table.innerText(), POLL).not.toContain('Year-end closing');
    await page.context().close();

    const customer = await newPage(browser, 'zh');
    await login(customer, 'enterprise');
    await customer.goto('/business/withdraw/holidays');
    await expect.poll(() => visible(customer).innerText(), POLL).toContain('只有平台人员可以修改工作日历');
    expect(await visible(customer).getByTestId('calendar-add').count()).toBe(0);
    await expect.poll(() => visible(customer).locator('.ant-table').innerText(), POLL).toContain('国庆节');
    await shot(customer, 'withdraw-calendar-zh');
    await customer.context().close();
  });
});
