import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CardState, PlanOperationMode, carddetail, diagnose } from '@lynx/contract';
// the built-in network simulator is deterministic (usage follows from the ICCID and the day): the test picks
// devices that attach shortly after they are activated, so their usage shows up while the test waits
import { businessDay, businessDayStartMs, planDay } from '../../server/src/operators/simulator-usage.ts';
import { POLL, api, apiLogin, dialog, launch, login, moreFilters, newPage, pick, row, shot, visible } from './support.ts';

/**
 * Issue 5 end to end, one card journey: import fresh cards, transfer them to the enterprise customer with a plan
 * and the activated state, see one activated with its contract cycles, watch its usage arrive from the operator
 * feed (the e2e server runs the feed every minute), deactivate all of them in a batch, see them deactivated in the
 * card list, and diagnose one.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const CUSTOMER = '智行物流科技有限公司';
const PLAN = '车载 4G 月付 10GB';
const CARDS = 12;


interface Card {
  iccid: string;
  msisdn: string;
  imsi: string;
  /** when the simulated device opens its first data session after the test started */
  attachAt: number;
}

/**
 * Fresh China Telecom cards (unique per attempt: the runner retries a failed test once against the same server)
 * whose devices open a data session one after another, from `from` to `to` (ms since the epoch), one per slot.
 */
function freshCards(from: number, to: number, n: number): { prefix: string; cards: Card[] } {
  const run = String(Date.now() % 10_000_000).padStart(7, '0');
  // 8986039…: the demo cards of China Telecom are 89860326…, so an ICCID range over this prefix holds only these
  const prefix = `8986039${run}`;
  const slot = (to - from) / n;
  const picked: (Card | undefined)[] = Array.from({ length: n }, () => undefined);
  const days = [...new Set([businessDay(from), businessDay(to)])];
  for (let seq = 0; seq < 1_000_000 && picked.some((c) => !c); seq++) {
    const iccid = `${prefix}${String(seq).padStart(6, '0')}`;
    for (const day of days) {
      const starts = planDay({ iccid, operatorId: 3, networkTypes: [] }, day, false, undefined, businessDayStartMs(day)).sessions.map((s) => s.start);
      const at = starts.find((s) => s >= from && s < to);
      if (at === undefined) continue;
      const k = Math.floor((at - from) / slot);
      if (!picked[k]) picked[k] = { iccid, msisdn: '', imsi: '', attachAt: at };
      break;
    }
  }
  const cards = picked.filter((c): c is Card => !!c).map((c, i) => ({
    ...c, msisdn: `1440${run}${String(i).padStart(2, '0')}`, imsi: `460119${run}${String(i).padStart(2, '0')}`,
  }));
  return { prefix, cards };
}

/** The card list (zh) searched by the ICCID range of a prefix. */
async function searchRange(page: Page, prefix: string) {
  await page.goto('/card/card-list/list');
  const search = visible(page).getByTestId('card-search');
  // the ICCID range is one of the card list's extra filters
  await moreFilters(search);
  await search.locator('#iccidStart').fill(`${prefix}000000`);
  await search.locator('#iccidEnd').fill(`${prefix}999999`);
  // both ends given: no "fill in both" left under the range
  await expect.poll(() => search.locator('.ant-form-item-explain-error').count(), POLL).toBe(0);
  await search.getByRole('button', { name: /查\s*询/ }).click();
}

/** What the steps hand on. */
const shared = { prefix: '', cards: [] as Card[], activatedAt: 0, watched: '' };

