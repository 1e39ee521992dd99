import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CardState, batch } from '@lynx/contract';
import { POLL, api, apiLogin, launch, login, newPage, shot, visible } from './support.ts';

/**
 * Issue 12, one time zone: a user in Berlin and one in Shanghai open the same screens and read the same times, in
 * the product's business zone (Asia/Shanghai here), which the screens name beside their times: "(UTC+8)".
 */
let browser: Browser;
let berlin: Page;
let shanghai: Page;
let iccid: string;

// a date, or a date and time, as the console writes them
const TIME_TEXT = /\d{4}-\d{2}-\d{2}(?: \d{2}:\d{2}(?::\d{2})?)?/g;
const timesOn = async (page: Page, selector?: string): Promise<string[]> => {
  const scope = selector ? visible(page).locator(selector).first() : visible(page);
  return (await scope.innerText()).match(TIME_TEXT) ?? [];
};

beforeAll(async () => {
  browser = await launch();
  // an activated card of the enterprise, with a plan and so a contract and a cycle
  const token = await apiLogin('enterprise');
  const cards = await api<{ list: { iccid: string; goodsReleaseId: number | null; activatedAt: string | null }[] }>(
    'core/sim/simQuery/getSimListPage', { states: [CardState.Activated], pageSize: 100 }, token);
  iccid = cards.data.list.find((c) => c.goodsReleaseId != null && c.activatedAt)!.iccid;
  // a batch on the batch list (checked, not run: nothing changes)
  const validated = await api('core/sim/batchOperate/validate', { params: { type: batch.BatchType.StatusChange, action: 'deactivate' }, sourceKind: 'paste', iccids: [iccid] }, token);
  expect(validated.success, validated.msg).toBe(true);
  berlin = await newPage(browser, 'en', 'Europe/Berlin');
  shanghai = await newPage(browser, 'zh', 'Asia/Shanghai');
  await login(berlin, 'enterprise');
  await login(shanghai, 'enterprise');
});
afterAll(async () => {
  await browser?.close();
});

/** The times in a table's rows, leaving out the columns of the last session (live data). */
async function tableTimes(page: Page): Promise<string[]> {
  const table = visible(page).locator('.ant-table').first();
  const headers = await table.locator('thead th').allInnerTexts();
  const live = new Set(headers.flatMap((h, i) => (/session|会话/i.test(h) ? [i] : [])));
  const rows = table.locator('tr.ant-table-row');
  const out: string[] = [];
  for (let r = 0; r < (await rows.count()); r++) {
    const cells = await rows.nth(r).locator('td').allInnerTexts();
    cells.forEach((c, i) => {
      if (!live.has(i)) out.push(...(c.match(TIME_TEXT) ?? []));
    });
  }
  return out;
}

/**
 * Opens a screen in both browsers and waits until it shows times and they have stopped changing (a screen's parts
 * arrive one by one: reading at the first time shown compared a half-drawn page with a whole one); answers the times
 * each shows.
 */
async function both(path: string, ready: (p: Page) => Promise<unknown>, selector?: string): Promise<[string[], string[]]> {
  const read = async (page: Page) => {
    await page.goto(path);
    await ready(page);
    let last = '';
    await expect.poll(async () => {
      const now = (await timesOn(page, selector)).join('|');
      const settled = now !== '' && now === last;
      last = now;
      return settled;
    }, { ...POLL, interval: 500 }).toBe(true);
    return timesOn(page, selector);
  };
  return [await read(berlin), await read(shanghai)];
}

describe('the same times in Berlin and in Shanghai', () => {
  it('on the card list, with the zone in the time columns', async () => {
    // the last session moves on while the usage feed runs: the other time columns are compared
    const [b, s] = await both('/card/card-list/list', (p) => visible(p).locator('tr.ant-table-row').first().waitFor(), '.ant-table');
    const b2 = await tableTimes(berlin);
    const s2 = await tableTimes(shanghai);
    expect(b.length).toBeGreaterThan(0);
    expect(s.length).toBeGreaterThan(0);
    expect(b2.length).toBeGreaterThan(0);
    expect(b2).toEqual(s2);
    await expect.poll(() => visible(berlin).locator('.ant-table-thead').innerText(), POLL).toMatch(/\(UTC\+8\)/);
    await expect.poll(() => visible(shanghai).locator('.ant-table-thead').innerText(), POLL).toMatch(/\(UTC\+8\)/);
    await shot(berlin, 'zone-card-list-en');
  });

  it("on a card's detail", async () => {
    // ready when the overview has its plan and its cycle (they arrive after the card)
    const [b, s] = await both(`/card/card-list/detail/${iccid}`, async (p) => {
      const overview = visible(p).getByTestId('card-overview');
      await overview.getByTestId('overview-used').waitFor();
      await expect.poll(() => overview.getByTestId('overview-usage').innerText(), POLL).toMatch(/\d{4}-\d{2}-\d{2} – \d{4}-\d{2}-\d{2}/);
    });
    expect(b).toEqual(s);
    // the basic tab names the zone beside its times, in each language
    await expect.poll(() => visible(berlin).innerText(), POLL).toMatch(/Activated[^\n]*\(UTC\+8\)/);
    await expect.poll(() => visible(shanghai).innerText(), POLL).toMatch(/激活时间 \(UTC\+8\)/);
  });

  it("on a card's plan: the contract and the cycle are date ranges", async () => {
    const plan = async (page: Page) => {
      await page.goto(`/card/card-list/detail/${iccid}`);
      await visible(page).getByTestId('card-overview').waitFor();
      await visible(page).getByRole('tab', { name: /Plan and cycles|套餐与周期/ }).click();
      const tab = visible(page).getByRole('tabpanel').filter({ visible: true }).last();
      await expect.poll(() => tab.innerText(), POLL).toMatch(/\d{4}-\d{2}-\d{2} – \d{4}-\d{2}-\d{2}/);
      return (await tab.innerText()).match(/\d{4}-\d{2}-\d{2} – (?:\d{4}-\d{2}-\d{2})?/g);
    };
    const b = await plan(berlin);
    const s = await plan(shanghai);
    expect(b).toEqual(s);
    await shot(shanghai, 'zone-card-plan-zh');
  });

  it('on the batch list', async () => {
    const [b, s] = await both('/card/batchoperate/list', (p) => visible(p).locator('tr.ant-table-row').first().waitFor(), '.ant-table');
    expect(b).toEqual(s);
    await expect.poll(() => visible(berlin).locator('.ant-table-thead').innerText(), POLL).toContain('(UTC+8)');
  });
});
