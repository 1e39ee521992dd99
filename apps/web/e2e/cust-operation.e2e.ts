import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { api, apiLogin, launch, login, newPage, shot, visible } from './support.ts';

/**
 * Issue 15: Shortcuts › China Unicom account operation as staff see it in both languages: the demo's China Unicom usage
 * (fed by the usage feed) per account × rate plan × zone × day with totals, and a row's pool detail with the period
 * from the 26th, the pooled quota, the alarm messages (none in the demo) and the day's cards.
 */
let browser: Browser;
let token = '';
beforeAll(async () => {
  browser = await launch();
  token = await apiLogin('admin');
});
afterAll(async () => {
  await browser?.close();
});

const dayOf = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);
const TEXTS = {
  en: { title: 'China Unicom account operation', total: 'Total', detail: 'Pool detail', alarms: 'Pool alarm messages', cards: 'Usage per card that day' },
  zh: { title: '联通账户运营', total: '合计', detail: '流量池详情', alarms: '流量池告警消息', cards: '当日各卡用量' },
} as const;

describe('China Unicom account operation', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`lists the Unicom usage with totals and opens a row's pool (${lang})`, async () => {
      // the feed fills the demo's last month within a minute or two of the start
      const startDate = dayOf(Date.now() - 30 * 86_400_000);
      const endDate = dayOf(Date.now());
      await expect.poll(async () => (await api('core/network/operatorsAccount/getCustOperationPage', { startDate, endDate }, token)).data?.total ?? 0,
        { timeout: 180_000, interval: 2_000 }).toBeGreaterThan(0);
      const page = await newPage(browser, lang);
      await login(page, 'admin');
      await page.goto('/shortcuts/cust-operation/list');
      const list = visible(page);
      await list.getByText(TEXTS[lang].title).first().waitFor();
      // the last 31 days through the range picker
      await list.getByTestId('cuop-range').first().click();
      await page.keyboard.type(startDate);
      await page.keyboard.press('Enter');
      await page.keyboard.type(endDate);
      await page.keyboard.press('Enter');
      await list.getByRole('button', { name: lang === 'zh' ? /查\s*询/ : 'Search' }).click();
      await list.getByTestId('cuop-range-shown').filter({ hasText: startDate }).waitFor();
      await list.locator('tr.ant-table-row').first().waitFor();
      await list.getByTestId('cuop-totals').waitFor();
      expect(await list.getByTestId('cuop-totals').innerText()).toContain(TEXTS[lang].total);
      await shot(page, `cust-operation-list-${lang}`);
      await list.getByTestId('cuop-detail-link').first().click();
      await page.waitForURL('**/shortcuts/cust-operation/detail/**');
      const detail = visible(page);
      await detail.getByTestId('cuop-pooled').waitFor();
      await detail.getByText(TEXTS[lang].alarms).waitFor();
      await detail.getByTestId('cuop-cards').locator('tr.ant-table-row').first().waitFor();
      await shot(page, `cust-operation-detail-${lang}`);
      await page.context().close();
    });
  }
});
