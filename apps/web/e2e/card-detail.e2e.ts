import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { CardState, ErrorCode, PlanOperationMode, errorMessage, type Lang } from '@lynx/contract';
import { POLL, api, apiLogin, dialog, dropdownsClosed, expectText, launch, login, newPage, shot, visible } from './support.ts';

/**
 * Issue 12, the card detail: its overview, the actions its state allows (the others disabled with the server's reason,
 * in the reader's language), and the diagnosis of a standard-version card, which runs what needs no professional
 * network instead of being refused.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

type ListRow = { iccid: string; state: number; goodsReleaseId: number | null };

/** A demo card of the enterprise in `state`, on a plan of the given operation mode. */
async function demoCard(state: number, mode: number = PlanOperationMode.Standard): Promise<string> {
  const admin = await apiLogin('admin');
  const plans = await api<{ list: { goodsReleaseId: number; operationMode: number }[] }>('goods/basicGoods/getListPage', { pageSize: 100, category: 'basic' }, admin);
  const ofMode = new Set(plans.data.list.filter((p) => p.operationMode === mode).map((p) => p.goodsReleaseId));
  const token = await apiLogin('enterprise');
  const r = await api<{ list: ListRow[] }>('core/sim/simQuery/getSimListPage', { states: [state], pageSize: 200 }, token);
  const card = r.data.list.find((c) => c.goodsReleaseId != null && ofMode.has(c.goodsReleaseId));
  expect(card, `a demo card in state ${state} with a plan (mode ${mode})`).toBeDefined();
  return card!.iccid;
}

const CJK = /[\u3400-\u9fff]/;

/** The card detail as a page object: its action buttons, their reasons and its overview. */
class CardDetail {
  constructor(readonly page: Page) {}
  get root(): Locator {
    return visible(this.page).getByTestId('card-detail');
  }
  action(name: string): Locator {
    return this.root.getByTestId(`action-${name}`);
  }
  async open(iccid: string) {
    await this.page.goto(`/card/card-list/detail/${iccid}`);
    await this.root.getByTestId('card-overview').waitFor();
    // the offers arrive after the card: wait until "change status" has its answer (enabled, or disabled with a reason)
    await expect.poll(async () => (await this.action('changeStatus').isEnabled()) || (await this.root.locator('[data-reason] [data-testid=action-changeStatus]').count()) > 0, POLL).toBe(true);
  }
  /** The reason shown on hover over a disabled action (the tooltip that appears shows it). */
  async reason(name: string): Promise<string> {
    const holder = this.root.locator('[data-reason]').filter({ has: this.page.getByTestId(`action-${name}`) });
    const text = (await holder.getAttribute('data-reason')) ?? '';
    await holder.hover();
    const tip = this.page.locator('.ant-tooltip').filter({ visible: true }).filter({ hasText: text });
    await expect.poll(() => tip.count(), POLL).toBeGreaterThan(0);
    await this.page.mouse.move(0, 0);
    return text;
  }
  /** The options of a select in the open dialog: their text and whether they are disabled. */
  async options(field: string, shotName?: string): Promise<{ text: string; disabled: boolean }[]> {
    const modal = dialog(this.page);
    // a plain click on the field's select (not a forced one): it waits until the dialog's opening animation has
    // settled, so it lands on this field and not on the one that is moving through its place
    await modal.locator('.ant-select').filter({ has: this.page.locator(`#${field}`) }).click();
    // the options of this field's list (it carries the field's id), not of any other open list
    const list = this.page.locator('.ant-select-dropdown:visible').filter({ has: this.page.locator(`[id="${field}_list"]`) });
    const items = list.locator('.ant-select-item-option');
    await items.first().waitFor();
    const out = await items.evaluateAll((els) => els.map((e) => ({ text: (e as HTMLElement).innerText, disabled: e.getAttribute('aria-disabled') === 'true' })));
    if (shotName) await shot(this.page, shotName);
    await this.page.keyboard.press('Escape');
    await dropdownsClosed(this.page);
    return out;
  }
}

