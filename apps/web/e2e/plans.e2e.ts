import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { ErrorCode, Operator, errorMessage, fenToMoney, moneyToFen, type Lang } from '@lynx/contract';
import { POLL, api, apiLogin, dialog, dropdownsClosed, launch, login, newPage, pick, row, shot, visible } from './support.ts';

/**
 * Issue 4 end to end: a communication service with QoS, a basic plan with two zones published to the demo
 * enterprise, the enterprise sees it and sells it as a retail plan, and the basic plan form's limits.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The error text antd shows under one form field. */
const fieldError = (scope: Locator, field: string) =>
  // form items nest (the zones item holds each zone's fields): the innermost one holding the field is the last
  scope.locator('.ant-form-item', { has: scope.page().locator(`#${field}`) }).last().locator('.ant-form-item-explain-error');

/** Picks options of a multiple select, then closes its dropdown. */
async function pickMany(page: Page, scope: Locator, field: string, options: (string | RegExp)[]) {
  await dropdownsClosed(page);
  await scope.locator(`#${field}`).click({ force: true });
  for (const o of options) await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: o }).first().click();
  await page.keyboard.press('Escape');
  await dropdownsClosed(page);
}
const msg = (code: ErrorCode, lang: Lang, params?: Record<string, string | number>) => errorMessage(code, lang, params);
/** A price `yuan` above another, as the API's money text ('39.90' + 10 → '49.90'); computed in fen, never in floats. */
const above = (price: string, yuan: number) => fenToMoney(moneyToFen(price)! + BigInt(yuan) * 100n);

/** Unique per attempt: the runner retries a failed test once against the same server. */
const unique = () => String(Date.now() % 1_000_000);
const CUSTOMER = '智行物流科技有限公司';

/**
 * What the steps hand on: the service created first, the basic plan built on it (the retail steps use the
 * demo plan when that step failed, so they still say something).
 */
const shared = { serviceName: '', planName: '', basicPlanName: '车载 4G 月付 10GB', basicPrice: '39.90' };