describe('a batch of SIM cards from import to diagnosis', () => {
  it('imports fresh cards from a CSV file (zh) and sees the import result', async () => {
    const t0 = Date.now();
    // the devices attach one after another from 25 s to 4 min from now: the import and the transfer take about
    // half a minute, and the first device to attach after that is the one watched
    const { prefix, cards } = freshCards(t0 + 25_000, t0 + 240_000, CARDS);
    expect(cards.length, 'simulated devices that attach in the next minutes').toBeGreaterThanOrEqual(4);
    const csv = ['ICCID,MSISDN,IMSI,运营商,批次/备注', ...cards.map((c) => `${c.iccid},${c.msisdn},${c.imsi},中国电信,E2E-${prefix.slice(-7)}`)].join('\r\n');
    const fileName = `e2e-cards-${prefix.slice(-7)}.csv`;

    const page = await newPage(browser, 'zh');
    await login(page, 'admin');
    await page.goto('/card/import-info/list');
    await visible(page).getByTestId('card-import').click();
    const modal = dialog(page);
    await modal.locator('input[type=file]').setInputFiles({ name: fileName, mimeType: 'text/csv', buffer: Buffer.from(`\ufeff${csv}\r\n`) });
    await expect.poll(() => modal.innerText(), POLL).toContain(fileName);
    await shot(page, 'card-import-modal-zh');
    await modal.getByTestId('card-import-submit').click();
    await page.locator('.ant-message', { hasText: `导入完成：成功 ${cards.length} 行，失败 0 行` }).waitFor();
    const imported = row(page, fileName);
    await imported.waitFor();
    const cells = await imported.locator('td').allInnerTexts();
    // total, succeeded, failed
    expect(cells.map((c) => c.trim())).toEqual(expect.arrayContaining([String(cards.length), '0']));
    await shot(page, 'card-import-list-zh');

    // the cards are in the platform stock, in the start state
    await searchRange(page, prefix);
    await expect.poll(() => row(page, prefix).count(), POLL).toBe(cards.length);
    for (const text of await row(page, prefix).allInnerTexts()) expect(text).toContain(CardState.label(CardState.Start, 'zh'));
    await shot(page, 'card-import-stock-zh');
    shared.prefix = prefix;
    shared.cards = cards;
    await page.context().close();
  });

  it('transfers them by ICCID range to the enterprise customer with a plan, activated (en)', async () => {
    const { prefix, cards } = shared;
    expect(cards.length, 'the cards of the step before').toBeGreaterThan(0);
    const page = await newPage(browser, 'en');
    await login(page, 'admin');
    await page.goto('/card/card-list/numcard');
    const form = visible(page);
    await pick(page, form, 'custId', CUSTOMER);
    await form.locator('#ranges_0_start').fill(`${prefix}000000`);
    await form.locator('#ranges_0_end').fill(`${prefix}999999`);
    await form.getByTestId('numcard-count').click();
    await expect.poll(() => form.innerText(), POLL).toContain(`Cards to transfer: ${cards.length}`);
    await pick(page, form, 'goodsReleaseId', PLAN);
    await pick(page, form, 'initialState', 'Activated');
    await shot(page, 'numcard-en');
    await form.getByTestId('numcard-submit').click();
    const confirm = dialog(page);
    await expect.poll(() => confirm.innerText(), POLL).toContain(`About to transfer ${cards.length} card(s) to "${CUSTOMER}"`);
    await confirm.getByRole('button', { name: 'OK' }).click();
    // the allocation is a job: the page polls it until it is done
    await expect.poll(() => form.innerText(), { timeout: 30_000 }).toContain(`Done: ${cards.length} card(s) went to "${CUSTOMER}" (transfer).`);
    shared.activatedAt = Date.now();
    await expect.poll(() => row(page, CUSTOMER).first().innerText(), POLL).toContain(carddetail.AllocationStatus.label(carddetail.AllocationStatus.Succeeded, 'en'));
    await shot(page, 'numcard-done-en');
    await page.context().close();
  });

  it('shows a card activated with its plan and contract cycles, and its usage arriving from the network (en)', async () => {
    const { cards, activatedAt } = shared;
    expect(activatedAt, 'the transfer of the step before').toBeGreaterThan(0);
    // the first device to open a session after it was activated
    const watched = cards.find((c) => c.attachAt > activatedAt + 1000);
    expect(watched, `a device attaching after ${new Date(activatedAt).toISOString()}`).toBeDefined();
    const page = await newPage(browser, 'en');
    await login(page, 'admin');
    await page.goto(`/card/card-list/detail/${watched!.iccid}`);
    const detail = visible(page).getByTestId('card-detail');
    await expect.poll(() => detail.locator('.ant-tag').first().innerText(), POLL).toBe('Activated');
    await expect.poll(() => detail.innerText(), POLL).toContain(CUSTOMER);
    await detail.getByRole('tab', { name: 'Plan and cycles' }).click();
    await expect.poll(() => detail.innerText(), POLL).toContain(PLAN);
    const bCycles = detail.locator('.ant-card', { hasText: 'B-end contract cycles' });
    // 12 monthly cycles, the first one running
    await expect.poll(() => bCycles.locator('.ant-statistic-content-value').allInnerTexts(), POLL).toEqual(['12', '1', '11']);
    await shot(page, 'card-detail-plan-en');

    // the device attaches at its time; the feed brings the session within a minute or two after that
    const usage = async () => {
      await page.reload();
      await detail.getByRole('tab', { name: 'Usage and sessions' }).click();
      const card = detail.locator('.ant-card', { hasText: 'Recent sessions' });
      await card.locator('.ant-table-tbody').waitFor();
      await expect.poll(() => card.locator('.ant-spin-spinning').count(), POLL).toBe(0);
      const sessions = card.locator('tr.ant-table-row');
      return sessions.count();
    };
    await expect.poll(usage, { timeout: Math.max(120_000, watched!.attachAt - Date.now() + 150_000), interval: 5000 }).toBeGreaterThan(0);
    const used = await detail.locator('.ant-statistic', { hasText: 'Used' }).first().locator('.ant-statistic-content').innerText();
    expect(used).not.toMatch(/^0(\.0+)? ?B$/);
    await shot(page, 'card-detail-usage-en');
    shared.watched = watched!.iccid;

    // the traffic detail query finds the session too
    const admin = await apiLogin('admin');
    const flows = await api<{ list: { iccid: string; bytes: number }[] }>('shortcuts/queryFlow/getFlowSessionPage', { iccid: watched!.iccid }, admin);
    expect(flows.data.list.length).toBeGreaterThan(0);
    await page.context().close();
  });

  it('deactivates all of them in one batch: paste, check, confirm, progress, done (zh)', async () => {
    const { prefix, cards } = shared;
    expect(cards.length, 'the cards of the step before').toBeGreaterThan(0);
    const page = await newPage(browser, 'zh');
    await login(page, 'admin');
    await page.goto('/card/batchoperate/list');
    await visible(page).getByTestId('batch-new').click();
    const modal = dialog(page);
    await pick(page, modal, 'type', '变更状态');
    await pick(page, modal, 'action', '停机');
    await modal.getByTestId('batch-next').click();
    await modal.getByTestId('batch-paste').fill(cards.map((c) => c.iccid).join('\n'));
    await shot(page, 'batch-paste-zh');
    await modal.getByTestId('batch-validate').click();
    const valid = modal.locator('.ant-statistic', { hasText: '可执行' }).locator('.ant-statistic-content-value');
    await expect.poll(() => valid.innerText(), POLL).toBe(String(cards.length));
    await shot(page, 'batch-check-zh');
    await modal.getByTestId('batch-confirm').click();
    const confirm = dialog(page);
    await expect.poll(() => confirm.innerText(), POLL).toContain(String(cards.length));
    await confirm.locator('.ant-btn-primary').last().click();
    await page.waitForURL('**/card/batchoperate/detail/*/all');
    // the detail follows the running batch until it is done
    await expect.poll(() => visible(page).innerText(), { timeout: 60_000 }).toContain('已完成');
    const body = await visible(page).innerText();
    expect(body).toContain(`${cards.length} / ${cards.length}`);
    await expect.poll(() => row(page, prefix).count(), POLL).toBe(cards.length);
    await expect.poll(async () => (await row(page, prefix).allInnerTexts()).filter((t) => t.includes('成功')).length, POLL).toBe(cards.length);
    await shot(page, 'batch-done-zh');

    // the card list shows them deactivated
    await searchRange(page, prefix);
    await expect.poll(async () => {
      const texts = await row(page, prefix).allInnerTexts();
      return texts.length === cards.length && texts.every((t) => t.includes(CardState.label(CardState.Deactivated, 'zh')) && t.includes(CUSTOMER));
    }, POLL).toBe(true);
    await shot(page, 'card-list-deactivated-zh');
    await page.context().close();
  });

  it('diagnoses: one of these standard-version cards gets the checks that need no professional network (en), a professional-version card all of them (zh)', async () => {
    const iccid = shared.watched || shared.cards[0]?.iccid;
    expect(iccid, 'a card of the steps before').toBeTruthy();
    const page = await newPage(browser, 'en');
    await login(page, 'admin');
    await page.goto(`/shortcuts/diagnose/detail/${iccid}`);
    const std = visible(page).getByTestId('diagnose-checks');
    await expect.poll(() => std.locator('[data-testid^="check-"]').count(), POLL).toBe(6);
    // deactivated by the batch of the step before: a problem, with the way out
    await expect(std.getByTestId('check-cardState').getAttribute('data-verdict')).resolves.toBe(String(diagnose.DiagnoseVerdict.Problem));
    await expect(std.getByTestId('check-policy').getAttribute('data-verdict')).resolves.toBe(String(diagnose.DiagnoseVerdict.NotApplicable));
    expect(await visible(page).getByTestId('diagnose-refusal').count()).toBe(0);
    await shot(page, 'diagnose-standard-en');
    await page.context().close();

    // an activated card of the demo enterprise on the demo's professional-version plan
    const admin = await apiLogin('admin');
    const plans = await api<{ list: { goodsReleaseId: number; operationMode: number }[] }>('goods/basicGoods/getListPage', { pageSize: 100, category: 'basic' }, admin);
    const pro = plans.data.list.find((p) => p.operationMode === PlanOperationMode.Professional);
    expect(pro, 'a professional-version plan in the demo data').toBeDefined();
    const found = await api<{ list: { iccid: string }[] }>('core/sim/simQuery/getSimListPage', { goodsReleaseId: pro!.goodsReleaseId, states: [CardState.Activated], pageSize: 1 }, admin);
    const proIccid = found.data.list[0]?.iccid;
    expect(proIccid, 'an activated professional-version card in the demo data').toBeTruthy();

    const zh = await newPage(browser, 'zh');
    await login(zh, 'admin');
    await zh.goto(`/shortcuts/diagnose/detail/${proIccid}`);
    const view = visible(zh);
    await view.getByTestId('diagnose-overall').waitFor();
    const checks = view.getByTestId('diagnose-checks');
    await expect.poll(() => checks.locator('[data-testid^="check-"]').count(), POLL).toBe(6);
    const text = await view.innerText();
    for (const title of ['卡状态', '套餐与用量', '区域限制', '会话与 APN', '运营商连接', '通信策略']) expect(text).toContain(title);
    await expect(checks.getByTestId('check-policy').getAttribute('data-verdict')).resolves.not.toBe(String(diagnose.DiagnoseVerdict.NotApplicable));
    expect(text).toContain(PlanOperationMode.label(PlanOperationMode.Professional, 'zh'));
    // an activated card: its state is fine
    await expect(checks.getByTestId('check-cardState').getAttribute('data-verdict')).resolves.toBe(String(diagnose.DiagnoseVerdict.Ok));
    // and the diagnosis is recorded
    await expect.poll(() => view.locator('tr.ant-table-row').count(), POLL).toBeGreaterThanOrEqual(1);
    await shot(zh, 'diagnose-professional-zh');
    await zh.context().close();
  });
});
