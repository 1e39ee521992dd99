import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CreditChangeAction, CreditType, JournalKind, formatMoney } from '@lynx/contract';
import { POLL, api, apiLogin, dialog, launch, login, newPage, pick, row, shot, visible } from './support.ts';

/**
 * Issue 13, the money screens: finance grants credit to a customer and changes it, and the change log shows both
 * (en and zh); the capital list and one customer's ledger show balances, the running balance and a kind filter;
 * the business customer list shows the balance columns; a customer sees its company balances on the home overview.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const ZX = '智行物流科技有限公司';
const HD = '华电智能表计有限公司';
const shared = { creditId: 0, creditNo: '' };
/** The row of a customer list whose first cell is exactly this name (its sub-customers name it as their parent). */
const custRow = (page: Page, name: string) =>
  visible(page).locator('tr.ant-table-row').filter({ has: page.locator('td:first-child', { hasText: new RegExp(`^\\s*${name}\\s*$`) }) });

describe('money screens', () => {
  it('admin grants credit to a customer and the change log shows it (en)', async () => {
    const page = await newPage(browser, 'en');
    await login(page, 'admin');
    await page.goto('/financial/credit/list');
    await visible(page).getByTestId('credit-add').click();
    const form = dialog(page);
    await pick(page, form, 'custId', HD);
    await form.getByText(CreditType.label(CreditType.Fixed, 'en'), { exact: true }).click();
    await form.getByTestId('credit-amount').fill('3000');
    await form.getByTestId('credit-term').fill('45');
    await shot(page, 'credit-add-en');
    await form.getByTestId('credit-save').click();

    const token = await apiLogin('admin');
    type Credit = { creditId: number; creditNo: string; amount: string; createdBy: string };
    let created: Credit | undefined;
    await expect.poll(async () => {
      const list = (await api<{ list: Credit[] }>('core/finance/credit/getCreditListPage', { custName: HD, pageSize: 50 }, token)).data.list;
      created = list.find((r) => r.amount === '3000.00' && r.createdBy === 'admin');
      return !!created;
    }, POLL).toBe(true);
    if (!created) throw new Error('the new credit order');
    Object.assign(shared, { creditId: created.creditId, creditNo: created.creditNo });
    const line = row(page, created.creditNo);
    await line.waitFor();
    expect(await line.innerText()).toContain('3,000.00');
    expect(await line.innerText()).toContain('45 days');
    expect(await line.innerText()).toContain('Valid');

    await line.getByTestId(`credit-log-${created.creditId}`).click();
    await page.waitForURL(`**/financial/credit/change-log/${created.creditId}`);
    const log = visible(page);
    await expect.poll(() => log.getByTestId('credit-log-head').innerText(), POLL).toContain(created.creditNo);
    await expect.poll(() => log.getByTestId('credit-log-table').innerText(), POLL).toContain(CreditChangeAction.label(CreditChangeAction.Create, 'en'));
    expect(await log.getByTestId('credit-log-table').innerText()).toContain('3,000.00');
    expect(await log.getByTestId('credit-log-table').innerText()).toContain('admin');
    await shot(page, 'credit-change-log-en');
    await page.context().close();
  });

  it('admin raises the credit with a reason and the change log shows before and after (zh)', async () => {
    expect(shared.creditId, 'the credit of the step before').toBeGreaterThan(0);
    const page = await newPage(browser, 'zh');
    await login(page, 'admin');
    await page.goto('/financial/credit/list');
    const line = row(page, shared.creditNo);
    await line.waitFor();
    await line.getByTestId(`credit-edit-${shared.creditId}`).click();
    const form = dialog(page);
    await form.getByTestId('credit-amount').fill('3500.50');
    await form.getByTestId('credit-reason').fill('E2E 业务量增长');
    await form.getByTestId('credit-save').click();
    await expect.poll(() => row(page, shared.creditNo).innerText(), POLL).toContain('3,500.50');

    await page.goto(`/financial/credit/change-log/${shared.creditId}`);
    const table = visible(page).getByTestId('credit-log-table');
    await expect.poll(() => table.innerText(), POLL).toContain(CreditChangeAction.label(CreditChangeAction.Edit, 'zh'));
    const text = await table.innerText();
    expect(text).toContain('E2E 业务量增长');
    expect(text).toContain('3,000.00');
    expect(text).toContain('3,500.50');
    await shot(page, 'credit-change-log-zh');
    await page.context().close();
  });

  it('the capital list and a customer\'s ledger show balances with the running balance and a kind filter (zh)', async () => {
    const page = await newPage(browser, 'zh');
    await login(page, 'admin');
    await page.goto('/business/capital/list');
    const list = visible(page);
    // staff see the last nightly balance check (none yet on a fresh database, or a passed one)
    await list.getByTestId('ledger-check').waitFor();
    const header = await list.locator('.ant-table-thead').innerText();
    for (const title of ['预存款（元）', '赠送金（元）', '合同款（元）', '授信（元）', '提现冻结（元）', '可用余额（元）']) expect(header).toContain(title);
    const token = await apiLogin('admin');
    const zxId = (await api<{ list: { custId: number }[] }>('core/finance/capital/getCapitalListPage', { custName: ZX }, token)).data.list[0].custId;
    const money = (await api<Record<string, string>>('core/finance/capital/getCapitalDetail', { custId: zxId }, token)).data;
    const zx = custRow(page, ZX);
    await zx.waitFor();
    // pre-deposit + grants + contract payments + credit (the demo: 50,000 + 10,000)
    expect(await zx.innerText()).toContain(formatMoney(money.available));
    await shot(page, 'capital-list-zh');

    await zx.getByTestId(/capital-row-/).click();
    await page.waitForURL('**/business/capital/detail/info/**');
    const detail = visible(page);
    await expect.poll(() => detail.getByTestId('capital-balances-available').innerText(), POLL).toContain(formatMoney(money.available));
    expect(await detail.getByTestId('capital-balances-credit').innerText()).toContain(formatMoney(money.credit));
    const opening = JournalKind.label(JournalKind.Opening, 'zh');
    const first = detail.locator('tr.ant-table-row', { hasText: opening }).first();
    await first.waitFor();
    // the posting's amount and the account's balance right after it
    expect(await first.innerText()).toContain('+50,000.00');
    expect(await first.innerText()).toContain('50,000.00');
    await shot(page, 'capital-ledger-zh');

    // the kind filter: the opening journal only, then top-ups only (none in the demo; other specs may add some)
    const search = detail.locator('form').first();
    await pick(page, search, 'kind', opening);
    await search.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(async () => new Set((await detail.locator('tr.ant-table-row td:nth-child(3)').allInnerTexts()).map((s) => s.trim())), POLL).toEqual(new Set([opening]));
    const recharge = JournalKind.label(JournalKind.Recharge, 'zh');
    await pick(page, search, 'kind', recharge);
    await search.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(async () => (await detail.locator('tr.ant-table-row td:nth-child(3)').allInnerTexts()).every((s) => s.trim() === recharge), POLL).toBe(true);
    expect(await detail.locator('tr.ant-table-row', { hasText: opening }).count()).toBe(0);
    await shot(page, 'capital-ledger-filtered-zh');
    await page.context().close();
  });

  it('the business customer list shows the balance columns, and a customer sees its company balances at home (en)', async () => {
    const token = await apiLogin('enterprise');
    const money = (await api<Record<string, string>>('busCenter/home/companyInfo', {}, token)).data;
    expect(money.custName).toBe(ZX);
    const page = await newPage(browser, 'en');
    await login(page, 'enterprise');
    await page.goto('/business/customer/list');
    const list = visible(page);
    const zx = custRow(page, ZX);
    await zx.waitFor();
    const header = await list.locator('.ant-table-thead').innerText();
    for (const title of ['Pre-deposit (CNY)', 'Grants (CNY)', 'Contract payments (CNY)', 'Credit (CNY)', 'Held for withdrawal (CNY)', 'Available (CNY)']) expect(header).toContain(title);
    expect(await zx.innerText()).toContain(formatMoney(money.preDeposit));
    expect(await zx.innerText()).toContain(formatMoney(money.available));
    await shot(page, 'business-customers-en');

    await zx.getByTestId(/customer-row-/).click();
    await page.waitForURL('**/business/customer/detail/**');
    await expect.poll(() => visible(page).getByTestId('customer-balances-available').innerText(), POLL).toContain(formatMoney(money.available));
    await shot(page, 'business-customer-detail-en');

    await page.goto('/home/index');
    const company = visible(page).getByTestId('home-company-balances');
    await expect.poll(() => company.innerText(), POLL).toContain(formatMoney(money.available));
    expect(await company.innerText()).toContain('Credit (CNY)');
    await page.context().close();
  });
});