describe('communication service and basic plan in the browser (staff)', () => {
  it('creates a communication service and gives it a QoS profile (zh)', async () => {
    const serviceName = `E2E 冷链定向 ${unique()}`;
    const page = await newPage(browser, 'zh');
    await login(page, 'admin');
    await page.goto('/operator/commserv-list/add');
    await visible(page).getByTestId('commserv-name').fill(serviceName);
    await visible(page).getByTestId('commserv-save').click();
    await page.waitForURL('**/operator/commserv-list/detail/*');
    await visible(page).getByTestId('qos-add').click();
    const modal = dialog(page);
    await modal.getByTestId('qos-name').fill('E2E 高清回传');
    await modal.locator('#maxUplinkKbps').fill('2048');
    await modal.locator('#maxDownlinkKbps').fill('8192');
    await modal.locator('.ant-btn-primary').last().click();
    await row(page, 'E2E 高清回传').waitFor();
    await shot(page, 'commserv-qos-zh');
    const admin = await apiLogin('admin');
    const list = await api<{ list: { commservName: string; qosCount: number }[] }>('network/commserv/getListPage', { commservName: serviceName }, admin);
    expect(list.data.list).toMatchObject([{ commservName: serviceName, qosCount: 1 }]);
    shared.serviceName = serviceName;
    await page.context().close();
  });

  it('builds a basic plan with two zones (the new service and a seeded one) and publishes it to the demo enterprise (en)', async () => {
    expect(shared.serviceName, 'the service of the step before').not.toBe('');
    const suffix = unique();
    const planName = `E2E 双区域 4G ${suffix}`;
    const page = await newPage(browser, 'en');
    await login(page, 'admin');
    await page.goto('/billing/package/addbasic');
    const form = visible(page);
    await form.getByTestId('plan-code').fill(`E2E-${suffix}`);
    await form.getByTestId('plan-name').fill(planName);
    await pick(page, form, 'operatorId', 'China Telecom');
    await form.getByTestId('plan-sale-price').fill('30');
    await shot(page, 'basic-plan-form-top-en');
    await pickMany(page, form, 'apnIds', ['ctnet']);
    await form.getByTestId('zone-add').click();
    await form.getByTestId('zone-add').click();
    await form.locator('#zones_0_zoneName').fill('Cold chain private');
    // a twelve-digit price with cents: it must reach the server and come back exactly as typed
    await form.locator('#zones_0_price').fill('123456789012.34');
    await pickMany(page, form, 'zones_0_commservIds', [shared.serviceName]);
    await form.locator('#zones_1_zoneName').fill('National public');
    await pickMany(page, form, 'zones_1_commservIds', ['General internet data']);
    await form.getByTestId('zone-1').scrollIntoViewIfNeeded();
    await shot(page, 'basic-plan-form-en');
    await form.getByTestId('plan-save').click();
    await page.waitForURL('**/billing/package/basicdetail/*/*');
    await expect.poll(() => visible(page).innerText(), POLL).toContain('National public');
    await expect.poll(() => visible(page).innerText(), POLL).toContain('123,456,789,012.34');
    const goodsReleaseId = Number(new URL(page.url()).pathname.split('/').at(-2));
    const saved = await api<{ salePrice: string; zones: { zoneName: string; price: string | null }[] }>('goods/basicGoods/detail', { goodsReleaseId }, await apiLogin('admin'));
    expect(saved.data.salePrice).toBe('30.00');
    expect(Object.fromEntries(saved.data.zones.map((z) => [z.zoneName, z.price]))).toEqual({ 'Cold chain private': '123456789012.34', 'National public': null });

    await page.goto('/billing/package/list/basic');
    await row(page, planName).getByRole('button', { name: 'Publish' }).click();
    const modal = dialog(page);
    await modal.locator('.ant-select').first().click();
    await page.keyboard.type('智行物流科技');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: CUSTOMER }).first().click();
    await page.keyboard.press('Escape');
    await shot(page, 'publish-en');
    await modal.locator('.ant-btn-primary').last().click();
    await expect.poll(async () => {
      const admin = await apiLogin('admin');
      const r = await api<{ list: { name: string; releaseCount: number }[] }>('goods/basicGoods/getListPage', { name: planName }, admin);
      return r.data.list[0]?.releaseCount;
    }, POLL).toBe(1);
    await shot(page, 'package-list-admin-en');
    shared.planName = planName;
    shared.basicPlanName = planName;
    shared.basicPrice = '30.00';
    await page.context().close();
  });

  it('as the enterprise customer: the published plan is in its package list (en and zh)', async () => {
    const planName = shared.planName;
    expect(planName, 'the plan of the step before').not.toBe('');
    for (const lang of ['en', 'zh'] as const) {
      const page = await newPage(browser, lang);
      await login(page, 'enterprise');
      await page.goto('/billing/package/list/basic');
      await row(page, planName).waitFor();
      await shot(page, `package-list-enterprise-${lang}`);
      await page.context().close();
    }
    // and the channel customer, to whom it was not published, does not see it
    const chan = await apiLogin('channel');
    const r = await api<{ list: unknown[] }>('goods/basicGoods/getListPage', { name: planName }, chan);
    expect(r.data.list).toEqual([]);
  });
});

