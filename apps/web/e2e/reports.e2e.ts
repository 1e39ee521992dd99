import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { ReportPeriod, formatMoney } from '@lynx/contract';
import { POLL, api, apiLogin, launch, login, newPage, row, shot, visible } from './support.ts';

/**
 * Issue 14, Financial › Accounting reports: the server builds the closed days at start (the demo's opening balances
 * were brought in 30 days back), finance reads the monthly report with its totals, opens a month and sees each
 * customer's statement; a channel customer sees only its tree, in English.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

type Row = { id: string; carriedIn: string; closing: string };
const HD = '华电智能表计有限公司';
const ZX = '智行物流科技有限公司';

/** The month whose report holds the demo's opening balances (built by the job the server ran at start). */
async function openingMonth(token: string): Promise<Row> {
  let found: Row | undefined;
  await expect.poll(async () => {
    const list = (await api<{ list: Row[] }>('core/finance/report/getAccountingReportListPage', { type: ReportPeriod.Monthly, pageSize: 50 }, token)).data?.list ?? [];
    found = list.find((r) => r.carriedIn !== '0.00');
    return !!found;
  }, { timeout: 60_000 }).toBe(true);
  return found!;
}

describe('accounting reports', () => {
  it('finance reads the monthly reports, their totals and a month\'s statements (zh)', async () => {
    const month = await openingMonth(await apiLogin('admin'));
    const page = await newPage(browser, 'zh');
    await login(page, 'admin');
    await page.goto('/financial/report/list');
    const screen = visible(page);
    expect(await screen.getByTestId('report-formula').innerText()).toContain('期初余额 + 余额导入');
    await screen.getByTestId('report-type').getByText('月报').click();
    const line = row(page, month.id);
    await line.waitFor();
    // the demo's opening balances brought in: 50,000 + 120,000
    expect(await line.innerText()).toContain('+170,000.00');
    await expect.poll(() => screen.getByTestId('report-totals').innerText(), POLL).toContain('合计');
    await shot(page, 'report-list-zh');

    await screen.getByTestId(`report-row-${month.id}`).click();
    await page.waitForURL(`**/financial/report/detail/${month.id}/${ReportPeriod.Monthly}`);
    const detail = visible(page);
    await expect.poll(() => detail.getByTestId('report-figure-in').innerText(), POLL).toContain('170,000.00');
    const zx = row(page, ZX);
    await zx.waitFor();
    expect(await zx.innerText()).toContain('+50,000.00');
    expect(await row(page, HD).innerText()).toContain('+120,000.00');
    await shot(page, 'report-detail-zh');
    await page.context().close();
  });

  it('a channel customer sees only its own tree\'s money (en)', async () => {
    const token = await apiLogin('channel');
    const month = await openingMonth(token);
    expect(month.carriedIn).toBe('120000.00');
    const page = await newPage(browser, 'en');
    await login(page, 'channel');
    await page.goto('/financial/report/list');
    const screen = visible(page);
    await screen.getByTestId('report-type').getByText('Monthly').click();
    const line = row(page, month.id);
    await line.waitFor();
    expect(await line.innerText()).toContain(`+${formatMoney('120000.00')}`);
    expect(await line.innerText()).not.toContain('170,000.00');
    await shot(page, 'report-list-en');
    await screen.getByTestId(`report-row-${month.id}`).click();
    await page.waitForURL(`**/financial/report/detail/${month.id}/${ReportPeriod.Monthly}`);
    await row(page, HD).waitFor();
    expect(await row(page, ZX).count()).toBe(0);
    await shot(page, 'report-detail-en');
    await page.context().close();
  });
});
