import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { CardState, Operator, businessToday } from '@lynx/contract';
import { POLL, api, apiLogin, baseURL, dialog, launch, login, newPage, pick, shot, visible } from './support.ts';

/**
 * Issue 14, channel bills end to end: staff import a small China Mobile bill through the dialog (en), follow it to
 * reconciled and see each result with its lines; read it in Chinese and delete it after the confirmation (zh); a file
 * with a bad line is refused as a whole and its errors are listed by line (zh).
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The last closed China Mobile period (the natural month before this one). */
function lastMonth(): string {
  const [y, m] = businessToday().split('-').map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

describe('channel bills', () => {
  it('staff import a bill, see matched, differs and missing lines in en and zh, delete it; a bad file lists its errors', { timeout: 90_000 }, async () => {
    const token = await apiLogin('admin');
    // platform stock cards have no usage: 0 KB matches, 999,999 KB differs; an ICCID the platform lacks is missing on it
    const stock = (await api<{ list: { iccid: string }[] }>('core/sim/simQuery/getSimListPage', { states: [CardState.Start], operatorId: Operator.ChinaMobile, pageSize: 2 }, token)).data.list;
    expect(stock.length, 'two China Mobile cards in the platform stock').toBe(2);
    const period = lastMonth();
    const unknown = '89860990000000000777';
    const csv = `ICCID,Period,Data (KB),SMS,Amount (CNY)\n${stock[0].iccid},${period},0,0,1.00\n${stock[1].iccid},${period},999999,0,30.00\n${unknown},${period},100,0,2.50\n`;

    const page = await newPage(browser, 'en');
    await login(page, 'admin');
    await page.goto('/billing/channelbill/list');
    await expect.poll(() => visible(page).getByTestId('channel-bill-intro').innerText(), POLL).toContain('Matched');
    await visible(page).getByTestId('channel-bill-import').click();
    const d = dialog(page);
    await pick(page, d, 'operatorId', 'China Mobile');
    await d.locator('#period').fill(period);
    await d.locator('#period').press('Enter');
    await d.getByTestId('channel-bill-source').fill(`e2e ${Date.now()}`);
    await d.locator('input[type=file]').setInputFiles({ name: 'bill.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await d.getByTestId('channel-bill-import-submit').click();
    await expect.poll(() => d.getByTestId('channel-bill-import-result').innerText(), { timeout: 30_000 }).toContain('Reconciled: matched 1, differs 1, missing on platform 1');
    await shot(page, 'channel-bill-import-en');
    await d.getByTestId('channel-bill-import-open').click();
    const detail = visible(page).getByTestId('channel-bill-detail');
    await expect.poll(() => detail.innerText(), POLL).toContain(period);
    const summary = visible(page).getByTestId('channel-bill-summary');
    await expect.poll(() => summary.innerText(), POLL).toMatch(/Matched[\s\S]*Differs[\s\S]*Missing on platform/);
    // a row of the summary lists its lines (the demo fleet's cards with usage are missing in this small bill)
    await summary.locator('tr.ant-table-row', { hasText: 'Missing on platform' }).click();
    const lines = visible(page).getByTestId('channel-bill-lines');
    await expect.poll(() => lines.innerText(), POLL).toContain(unknown);
    await shot(page, 'channel-bill-detail-en');
    const billId = Number(page.url().split('/').pop());

    // in Chinese: the same bill, then deleted after the confirmation
    const zh = await newPage(browser, 'zh');
    await login(zh, 'admin');
    await zh.goto(`/billing/channelbill/detail/${billId}`);
    await expect.poll(() => visible(zh).getByTestId('channel-bill-summary').innerText(), POLL).toMatch(/一致[\s\S]*有差异[\s\S]*平台无此卡/);
    await shot(zh, 'channel-bill-detail-zh');
    await visible(zh).getByTestId('channel-bill-detail-delete').click();
    await expect.poll(() => dialog(zh).innerText(), POLL).toContain(`删除渠道账单 ${billId}`);
    await zh.getByTestId('channel-bill-delete-confirm').click();
    await expect.poll(() => zh.url(), POLL).toContain('/billing/channelbill/list');
    expect((await api('core/finance/channelBill/detail', { billId }, token)).errorCode).not.toBeNull();

    // a bad line: nothing imported, the errors by line
    const form = new FormData();
    for (const [k, v] of Object.entries({ operatorId: '1', periodKey: period, sourceType: '2', sourceName: `e2e bad ${Date.now()}` })) form.set(k, v);
    form.set('file', new Blob([`ICCID,Data (MB),Amount (CNY)\n${stock[0].iccid},1,1.00\n1234,1,1.00\n`], { type: 'text/csv' }), 'bad.csv');
    const bad = await (await fetch(`${baseURL()}/api/cmp/core/finance/channelBill/save?lang=zh`, { method: 'POST', headers: { authorization: token }, body: form })).json() as { data: { billId: number } };
    await zh.goto(`/billing/channelbill/detail/${bad.data.billId}`);
    const errors = visible(zh).getByTestId('channel-bill-errors');
    await expect.poll(() => errors.innerText(), { timeout: 30_000 }).toContain('应为 19-20 位数字');
    await shot(zh, 'channel-bill-errors-zh');
    await api('core/finance/channelBill/delete', { billId: bad.data.billId }, token);
    await page.close();
    await zh.close();
  });
});
