import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, apiLogin, dialog, launch, login, newPage, pick, POLL, shot, visible } from './support.ts';

/**
 * Issue 16: physical stock as operator staff use it, in both languages: receive two SIMs from a file (a stock-in
 * operation, validated then confirmed, run as a card batch engine batch), match them from the stock list (they become platform stock
 * cards), pick them for stock out, allocate their cards to a customer, and see the items out with their change list.
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

const TEXTS = {
  en: { remark: 'Remark (at most 10 characters)', location: 'Location', ops: 'Stock operations', list: 'Stock list', done: 'Done', matched: 'Matched', outgoing: 'Outgoing', out: 'Out', operator: 'China Mobile', changes: 'Change list' },
  zh: { remark: '备注（最多 10 个字符）', location: '库位', ops: '库存操作', list: '库存列表', done: '已完成', matched: '已配卡', outgoing: '出库中', out: '已出库', operator: '中国移动', changes: '变更记录' },
} as const;

/**
 * Validates the operation of the open dialog. The click is made again while the dialog still offers it, not loading:
 * a click landing while the dialog animates in (after the specs before this one, the browser is slow) is lost, and
 * the check result never came (the zh run's flake).
 */
async function validateOp(page: Page) {
  const d = dialog(page);
  const button = d.getByTestId('stock-op-validate');
  const done = d.getByTestId('stock-op-validated');
  await button.waitFor();
  for (let attempt = 1; ; attempt++) {
    if (await button.isVisible() && !(await button.getAttribute('class'))?.includes('ant-btn-loading')) await button.click().catch(() => undefined);
    try {
      await done.waitFor({ timeout: 10_000 });
      return;
    } catch (err) {
      if (attempt === 5) throw err;
    }
  }
}

/** Confirms the operation of the open dialog and waits on its detail page until it is done. */
async function runAndWait(page: Page, lang: 'zh' | 'en') {
  const d = dialog(page);
  // the check of a selection answers within seconds; a server busy with the specs before this one can take longer
  await d.getByTestId('stock-op-validated').waitFor({ timeout: 45_000 });
  // confirm; a click that lands while the confirmation pops in is lost on a busy machine, so press again until the
  // detail page opens (a second confirm of the same batch is refused by the server and changes nothing)
  const onDetail = () => page.url().includes('/stock/operationList/detail/');
  const run = d.getByTestId('stock-op-run');
  const ok = page.getByTestId('stock-op-run-ok');
  await run.click();
  await expect.poll(async () => {
    if (onDetail()) return true;
    if (await ok.isVisible().catch(() => false)) await ok.click({ timeout: 2_000 }).catch(() => {});
    else if (await run.isVisible().catch(() => false)) await run.click({ timeout: 2_000 }).catch(() => {});
    return onDetail();
  }, { timeout: 60_000, interval: 1_500 }).toBe(true);
  const detail = visible(page);
  await expect.poll(async () => (await detail.getByTestId('stock-op-state').innerText()).trim(), { timeout: 30_000, interval: 500 }).toBe(TEXTS[lang].done);
  return detail;
}

