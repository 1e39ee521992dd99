import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { POLL, api, apiLogin, expectText, launch, login, newPage, shot, visible } from './support.ts';

/**
 * Issue 12 "Finding a SIM": the header search finds a card by the last digits printed on it, shows it under the
 * cards group, and Enter opens its detail; in both languages. The card list finds the same card with "contains".
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** An activated demo card of the enterprise customer whose last 8 digits no other card of its holds. */
async function demoCard(token: string): Promise<{ iccid: string; last: string }> {
  const cards = (await api<{ list: { iccid: string }[] }>('core/sim/simQuery/getSimListPage', { pageSize: 100, states: [64] }, token)).data.list;
  for (const c of cards) {
    const last = c.iccid.slice(-8);
    const found = await api<{ cards: { items: { iccid: string }[] } }>('core/search/globalSearch', { keyword: last }, token);
    if (found.data.cards.items.length === 1) return { iccid: c.iccid, last };
  }
  throw new Error('no demo card with distinct last digits');
}

describe('header search', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`finds a card by the last digits of its ICCID and opens it with Enter (${lang})`, async () => {
      const token = await apiLogin('enterprise');
      const card = await demoCard(token);
      const page = await newPage(browser, lang);
      await login(page, 'enterprise');
      const box = page.getByTestId('global-search');
      await box.click();
      await box.fill(card.last);
      const results = page.getByTestId('global-search-results');
      await expectText(results, lang === 'zh' ? '卡' : 'Cards');
      await expectText(results, card.iccid);
      // the digits typed are marked in the ICCID
      await expect.poll(() => results.locator('mark').first().innerText(), POLL).toBe(card.last);
      await shot(page, `search-card-${lang}`);
      await box.press('Enter');
      await page.waitForURL(`**/card/card-list/detail/${card.iccid}`);
      await expectText(visible(page), card.iccid);
      await expect.poll(() => box.inputValue(), POLL).toBe('');

      // fewer than 6 digits: no cards, and the box says why
      await box.click();
      await box.fill(card.last.slice(-5));
      await expectText(page.getByTestId('global-search-digits'), lang === 'zh' ? '至少 6 位数字' : 'at least 6 digits');
      await box.press('Escape');
      await page.context().close();
    });
  }

  it('finds the card in the card list with "contains" after an empty search by its beginning', async () => {
    const token = await apiLogin('enterprise');
    const card = await demoCard(token);
    const page = await newPage(browser, 'en');
    await login(page, 'enterprise');
    await page.goto('/card/card-list/list');
    const iccid = visible(page).getByTestId('card-search-iccid');
    await iccid.fill(card.last);
    await iccid.press('Enter');
    const offer = visible(page).getByTestId('card-search-try-contains');
    await offer.waitFor();
    await offer.click();
    await expectText(visible(page).locator('.ant-table-tbody'), card.iccid);
    await expect.poll(() => visible(page).locator('.ant-table-tbody tr.ant-table-row').count(), POLL).toBe(1);
    await expectText(visible(page).getByTestId('card-search-iccid-match'), 'Contains');
    await shot(page, 'card-list-contains-en');
    await page.context().close();
  });
});
