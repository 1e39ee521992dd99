import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { POLL, api, apiLogin, dialog, expectText, launch, login, newPage, row, shot, visible } from './support.ts';

/**
 * Issue 15, automation rules end to end (docs/automation.md): the enterprise adds a data-usage rule (the §5 contact
 * message first), publishes it after a confirmation, opens it and dry-runs it (en); the list and the trigger records in
 * Chinese; another customer does not see the rule.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const NAME = 'E2E usage 80%';

describe('automation rules', () => {
  it('a customer adds, publishes and dry-runs a rule; the list and trigger records in zh; another customer sees nothing', { timeout: 240_000 }, async () => {
    const token = await apiLogin('enterprise');
    const left = (await api<{ list: { ruleId: number }[] }>('core/alarm/rule/getRuleListPage', { name: NAME }, token)).data.list;
    for (const r of left) await api('core/alarm/rule/deleteRule', { ruleId: r.ruleId }, token);

    const page = await newPage(browser, 'en');
    await login(page, 'enterprise');
    await page.goto('/autorule/autorule-list/list');
    await visible(page).getByTestId('autorule-add').click();
    const form = dialog(page);
    await form.getByTestId('autorule-name').fill(NAME);
    await form.getByText('E-mail', { exact: true }).click();
    await form.getByTestId('autorule-emails').fill('a1@b.cn;a2@b.cn;a3@b.cn;a4@b.cn;a5@b.cn;a6@b.cn');
    await page.getByTestId('autorule-save').click();
    await expectText(form, 'At most 5 entries are allowed');
    await form.getByTestId('autorule-emails').fill('ops@example.com');
    await page.getByTestId('autorule-save').click();
    await expect.poll(() => row(page, NAME).count(), POLL).toBe(1);
    await expectText(row(page, NAME), 'Draft');

    await row(page, NAME).locator('[data-testid^=autorule-publish-]').click();
    await page.getByTestId('autorule-confirm').click();
    await expect.poll(() => row(page, NAME).locator('[data-testid^=autorule-switch-]').getAttribute('aria-checked'), { timeout: 30_000 }).toBe('true');

    await row(page, NAME).getByRole('link', { name: NAME }).click();
    await visible(page).getByTestId('autorule-detail').waitFor();
    await visible(page).getByTestId('autorule-dry-run-go').click();
    await visible(page).getByTestId('autorule-dry-run').getByText(/cards would have triggered/).waitFor({ timeout: 60_000 });
    await shot(page, 'autorule-detail-en');

    // another customer's login sees no such rule
    const other = await newPage(browser, 'en');
    await login(other, 'channel');
    await other.goto('/autorule/autorule-list/list');
    await visible(other).locator('.ant-table').first().waitFor();
    expect(await row(other, NAME).count()).toBe(0);
    await other.context().close();

    // in Chinese: the list and the trigger records
    await page.getByTestId('lang-toggle').click();
    await page.goto('/autorule/autorule-list/list');
    await expect.poll(() => row(page, NAME).count(), POLL).toBe(1);
    await expectText(row(page, NAME), '已发布');
    await shot(page, 'autorule-list-zh');
    await page.goto('/autorule/alarm-list/list');
    await visible(page).locator('.ant-table').first().waitFor();
    await shot(page, 'autorule-alarms-zh');
    await page.context().close();
  });
});
