import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { api, apiLogin, baseURL, dialog, expectText, launch, login, newPage, row, shot, visible } from './support.ts';

/**
 * Issue 16: Channel card and resale sync as staff see them in both languages: a channel card import refused with its
 * wrong row listed (nothing stored), then imported, the card in the channel card list and its detail; the demo's
 * channel card bill; a resold card synced now after the confirmation, its state and last sync shown.
 */
let browser: Browser;
let admin = '';
beforeAll(async () => {
  browser = await launch();
  admin = await apiLogin('admin');
});
afterAll(async () => {
  await browser?.close();
});

const TEXTS = {
  zh: {
    header: 'ICCID,渠道,月成本(元)', channel: '端到端渠道', wrong: '平台中没有这张卡，请先导入卡', imports: '渠道卡导入记录', list: '渠道卡列表',
    bills: '渠道卡账单', resell: '转售卡状态同步', never: '从未同步', done: '同步完成', answered: '转售平台答复：', exportName: '渠道卡列表',
    states: { PENDING_REVIEW: '待审核', ON_SALE: '在售', SOLD: '已售出', OFF_SHELF: '已下架' } as Record<string, string>,
  },
  en: {
    header: 'ICCID,Channel,Monthly cost (CNY)', channel: 'E2E channel', wrong: 'no such card on the platform; import the card first', imports: 'Channel card imports',
    list: 'Channel cards', bills: 'Channel card bills', resell: 'Resale status sync', never: 'Never synced', done: 'Sync done', answered: 'The resale platform answered: ', exportName: 'Channel cards',
    states: { PENDING_REVIEW: 'Pending review', ON_SALE: 'On sale', SOLD: 'Sold', OFF_SHELF: 'Off the shelf' } as Record<string, string>,
  },
} as const;

/** One new platform-stock card through the card import API (unique per run, so a retry gets its own); answers its ICCID. */
async function stockCard(tag: string): Promise<string> {
  const run = String(Date.now()).slice(-7);
  const iccid = `89860021${tag}${run}000`;
  const csv = `ICCID,MSISDN,IMSI,Operator\r\n${iccid},1064${tag}${run},4600${tag}${run}00,China Mobile\r\n`;
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'cards.csv');
  const res = await fetch(`${baseURL()}/api/cmp/core/sim/simEnter/insert?ts=${Date.now()}&lang=en`, { method: 'POST', headers: { authorization: admin }, body: form });
  const body = await res.json();
  expect(body.data?.successRows, body.msg).toBe(1);
  return iccid;
}

describe('channel cards and resale sync', () => {
  for (const [lang, tag] of [['zh', '31'], ['en', '32']] as const) {
    it(`imports channel cards all or nothing and shows the card and the bills (${lang})`, async () => {
      const T = TEXTS[lang];
      const iccid = await stockCard(tag);
      const order = `E2E-CC-${iccid.slice(-10, -3)}`;
      const page = await newPage(browser, lang);
      await login(page, 'admin');
      await page.goto('/channelCard/channelCardImport/list');
      await visible(page).getByText(T.imports).first().waitFor();
      await visible(page).getByTestId('cc-import').click();
      const modal = dialog(page);
      const file = (lines: string[]) => ({ name: 'channel-cards.csv', mimeType: 'text/csv', buffer: Buffer.from(`\ufeff${[T.header, ...lines].join('\r\n')}\r\n`) });
      await modal.getByTestId('cc-import-order').fill(order);
      await modal.locator('input[type=file]').setInputFiles(file([`${iccid},${T.channel},3.50`, `${iccid.slice(0, -1)}9,${T.channel},3.50`]));
      await modal.getByTestId('cc-import-submit').click();
      await modal.getByTestId('cc-import-errors').getByText(T.wrong).first().waitFor();
      await shot(page, `channel-card-import-errors-${lang}`);
      expect((await api('core/sim/channelCard/getPage', { iccid }, admin)).data.total).toBe(0);
      await modal.locator('input[type=file]').setInputFiles(file([`${iccid},${T.channel},3.50`]));
      await modal.getByTestId('cc-import-submit').click();
      await page.waitForURL(`**/channelCard/channelCardImport/list/${order}`);
      await row(page, order).waitFor();
      await shot(page, `channel-card-imports-${lang}`);

      await page.goto('/channelCard/channel-card/list');
      const list = visible(page);
      await list.getByText(T.list).first().waitFor();
      await row(page, iccid).waitFor();
      await shot(page, `channel-card-list-${lang}`);
      // the list's export (a download task written during the call): an xlsx named after the list in the reader's language
      const [download] = await Promise.all([page.waitForEvent('download'), list.getByTestId('export-button').click()]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`^${T.exportName}-\\d{12}\\.xlsx$`));
      await row(page, iccid).getByTestId('cc-iccid-link').click();
      await page.waitForURL('**/channelCard/channel-card/detail/**');
      await visible(page).getByTestId('cc-state').waitFor();
      await shot(page, `channel-card-detail-${lang}`);

      await page.goto('/channelCard/channelCardBill/list');
      await visible(page).getByText(T.bills).first().waitFor();
      await visible(page).getByTestId('cc-bill-link').first().click();
      await page.waitForURL('**/channelCard/channelCardBill/detail/**');
      await visible(page).getByTestId('cc-bill-total').waitFor();
      await visible(page).locator('tr.ant-table-row').first().waitFor();
      await shot(page, `channel-card-bill-${lang}`);
      await page.context().close();
    });
  }

  for (const [lang, index] of [['zh', 0], ['en', 1]] as const) {
    it(`syncs a resold card now after the confirmation (${lang})`, async () => {
      const T = TEXTS[lang];
      // a demo resold card the platform knows (the scheduled sync may have synced it already: the sync time moves on)
      const cards = (await api('core/shortcuts/resell/getPage', { pageSize: 50 }, admin)).data.list as { iccid: string; externalId: string; lastSyncAt: string | null; platformState: string | null; lastError: string | null }[];
      const card = cards.filter((c) => !c.externalId.startsWith('X'))[index];
      expect(card, 'the demo has resold cards').toBeTruthy();
      await new Promise((r) => setTimeout(r, 1100));
      const page = await newPage(browser, lang);
      await login(page, 'admin');
      await page.goto('/shortcuts/resell/list');
      await visible(page).getByText(T.resell).first().waitFor();
      const r = row(page, card.iccid);
      await r.waitFor();
      // the platform's words in the reader's language with the raw word beside them; its error text after our prefix
      const known = cards.find((c) => c.platformState);
      if (known) await expectText(row(page, known.iccid).first().getByTestId('resell-platform-state').first(), `${T.states[known.platformState!]} (${known.platformState})`);
      const gone = cards.find((c) => c.externalId.startsWith('X') && c.lastError);
      if (gone) await expectText(row(page, gone.iccid).first(), T.answered);
      await shot(page, `resell-list-${lang}`);
      await r.getByTestId('resell-sync-one').click();
      await dialog(page).getByTestId('resell-sync-ok').click();
      await page.getByText(T.done).first().waitFor();
      const after = (await api('core/shortcuts/resell/getPage', { iccid: card.iccid }, admin)).data.list[0];
      expect(after.lastSyncAt).not.toBeNull();
      expect(after.lastSyncAt).not.toBe(card.lastSyncAt);
      expect(after.syncState).not.toBe(0);
      expect(after.lastError).toBeNull();
      await expect.poll(async () => (await r.innerText()).includes(T.never), { timeout: 10_000 }).toBe(false);
      await shot(page, `resell-synced-${lang}`);
      await page.context().close();
    });
  }
});
