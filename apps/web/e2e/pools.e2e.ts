import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { CardState, ErrorCode, errorMessage, pool } from '@lynx/contract';
import { POLL, api, apiLogin, dialog, launch, login, moreFilters, newPage, pick, row, shot, visible } from './support.ts';

/**
 * Data pools end to end, as the enterprise customer: create a pool, add cards to it through a checked batch (one card
 * of another operator is reported invalid with the server's reason), see them as members and in the card list's pool
 * filter, block the pool by hand and find the block in its block history, unblock it.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const TELECOM = 3;
const shared = { poolId: 0, name: '', members: [] as string[] };

interface ListCard { iccid: string; operatorId: number; poolId: number | null; state: number }

describe('a data pool of the enterprise customer', () => {
  it('creates a pool and adds cards through a checked batch (en)', async () => {
    const token = await apiLogin('enterprise');
    const found = await api<{ list: ListCard[] }>('core/sim/simQuery/getSimListPage', { states: [CardState.Activated], pageSize: 200 }, token);
    const free = found.data.list.filter((c) => c.poolId === null);
    const members = free.filter((c) => c.operatorId === TELECOM).slice(0, 3).map((c) => c.iccid);
    const otherOperator = free.find((c) => c.operatorId !== TELECOM)?.iccid;
    expect(members, 'three activated China Telecom cards of the enterprise outside any pool').toHaveLength(3);
    expect(otherOperator, 'an activated card of another operator').toBeTruthy();

    const name = `E2E pool ${String(Date.now() % 1_000_000)}`;
    const page = await newPage(browser, 'en');
    await login(page, 'enterprise');
    await page.goto('/card/pool/list');
    await visible(page).getByTestId('pool-add').click();
    const form = dialog(page);
    await form.getByTestId('pool-name').fill(name);
    await pick(page, form, 'operatorId', 'China Telecom');
    await form.getByText(pool.PoolExhaustAction.label(pool.PoolExhaustAction.Block, 'en')).click();
    await shot(page, 'pool-add-en');
    await form.getByTestId('pool-save').click();
    const created = row(page, name);
    await created.waitFor();
    await expect.poll(() => created.innerText(), POLL).toContain('Normal');

    await created.getByRole('link', { name }).click();
    await page.waitForURL('**/card/pool/detail/**');
    const poolId = Number(new URL(page.url()).pathname.split('/')[4]);
    expect(poolId).toBeGreaterThan(0);
    const detail = visible(page);
    await expect.poll(() => detail.innerText(), POLL).toContain(name);

    await detail.getByTestId('pool-add-cards').click();
    const modal = dialog(page);
    await modal.getByTestId('batch-next').click();
    await modal.getByTestId('batch-paste').fill([...members, otherOperator].join('\n'));
    await modal.getByTestId('batch-validate').click();
    const stat = (title: string) => modal.locator('.ant-statistic', { hasText: title }).locator('.ant-statistic-content-value');
    await expect.poll(() => stat('Valid').first().innerText(), POLL).toBe('3');
    await expect.poll(() => stat('Invalid').first().innerText(), POLL).toBe('1');
    // the invalid card's reason is the server's, in the reader's language
    await expect.poll(() => modal.innerText(), POLL).toContain(errorMessage(ErrorCode.PoolCardOtherOperator, 'en'));
    await shot(page, 'pool-add-cards-check-en');
    await modal.getByTestId('batch-confirm').click();
    await dialog(page).locator('.ant-btn-primary').last().click();
    await detail.getByTestId('pool-batch-started').waitFor();

    // the job moves the cards in the background: the member table shows them once it is done
    await expect.poll(async () => {
      await page.reload();
      const table = visible(page);
      await table.getByTestId('pool-add-cards').waitFor();
      return (await Promise.all(members.map((m) => row(page, m).count()))).every((n) => n === 1);
    }, { timeout: 60_000, interval: 2000 }).toBe(true);
    await expect.poll(() => visible(page).innerText(), POLL).toContain('3 in total');
    await shot(page, 'pool-detail-members-en');
    Object.assign(shared, { poolId, name, members });
    await page.context().close();
  });

  it('finds the members by pool in the card list, blocks the pool and sees it in the block history (zh)', async () => {
    const { poolId, name, members } = shared;
    expect(poolId, 'the pool of the step before').toBeGreaterThan(0);
    const page = await newPage(browser, 'zh');
    await login(page, 'enterprise');

    await page.goto('/card/card-list/list');
    const search = visible(page).getByTestId('card-search');
    // the pool is one of the card list's extra filters
    await moreFilters(search);
    await pick(page, search, 'poolId', name);
    await search.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(async () => (await Promise.all(members.map((m) => row(page, m).count()))).every((n) => n === 1), POLL).toBe(true);
    await expect.poll(() => visible(page).locator('tr.ant-table-row').count(), POLL).toBe(members.length);
    await shot(page, 'pool-card-list-zh');

    await page.goto(`/card/pool/detail/${poolId}`);
    const detail = visible(page);
    await detail.getByTestId('pool-detail-block').click();
    await page.getByTestId('pool-block-reason').fill('E2E 维护窗口');
    await page.getByTestId('pool-block-ok').click();
    await expect.poll(() => detail.innerText(), POLL).toContain(pool.PoolState.label(pool.PoolState.Blocked, 'zh'));
    await shot(page, 'pool-blocked-zh');

    await page.goto(`/card/pool/blockhistory/${poolId}`);
    const manual = row(page, pool.PoolEventType.label(pool.PoolEventType.ManualBlocked, 'zh'));
    await manual.waitFor();
    expect(await manual.innerText()).toContain('E2E 维护窗口');
    await shot(page, 'pool-block-history-zh');

    // unblocking: the usage of this cycle is below the quota, so it is allowed
    await page.goto(`/card/pool/detail/${poolId}`);
    await detail.getByTestId('pool-detail-block').click();
    await page.getByTestId('pool-block-ok').click();
    await expect.poll(() => detail.innerText(), POLL).toContain(pool.PoolState.label(pool.PoolState.Normal, 'zh'));
    await page.context().close();
  });
});
