import fs from 'node:fs';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { POLL, api, apiLogin, dialog, expectText, launch, login, newPage, shot, visible } from './support.ts';

/**
 * Issue 12, Home and exports: a fleet health number opens the card list with its filter; a small export downloads
 * at once; an export that runs as a download task (QR codes are always drawn by a job) shows in the header badge with a
 * notice when it is ready. (Exports of more than 10,000 rows become tasks: the demo has fewer cards, so that threshold is
 * asserted by the server tests, apps/server/test/export-direct.test.ts.)
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('home and exports', () => {
  it('a fleet health number opens the card list filtered, and the list total is that number', async () => {
    const page = await newPage(browser, 'en');
    await login(page, 'enterprise');
    await page.goto('/home/index');
    const active = visible(page).getByTestId('health-active');
    await expect.poll(async () => /\d/.test(await active.locator('.ant-statistic-content').innerText()), POLL).toBe(true);
    const n = Number((await active.locator('.ant-statistic-content').innerText()).replace(/\D/g, ''));
    // the number is the server's count for the enterprise's tree
    const token = await apiLogin('enterprise');
    const health = await api('edge/homepage/fleetHealth', {}, token);
    expect(n).toBe(health.data.activeCards);
    expect(n).toBeGreaterThan(0);
    await shot(page, 'home-health-en');
    await active.click();
    await page.waitForURL(/\/card\/card-list\/list\?states=64/);
    const list = visible(page);
    await expectText(list.locator('.ant-pagination-total-text'), `${n} in total`);
    // only activated cards are listed, and the form shows the filter
    await expect.poll(() => list.locator('tr.ant-table-row').count(), POLL).toBeGreaterThan(0);
    const states = await list.locator('tr.ant-table-row td:nth-child(5)').allInnerTexts();
    expect(new Set(states.map((s) => s.trim()))).toEqual(new Set(['Activated']));
    await expectText(list.getByTestId('card-search'), 'Activated');
    await shot(page, 'card-list-from-home-en');

    // an alert number keeps its filter beside the form, as a tag that can be removed
    await page.goto('/home/index');
    const alerts = visible(page).getByTestId('health-alerts');
    await expect.poll(async () => /\d/.test(await alerts.locator('.ant-statistic-content').innerText()), POLL).toBe(true);
    await alerts.click();
    await page.waitForURL(/alertsFrom=\d{4}-\d{2}-\d{2}/);
    await expectText(visible(page).getByTestId('card-link-filters'), `Recent alerts (since ${health.data.since})`);
    // the list behind it holds exactly the cards the number counted (in a fresh demo: none yet)
    const alerted = await api('core/sim/simQuery/getSimListPage', { alertsFrom: health.data.since, pageSize: 1 }, token);
    expect(alerted.data.total).toBe(health.data.alerts.cards);
    if (health.data.alerts.cards > 0) await expectText(visible(page).locator('.ant-pagination-total-text'), `${health.data.alerts.cards} in total`);
    await page.context().close();
  });

  it('a small export downloads at once and is listed as downloaded, with its filters in words', async () => {
    const page = await newPage(browser, 'zh');
    await login(page, 'admin');
    await page.goto('/system/userBehavior/list');
    await visible(page).locator('tr.ant-table-row').first().waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), visible(page).getByTestId('export-button').click()]);
    expect(download.suggestedFilename()).toMatch(/^用户行为日志-\d{12}\.xlsx$/);
    expect(fs.readFileSync((await download.path())!).subarray(0, 2).toString()).toBe('PK');
    await page.locator('.ant-message', { hasText: '导出完成' }).waitFor();
    await page.goto('/card/downloadtask/list');
    const task = visible(page).locator('tr.ant-table-row', { hasText: '用户行为日志' }).first();
    await task.getByText('即时导出').waitFor();
    await expect.poll(() => task.innerText(), POLL).not.toContain('未下载');
    await page.context().close();
  });

  it('an export that runs as a download task shows in the header badge, with a notice when it is ready', async () => {
    const page = await newPage(browser, 'en');
    await login(page, 'subcustomer');
    const badge = page.getByTestId('download-badge-count');
    const before = Number((await badge.locator('.ant-scroll-number').innerText().catch(() => '0')).replace(/\D/g, '') || 0);
    await page.goto('/card/card-list/list');
    const list = visible(page);
    await list.locator('tr.ant-table-row').first().waitFor();
    // QR codes of two cards: always drawn by a job
    for (const r of [0, 1]) await list.locator('tr.ant-table-row').nth(r).locator('.ant-checkbox-input').check();
    await list.getByTestId('qr-button').click();
    await dialog(page).getByRole('button', { name: 'Create download task' }).click();
    await page.getByTestId('download-ready-notice').waitFor({ timeout: 60_000 });
    await expectText(page.getByTestId('download-ready-notice'), '"Card QR codes" is ready.');
    await expectText(badge, String(before + 1));
    await shot(page, 'download-badge-en');
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-ready-notice').getByText('Download', { exact: true }).click()]);
    expect(file.suggestedFilename()).toMatch(/^Card QR codes-\d{12}\.zip$/);
    // downloaded: the badge counts one file less
    await expect.poll(async () => Number((await badge.innerText()).replace(/\D/g, '') || 0), POLL).toBe(before);
    await page.context().close();
  });
});