describe('the card detail offers what the card state allows', () => {
  for (const lang of ['zh', 'en'] as Lang[]) {
    it(`an activated demo card: overview, its actions enabled, "already activated" said inside change status (${lang})`, async () => {
      const iccid = await demoCard(CardState.Activated);
      const page = await newPage(browser, lang);
      await login(page, 'enterprise');
      const detail = new CardDetail(page);
      await detail.open(iccid);
      const overview = detail.root.getByTestId('card-overview');
      await expectText(overview.getByTestId('overview-state'), CardState.label(CardState.Activated, lang));
      // usage against the quota of the plan, as "x of y" with a bar
      await expect.poll(() => overview.getByTestId('overview-used').innerText(), POLL).toMatch(lang === 'zh' ? / \/ / : / of /);
      await overview.getByTestId('overview-quota-bar').waitFor();
      for (const name of ['changeStatus', 'renew', 'changePlan', 'orderEventPack', 'zone', 'diagnose']) {
        await expect.poll(() => detail.action(name).isEnabled(), POLL).toBe(true);
      }
      // the daily usage as a table
      await overview.getByTestId('daily-usage-view').getByText(lang === 'zh' ? '表格' : 'Table').click();
      await overview.getByTestId('daily-usage-table').waitFor();
      await detail.action('changeStatus').click();
      const choices = await detail.options('action', `card-detail-activated-status-${lang}`);
      const activate = choices.find((c) => c.text.startsWith(lang === 'zh' ? '激活' : 'Activate'))!;
      expect(activate.disabled).toBe(true);
      expect(activate.text).toContain(errorMessage(ErrorCode.CardAlreadyInState, lang, {
        stateZh: CardState.label(CardState.Activated, 'zh'), stateEn: CardState.label(CardState.Activated, 'en'),
      }));
      expect(choices.find((c) => c.text.startsWith(lang === 'zh' ? '停机' : 'Deactivate'))?.disabled).toBe(false);
      await dialog(page).getByRole('button', { name: lang === 'zh' ? /取\s*消/ : 'Cancel' }).click();
      // the console's own words are in the reader's language (names of customers and plans are data)
      if (lang === 'en') expect(await detail.root.getByTestId('card-actions').innerText()).not.toMatch(CJK);
      await page.context().close();
    });

    it(`a deactivated demo card: renewal, event packs, SMS and network reset disabled with the spec's reasons; permit disabled (${lang})`, async () => {
      const iccid = await demoCard(CardState.Deactivated);
      const page = await newPage(browser, lang);
      await login(page, 'enterprise');
      const detail = new CardDetail(page);
      await detail.open(iccid);
      await expectText(detail.root.getByTestId('overview-state'), CardState.label(CardState.Deactivated, lang));
      for (const name of ['renew', 'orderEventPack', 'sendSms', 'networkReset']) await expect.poll(() => detail.action(name).isDisabled(), POLL).toBe(true);
      expect(await detail.reason('renew')).toBe(errorMessage(ErrorCode.CardNotActiveForOrder, lang));
      expect(await detail.reason('orderEventPack')).toBe(errorMessage(ErrorCode.CardNotActiveForOrder, lang));
      await shot(page, `card-detail-deactivated-${lang}`);
      const state = { stateZh: CardState.label(CardState.Deactivated, 'zh'), stateEn: CardState.label(CardState.Deactivated, 'en') };
      expect(await detail.reason('networkReset')).toBe(errorMessage(ErrorCode.CardOperationUnsupported, lang, state));
      expect(await detail.reason('sendSms')).toBe(errorMessage(ErrorCode.SmsCardNotReachable, lang, state));
      // still possible: activate it again, change its plan for later, block more zones
      for (const name of ['changeStatus', 'changePlan', 'zone']) expect(await detail.action(name).isEnabled()).toBe(true);
      await detail.action('zone').click();
      const ops = await detail.options('op', `card-detail-deactivated-permit-${lang}`);
      expect(ops.find((o) => o.text.startsWith(lang === 'zh' ? '放开' : 'Permit'))).toEqual({
        text: expect.stringContaining(errorMessage(ErrorCode.CardPermitDeactivated, lang)), disabled: true,
      });
      expect(ops.find((o) => o.text.startsWith(lang === 'zh' ? '限制' : 'Block'))?.disabled).toBe(false);
      await page.context().close();
    });
  }

  it("a standard-version card's diagnosis runs its checks; the professional-only one says so (en, then zh)", async () => {
    const iccid = await demoCard(CardState.Activated, PlanOperationMode.Standard);
    for (const lang of ['en', 'zh'] as Lang[]) {
      const page = await newPage(browser, lang);
      await login(page, 'enterprise');
      // from the card detail's "Diagnose" button
      const detail = new CardDetail(page);
      await detail.open(iccid);
      await detail.action('diagnose').click();
      await page.waitForURL(`**/shortcuts/diagnose/detail/${iccid}`);
      const view = visible(page);
      await view.getByTestId('diagnose-overall').waitFor();
      const checks = view.getByTestId('diagnose-checks');
      await expect.poll(() => checks.locator('[data-testid^="check-"]').count(), POLL).toBe(6);
      await expect(checks.getByTestId('check-cardState').getAttribute('data-verdict')).resolves.toBe('1');
      // the professional-only check: "not applicable", with why
      const policy = checks.getByTestId('check-policy');
      expect(await policy.getAttribute('data-verdict')).toBe('0');
      await expectText(policy, lang === 'zh' ? '仅适用于专业版卡' : 'Only for professional-version cards');
      await expectText(policy, lang === 'zh' ? '不适用' : 'Not applicable');
      await expectText(view.getByTestId('diagnose-standard-note'), lang === 'zh' ? '标准版卡' : 'standard-version card');
      expect(await view.getByTestId('diagnose-refusal').count()).toBe(0);
      await shot(page, `diagnose-standard-${lang}`);
      await page.context().close();
    }
  });
});
