import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Locator } from 'playwright-core';
import { fenToMoney, formatMoney, moneyToFen } from '@lynx/contract';
import { POLL, api, apiLogin, cspViolations, dialog, launch, login, newPage, row, shot, visible } from './support.ts';

/**
 * Top-ups end to end (issue 13, docs/payments.md): the enterprise customer tops up online through the payment
 * simulator's cashier (a new tab) and sees its new pre-deposit, in Chinese and in English; a public transfer the
 * enterprise enters with its certificate is approved by finance (admin) and the balance shows it.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Waits until a dialog's opening animation is over (a click during it can be lost). */
async function settled(dialogBox: Locator): Promise<void> {
  await dialogBox.first().waitFor();
  await expect.poll(() => dialogBox.first().evaluate((el) => el.getAnimations({ subtree: true }).length), POLL).toBe(0);
}

const preDeposit = async (token: string) => (await api<{ preDeposit: string }>('core/finance/capital/getCapitalDetail', {}, token)).data.preDeposit;
// a tiny real PNG (1×1)
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

describe('top-ups', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`an online top-up through the simulator cashier credits the pre-deposit (${lang})`, async () => {
      const token = await apiLogin('enterprise');
      const before = await preDeposit(token);
      const amount = lang === 'zh' ? '123.45' : '67.89';
      const expected = formatMoney(fenToMoney(moneyToFen(before)! + moneyToFen(amount)!));

      const page = await newPage(browser, lang);
      await login(page, 'enterprise');
      await page.goto('/business/recharge/list');
      await visible(page).getByTestId('recharge-online').click();
      const form = dialog(page);
      await form.getByTestId('recharge-amount').fill(amount);
      await shot(page, `recharge-online-form-${lang}`);
      await form.getByTestId('recharge-online-submit').click();
      // the confirmation opens the cashier in a new tab
      await settled(page.locator('.ant-modal-confirm'));
      const [cashier] = await Promise.all([
        page.context().waitForEvent('page'),
        page.getByTestId('recharge-online-confirm').click(),
      ]);
      await cashier.waitForURL('**/api/sim/pay/cashier/**');
      await cashier.locator('#sim-pay').waitFor();
      expect(await cashier.locator('#pay-amount').innerText()).toBe(formatMoney(amount));
      expect(await cashier.locator('body').innerText()).toContain(lang === 'zh' ? '支付模拟器' : 'Payment simulator');
      await cashier.screenshot({ path: `apps/web/e2e/artifacts/recharge-cashier-${lang}.png` });
      await cashier.locator('#sim-pay').click();
      await cashier.locator('#sim-result').waitFor();
      expect(cspViolations(cashier)).toEqual([]);
      await cashier.close();

      // the console picked up the payment by itself and shows the new balance
      const result = dialog(page);
      await result.getByTestId('recharge-paid').waitFor({ timeout: 20_000 });
      await expect.poll(() => result.getByTestId('recharge-balance').innerText(), POLL).toContain(expected);
      await shot(page, `recharge-online-paid-${lang}`);
      await result.getByTestId('recharge-online-close').click();
      const listed = visible(page).locator('tr.ant-table-row').first();
      await expect.poll(() => listed.innerText(), POLL).toContain(formatMoney(amount));
      expect(await preDeposit(token)).toBe(fenToMoney(moneyToFen(before)! + moneyToFen(amount)!));
      expect(cspViolations(page)).toEqual([]);
      await page.context().close();
    });
  }

  it('a public transfer entered by the enterprise is approved by finance and credited (en)', async () => {
    const token = await apiLogin('enterprise');
    const before = await preDeposit(token);
    const serial = `E2E-${Date.now()}`;
    const page = await newPage(browser, 'en');
    await login(page, 'enterprise');
    await page.goto('/business/recharge/list');
    await visible(page).getByTestId('recharge-public').click();
    const form = dialog(page);
    await form.getByTestId('recharge-public-amount').fill('2000');
    await form.getByTestId('recharge-public-serial').fill(serial);
    await form.locator('input[type=file]').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: PNG });
    await form.getByTestId('recharge-proof-name').waitFor();
    await shot(page, 'recharge-public-form-en');
    await form.getByTestId('recharge-public-submit').click();
    await settled(page.locator('.ant-modal-confirm'));
    await page.getByTestId('recharge-public-confirm').click();
    const entered = row(page, serial);
    await entered.waitFor();
    await expect.poll(() => entered.innerText(), POLL).toContain('Submitted');
    await page.context().close();

    // finance reviews it
    const admin = await newPage(browser, 'en');
    await login(admin, 'admin');
    await admin.goto('/business/recharge/list');
    const pending = row(admin, serial);
    await pending.waitFor();
    await expect.poll(() => pending.innerText(), POLL).toContain('2,000.00');
    await pending.getByRole('button', { name: 'Review' }).click();
    const review = dialog(admin);
    await settled(review);
    await shot(admin, 'recharge-review-en');
    await review.getByTestId('recharge-review-submit').click();
    await settled(admin.locator('.ant-modal-confirm'));
    await admin.getByTestId('recharge-review-confirm').click();
    await expect.poll(() => row(admin, serial).innerText(), POLL).toContain('Approved');
    // its detail drawer (/business/recharge/list/:id): the transfer, the review, who did it
    await row(admin, serial).getByRole('button', { name: 'Detail' }).click();
    await admin.waitForURL(/\/business\/recharge\/list\/\d+$/);
    const drawer = dialog(admin);
    await expect.poll(() => drawer.innerText(), POLL).toContain(serial);
    expect(await drawer.innerText()).toContain('admin');
    await settled(drawer);
    await shot(admin, 'recharge-detail-en');
    await admin.context().close();

    // the customer's balance shows it
    const expected = formatMoney(fenToMoney(moneyToFen(before)! + 200000n));
    const again = await newPage(browser, 'en');
    await login(again, 'enterprise');
    await again.goto('/business/capital/detail/info');
    await expect.poll(() => visible(again).getByTestId('capital-balances').innerText(), POLL).toContain(expected);
    await shot(again, 'recharge-public-credited-en');
    await again.context().close();
  });
});
