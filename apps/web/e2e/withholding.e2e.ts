import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { CardState, ChargeEvent, ChargeState, carddata, carddetail, withholding } from '@lynx/contract';
import { POLL, api, apiLogin, launch, login, newPage, row, shot, visible } from './support.ts';

/**
 * Issue 14, charges at the event: staff order an event pack for one of the demo enterprise's active cards; the
 * enterprise (a prepaid customer) is withheld in that change. Its finance finds the record under Reports › Prepaid cost
 * withholding with the card (zh), and in its capital detail's prepaid section down to the card (zh); staff read the
 * record in English, and the card detail's Billing tab lists the charge (en).
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

type Charge = { chargeId: number; chargeNo: string; custId: number; event: number; state: number; amount: string };
const shared = { iccid: '', chargeNo: '', chargeId: 0 };

describe('charges at the event', () => {
  it('a pack ordered for a prepaid customer\'s card is withheld; its finance sees the record and the card (zh)', async () => {
    const admin = await apiLogin('admin');
    const ent = await apiLogin('enterprise');
    const custId = (await api<{ custId: number }>('base/oauth/user/login', { loginName: 'enterprise', password: 'Demo@2026pass' })).data.custId;
    const cards = (await api<{ list: { iccid: string }[] }>(carddata.getSimListPage.name, { custId, states: [CardState.Activated], pageSize: 50 }, admin)).data.list;
    let packId = 0;
    for (const c of cards) {
      const packs = (await api<{ goodsReleaseId: number }[]>(carddetail.getEventPackOptions.name, { iccid: c.iccid }, admin)).data ?? [];
      if (packs.length) {
        shared.iccid = c.iccid;
        packId = packs[0].goodsReleaseId;
        break;
      }
    }
    expect(shared.iccid, 'an active card of the enterprise that may order a pack').not.toBe('');
    const ordered = await api(carddetail.orderEventPack.name, { iccid: shared.iccid, packId }, admin);
    expect(ordered.success, ordered.msg).toBe(true);
    const records = (await api<{ list: Charge[] }>(withholding.getChargeListPage.name, { event: ChargeEvent.PackOrder, pageSize: 5 }, ent)).data.list;
    const mine = records[0];
    expect(mine).toMatchObject({ custId, event: ChargeEvent.PackOrder, state: ChargeState.Withheld });
    Object.assign(shared, { chargeNo: mine.chargeNo, chargeId: mine.chargeId });

    const page = await newPage(browser, 'zh');
    await login(page, 'enterprise');
    await page.goto('/report/prepaidCost/list');
    const line = row(page, mine.chargeNo);
    await line.waitFor({ timeout: 30_000 });
    expect(await line.innerText()).toContain('已扣缴');
    await expect.poll(() => visible(page).getByTestId('charges-sum').innerText(), POLL).toMatch(/已扣缴/);
    await shot(page, 'withholding-list-zh');
    await line.getByTestId('charge-link').click();
    await page.waitForURL(`**/report/prepaidCost/detail/${mine.chargeId}/**`);
    await expect.poll(() => visible(page).getByTestId('charge-cards').innerText(), POLL).toContain(shared.iccid);
    expect(await visible(page).innerText()).toContain('订购加油包');
    await shot(page, 'withholding-detail-zh');

    // the capital detail groups it; its card count opens the cards
    await page.goto('/business/capital/detail/info');
    const prepay = visible(page).getByTestId('capital-prepay');
    await expect.poll(() => prepay.locator('tr.ant-table-row').count(), POLL).toBeGreaterThan(0);
    await shot(page, 'withholding-capital-zh');
    await prepay.locator('tr.ant-table-row', { hasText: '订购加油包' }).first().getByTestId('prepay-cards-link').click();
    await page.waitForURL('**/business/capital/detail/prepay-card/**');
    await expect.poll(() => visible(page).getByTestId('charge-cards').innerText(), POLL).toContain(shared.iccid);
    await shot(page, 'withholding-prepay-cards-zh');
    await page.context().close();
  });

  it('staff read the record in English, and the card detail lists the charge (en)', async () => {
    expect(shared.chargeId, 'the record of the step before').toBeGreaterThan(0);
    const page = await newPage(browser, 'en');
    await login(page, 'admin');
    await page.goto(`/report/prepaidCost/detail/${shared.chargeId}`);
    await expect.poll(() => visible(page).innerText(), POLL).toContain(`Withholding record ${shared.chargeNo}`);
    expect(await visible(page).innerText()).toContain('Pack ordered');
    await expect.poll(() => visible(page).getByTestId('charge-cards').innerText(), POLL).toContain(shared.iccid);
    await shot(page, 'withholding-detail-en');
    await page.goto(`/card/card-list/detail/${shared.iccid}`);
    await visible(page).getByRole('tab', { name: 'Billing' }).click();
    await expect.poll(() => visible(page).innerText(), POLL).toContain(shared.chargeNo);
    await shot(page, 'withholding-card-en');
    await page.context().close();
  });
});