describe('retail plans in the browser', () => {
  it('as the enterprise: the price rule refuses a price not above the basic plan, then a retail plan is created', async () => {
    const page = await newPage(browser, 'en');
    await login(page, 'enterprise');
    await page.goto('/billing/package/list/retail');
    await row(page, '车主畅享 10GB 月包').waitFor();
    await shot(page, 'retail-list-en');
    await visible(page).getByTestId('retail-add').click();
    await page.waitForURL('**/billing/package/addretail');
    const form = visible(page).getByTestId('retail-form');
    // unique per attempt: the runner retries a failed test once against the same server
    const name = `E2E driver 20GB ${Date.now() % 100_000}`;
    await form.getByTestId('retail-name').fill(name);
    await pick(page, form, 'custId', '智行物流科技有限公司');
    await pick(page, form, 'goodsReleaseId', shared.basicPlanName);
    await form.getByTestId('retail-price').fill(shared.basicPrice);
    await form.getByTestId('retail-proportion').fill('20');
    await form.getByTestId('retail-save').click();
    await expect.poll(() => fieldError(form, 'price').innerText(), POLL).toBe(`Retail price must be greater than the basic plan sale price (CNY ${shared.basicPrice})`);
    await shot(page, 'retail-form-price-rule-en');
    await form.getByTestId('retail-price').fill(above(shared.basicPrice, 10));
    await form.getByTestId('retail-crossed').fill('1');
    await form.getByTestId('retail-save').click();
    await expect.poll(() => fieldError(form, 'crossedPrice').innerText(), POLL).toBe('Crossed-out price must not be lower than the retail price');
    await form.getByTestId('retail-crossed').fill('99');
    await expect.poll(() => fieldError(form, 'crossedPrice').count(), POLL).toBe(0);
    await shot(page, 'retail-form-en');
    await form.getByTestId('retail-save').click();
    await page.waitForURL('**/billing/package/list/retail');
    await row(page, name).waitFor();
    const ent = await apiLogin('enterprise');
    const list = await api<{ list: { retailName: string; price: string; basicName: string }[] }>('billing/retailGoods/getListPage', { retailName: name }, ent);
    // prices travel as exact decimal text
    expect(list.data.list).toMatchObject([{ retailName: name, price: above(shared.basicPrice, 10), basicName: shared.basicPlanName }]);
    await page.context().close();
  });

  it('asks before saving a second retail plan of the same name for the customer (zh)', async () => {
    const page = await newPage(browser, 'zh');
    await login(page, 'enterprise');
    await page.goto('/billing/package/addretail');
    const form = visible(page).getByTestId('retail-form');
    await form.getByTestId('retail-name').fill('车主畅享 10GB 月包');
    await pick(page, form, 'custId', '智行物流科技有限公司');
    await pick(page, form, 'goodsReleaseId', shared.basicPlanName);
    await form.getByTestId('retail-price').fill(above(shared.basicPrice, 20));
    await form.getByTestId('retail-proportion').fill('15');
    await shot(page, 'retail-form-zh');
    await form.getByTestId('retail-save').click();
    const confirm = dialog(page);
    await expect.poll(() => confirm.innerText(), POLL).toContain('该客户已有同名零售套餐“车主畅享 10GB 月包”，是否继续？');
    await page.waitForTimeout(400); // the dialog's opening animation
    await shot(page, 'retail-duplicate-zh');
    await confirm.getByRole('button', { name: '继续保存' }).click();
    await page.waitForURL('**/billing/package/list/retail');
    await expect.poll(() => row(page, '车主畅享 10GB 月包').count(), POLL).toBeGreaterThanOrEqual(2);
    await shot(page, 'retail-list-zh');
    // the new plan's change record
    await row(page, '车主畅享 10GB 月包').first().getByRole('button', { name: /更多/ }).click();
    await page.locator('.ant-dropdown:visible .ant-dropdown-menu-item', { hasText: '变更记录' }).click();
    await page.waitForURL('**/billing/package/retailrecord/*');
    await expect.poll(() => visible(page).innerText(), POLL).toContain('智行物流管理员');
    await shot(page, 'retail-record-zh');

    // detail, then edit the price: the change record shows before and after
    await visible(page).getByRole('button', { name: '零售套餐详情' }).click();
    await page.waitForURL('**/billing/package/retaildetail/*/*');
    await expect.poll(() => visible(page).innerText(), POLL).toContain('按利润');
    await shot(page, 'retail-detail-zh');
    await visible(page).getByRole('button', { name: /编\s*辑/ }).click();
    await page.waitForURL('**/billing/package/editretail/*');
    const edit = visible(page).getByTestId('retail-form');
    await expect.poll(() => edit.getByTestId('retail-name').inputValue(), POLL).toBe('车主畅享 10GB 月包');
    const newPrice = above(shared.basicPrice, 25);
    await edit.getByTestId('retail-price').fill(newPrice);
    await edit.getByTestId('retail-save').click();
    await page.waitForURL('**/billing/package/list/retail');
    await row(page, '车主畅享 10GB 月包').first().getByRole('button', { name: /更多/ }).click();
    await page.locator('.ant-dropdown:visible .ant-dropdown-menu-item', { hasText: '变更记录' }).click();
    await page.waitForURL('**/billing/package/retailrecord/*');
    // (the list may still be on screen for a moment after the address changed)
    await expect.poll(async () => {
      const latest = await visible(page).locator('tr.ant-table-row').first().innerText();
      return latest.includes('修改') && latest.includes(newPrice);
    }, POLL).toBe(true);
    await shot(page, 'retail-record-edit-zh');
    await page.context().close();
  });
});

