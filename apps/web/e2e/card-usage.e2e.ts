import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { POLL, launch, login, newPage, shot, visible } from './support.ts';

/**
 * Issue 12: the card list's usage this cycle, quota and % used, as a user sees them (both languages): sorted by usage
 * from the column header, most used first; a card with a quota shows a bar, one without shows a dash.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const TEXTS = {
  en: { used: 'Used this cycle', quota: 'Quota this cycle', pct: '% of quota used' },
  zh: { used: '本周期已用', quota: '本周期额度', pct: '额度使用率' },
} as const;
const SIZE = /^\d[\d,.]* (B|KB|MB|GB|TB)$/;

describe('card list usage this cycle', () => {
  for (const lang of ['en', 'zh'] as const) {
    it(`sorts by usage, most used first, with sizes, quota and a bar (${lang})`, async () => {
      const page = await newPage(browser, lang);
      await login(page, 'enterprise');
      await page.goto('/card/card-list/list');
      const list = visible(page);
      await list.locator('tr.ant-table-row').first().waitFor({ timeout: 60_000 });
      const header = list.locator('th', { hasText: TEXTS[lang].used });
      await header.scrollIntoViewIfNeeded();
      // antd's sorter: ascending, then descending
      await header.click();
      await header.click();
      await expect.poll(() => header.getAttribute('aria-sort'), POLL).toBe('descending');
      const col = async (title: string) => {
        const idx = await list.locator('thead th').evaluateAll((ths, t) => ths.findIndex((th) => th.textContent?.includes(t)), title);
        return list.locator(`tr.ant-table-row td:nth-child(${idx + 1})`).allInnerTexts();
      };
      await expect.poll(async () => (await col(TEXTS[lang].used)).length, POLL).toBeGreaterThan(1);
      const used = (await col(TEXTS[lang].used)).map((s) => s.trim());
      for (const u of used) expect(u).toMatch(SIZE);
      const quota = (await col(TEXTS[lang].quota)).map((s) => s.trim());
      const pct = (await col(TEXTS[lang].pct)).map((s) => s.trim());
      for (const [i, q] of quota.entries()) {
        // without a quota: a dash in both columns, never 0 %
        if (q === '-') expect(pct[i]).toBe('-');
        else {
          expect(q).toMatch(SIZE);
          expect(pct[i]).toMatch(/^\d+(\.\d)? %$/);
        }
      }
      await list.locator('tr.ant-table-row').first().locator('td').nth(1).scrollIntoViewIfNeeded();
      await header.scrollIntoViewIfNeeded();
      await shot(page, `card-list-usage-${lang}`);
      await page.context().close();
    });
  }
});