describe('physical stock', () => {
  for (const [n, lang] of (['zh', 'en'] as const).entries()) {
    it(`receives stock, matches it and allocates it (out) (${lang})`, async () => {
      const prefix = `898600${String(Date.now()).slice(-11)}${n}`;
      const iccids = [`${prefix}01`, `${prefix}02`];
      const page = await newPage(browser, lang);
      await login(page, 'admin');

      // 1. receive from a file: the form's operator, location and remark, the file's three codes (one row with its own location)
      await page.goto('/stock/operationList/list');
      const ops = visible(page);
      await ops.getByText(TEXTS[lang].ops).first().waitFor();
      await ops.getByTestId('stock-in-file').click();
      const f = dialog(page);
      await pick(page, f, 'stockFileOperator', TEXTS[lang].operator);
      await f.getByTestId('stock-file-location').fill('E2E-1');
      await f.getByLabel(TEXTS[lang].remark).fill('e2e');
      const csv = [`ICCID,IMSI,MSISDN,${TEXTS[lang].location}`, ...iccids.map((i, k) => `${i},4600012345678${k}${n},1064912345${k}${n},${k ? 'E2E-2' : ''}`)].join('\r\n');
      await f.locator('input[type=file]').setInputFiles({ name: `stock-in-${lang}.csv`, mimeType: 'text/csv', buffer: Buffer.from(`\ufeff${csv}\r\n`) });
      await shot(page, `stock-in-file-${lang}`);
      await f.getByTestId('stock-in-import-submit').click();
      await dialog(page).getByTestId('stock-op-validated').waitFor({ timeout: 45_000 });
      await shot(page, `stock-op-validated-${lang}`);
      const received = await runAndWait(page, lang);
      expect((await received.getByTestId('stock-op-succeeded').innerText()).trim()).toBe('2');
      await received.getByTestId('stock-op-items').locator('tr.ant-table-row').nth(1).waitFor();
      await shot(page, `stock-op-detail-${lang}`);

      // 2. match from the stock list: tick the two items, Match
      await page.goto('/stock/stocklist/list');
      const list = visible(page);
      await list.getByText(TEXTS[lang].list).first().waitFor();
      await list.locator('#iccid').fill(prefix);
      await list.getByRole('button', { name: lang === 'zh' ? /查\s*询/ : 'Search' }).click();
      await expect.poll(() => list.locator('tr.ant-table-row').count(), POLL).toBe(2);
      for (const i of iccids) await list.locator('tr.ant-table-row', { hasText: i }).locator('.ant-checkbox-input').check();
      await list.getByTestId('stock-match').click();
      await validateOp(page);
      await runAndWait(page, lang);
      const cards = await api('core/sim/simQuery/getSimListPage', { iccid: iccids[0] }, token);
      expect(cards.data.list[0]).toMatchObject({ iccid: iccids[0], state: 60 });

      // 3. out: pick them for a customer (outgoing), then allocate their cards (out)
      await page.goto('/stock/stocklist/list');
      await list.locator('#iccid').fill(prefix);
      await list.getByRole('button', { name: lang === 'zh' ? /查\s*询/ : 'Search' }).click();
      await list.locator('tr.ant-table-row', { hasText: TEXTS[lang].matched }).nth(1).waitFor();
      await shot(page, `stock-list-matched-${lang}`);
      for (const i of iccids) await list.locator('tr.ant-table-row', { hasText: i }).locator('.ant-checkbox-input').check();
      await list.getByTestId('stock-out').click();
      await validateOp(page);
      await runAndWait(page, lang);
      await page.goto(`/stock/stocklist/detail/${iccids[0]}`);
      const detail = visible(page);
      await expect.poll(async () => (await detail.getByTestId('stock-detail-out').innerText()).trim(), POLL).toBe(TEXTS[lang].outgoing);
      const params = await api('core/sim/simAssign/params', {}, token);
      const custId = params.data.customers.find((c: { level: number }) => c.level === 1).custId;
      const selection = { by: 'list', iccids };
      const num = await api('core/sim/simAssign/selectNum', { mode: 'transfer', custId, selection }, token);
      expect(num.data.selectNum).toBe(2);
      const assigned = await api('core/sim/simAssign/assignCard', { mode: 'transfer', custId, selection, expectedNum: 2 }, token);
      expect(assigned.errorCode, assigned.msg).toBeNull();
      await expect.poll(async () => (await api('core/stock/stock/getStockDetail', { iccid: iccids[1] }, token)).data.item.outState, { timeout: 30_000 }).toBe(3);
      await page.reload();
      await expect.poll(async () => (await visible(page).getByTestId('stock-detail-out').innerText()).trim(), POLL).toBe(TEXTS[lang].out);
      expect((await api('core/stock/stock/getStockDetail', { iccid: iccids[1] }, token)).data.item.location).toBe('E2E-2');
      await visible(page).getByText(TEXTS[lang].changes).waitFor();
      await expect.poll(() => visible(page).getByTestId('stock-changes').locator('tr.ant-table-row').count(), POLL).toBe(4);
      await shot(page, `stock-detail-${lang}`);
      await page.context().close();
    });
  }
});