describe('the limits of the basic plan form (staff)', () => {
  it('shows the spec\'s message for the 11th zone, a repeated service, a service without QoS, the 5th APN and test + silent > 12 months (zh)', async () => {
    const lang = 'zh';
    const suffix = unique();
    const admin = await apiLogin('admin');
    const noQos = `E2E 无 QoS ${suffix}`;
    expect((await api('network/commserv/save', { commservName: noQos, commservType: 1, directional: false, priority: 5 }, admin)).success).toBe(true);
    const apns = [1, 2, 3].map((i) => `e2e${suffix}-${i}.ct`);
    for (const apnName of apns) {
      expect((await api('network/apn/save', { apnName, operatorId: Operator.ChinaTelecom, apnType: 1, ipAllocation: 1 }, admin)).success).toBe(true);
    }

    const page = await newPage(browser, lang);
    await login(page, 'admin');
    await page.goto('/billing/package/addbasic');
    const form = visible(page);
    await pick(page, form, 'operatorId', '中国电信');
    await shot(page, 'basic-plan-form-top-zh');

    // a 5th APN
    await pickMany(page, form, 'apnIds', ['ctnet', 'zhixing.ctm2m', ...apns]);
    await expect.poll(() => fieldError(form, 'apnIds').innerText(), POLL).toBe(msg(ErrorCode.PlanApnTooMany, lang, { max: 4 }));

    // test period + silent period over 12 months
    await form.locator('#testPeriodMonths').fill('6');
    await form.getByTestId('plan-silent').fill('7');
    await form.getByTestId('plan-silent').blur();
    await expect.poll(() => fieldError(form, 'silentPeriodMonths').innerText(), POLL).toBe(msg(ErrorCode.PlanTestSilentTooLong, lang, { max: 12 }));

    // test validity: only 30/60/90/180/360 days can be chosen
    await form.locator('#testValidityDays').click({ force: true });
    await expect.poll(() => page.locator('.ant-select-dropdown:visible .ant-select-item-option').allInnerTexts(), POLL).toEqual(['30', '60', '90', '180', '360']);
    await page.keyboard.press('Escape');

    // the same service in two zones, a service without QoS
    for (let i = 0; i < 3; i++) await form.getByTestId('zone-add').click();
    await form.locator('#zones_0_zoneName').fill('甲');
    await form.locator('#zones_1_zoneName').fill('乙');
    await form.locator('#zones_2_zoneName').fill('丙');
    await pickMany(page, form, 'zones_0_commservIds', ['通用互联网数据']);
    await pickMany(page, form, 'zones_1_commservIds', ['通用互联网数据']);
    await expect.poll(() => form.innerText(), POLL).toContain(msg(ErrorCode.PlanServiceRepeated, lang, { zone: '乙', name: '通用互联网数据' }));
    await pickMany(page, form, 'zones_2_commservIds', [noQos]);
    await expect.poll(() => fieldError(form, 'zones_2_commservIds').innerText(), POLL).toBe(msg(ErrorCode.PlanServiceNoQos, lang, { zone: '丙', name: noQos }));
    await form.getByTestId('zone-2').scrollIntoViewIfNeeded();
    await shot(page, 'basic-plan-limits-zh');

    // an 11th zone
    for (let i = 3; i < 10; i++) await form.getByTestId('zone-add').click();
    await form.getByTestId('zone-add').click();
    await expect.poll(() => form.getByTestId('zone-limit-error').innerText(), POLL).toBe(msg(ErrorCode.PlanZoneTooMany, lang, { max: 10 }));
    await expect(form.locator('[data-testid^="zone-"][data-testid$="-services"]').count()).resolves.toBe(10);
    await shot(page, 'basic-plan-form-zh');

    // nothing of this reaches the server: saving is refused in the form
    await form.getByTestId('plan-save').click();
    await page.waitForTimeout(500);
    expect(page.url()).toContain('/billing/package/addbasic');
    await page.context().close();
  });
});
