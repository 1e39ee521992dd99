import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { api, apiLogin, cspViolations, expectText, launch, login, newPage, shot, visible } from './support.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const topMenu = (page: import('playwright-core').Page) =>
  page.locator('.lx-sider .ant-menu-root > li > .ant-menu-submenu-title .ant-menu-title-content, .lx-sider .ant-menu-root > li.ant-menu-item .ant-menu-title-content').allInnerTexts();
const homeChildren = (page: import('playwright-core').Page) =>
  page.locator('.lx-sider .ant-menu-root > li:first-child .ant-menu-sub .ant-menu-title-content').allInnerTexts();

describe('console shell', () => {
  it.each([
    ['admin', ['首页', '计费', '自动化规则', '企业', '财务', '报表', '卡管理', '渠道卡', '快捷操作', '运营商', '库存', '运营管理', '系统'], ['概览', '客户管理', '账号管理']],
    ['manager', ['首页', '计费', '自动化规则', '企业', '财务', '报表', '卡管理', '渠道卡', '快捷操作', '运营商', '库存', '运营管理', '系统'], ['概览', '客户管理', '账号管理']],
    ['enterprise', ['首页', '计费', '自动化规则', '企业', '财务', '报表', '卡管理', '快捷操作', '系统'], ['概览', '客户管理', '账号管理']],
    ['channel', ['首页', '计费', '自动化规则', '企业', '财务', '报表', '卡管理', '渠道卡', '快捷操作', '系统'], ['概览', '客户管理', '账号管理']],
    // role 5000 holds the traffic detail query (6100000) and diagnosis under Shortcuts
    ['subcustomer', ['首页', '计费', '自动化规则', '报表', '卡管理', '快捷操作'], ['概览']],
  ])('%s sees exactly the permitted menu', async (loginName, top, home) => {
    const page = await newPage(browser, 'zh');
    await login(page, loginName);
    await page.waitForURL('**/home/index');
    expect(await topMenu(page)).toEqual(top);
    expect(await homeChildren(page)).toEqual(home);
    await shot(page, `menu-${loginName}`);
    // the user menu offers account and customer management except to role 5000
    await page.getByTestId('user-menu').hover();
    const items = page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-title-content');
    await items.first().waitFor();
    const texts = await items.allInnerTexts();
    expect(texts.includes('账号管理')).toBe(loginName !== 'subcustomer');
    expect(texts.includes('客户管理')).toBe(loginName !== 'subcustomer');
    expect(texts).toContain('退出登录');
    // the login page, the shell and the overview with its charts run under the server's policy
    expect(cspViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('switches the whole shell between Chinese and English and remembers it', async () => {
    const page = await newPage(browser, 'zh');
    await login(page, 'admin');
    expect(await topMenu(page)).toEqual(['首页', '计费', '自动化规则', '企业', '财务', '报表', '卡管理', '渠道卡', '快捷操作', '运营商', '库存', '运营管理', '系统']);
    await expectText(page.locator('.lx-breadcrumb'), '首页');
    // the switch comes while the sign-in notice ("登录成功") may still show: a notice on screen changes language with
    // the rest (it once stayed in Chinese)
    await page.getByTestId('lang-toggle').click();
    await page.waitForFunction(() => document.querySelector('.lx-sider')?.textContent?.includes('Home'));
    const notices = await page.locator('.ant-message-notice').allInnerTexts();
    expect(notices.filter((n) => /[\u4e00-\u9fff]/.test(n))).toEqual([]);
    expect(await topMenu(page)).toEqual(['Home', 'Billing', 'Automation rules', 'Business', 'Financial', 'Reports', 'Cards', 'Channel cards', 'Shortcuts', 'Operators', 'Stock', 'Operation management', 'System']);
    await expectText(page.locator('.lx-breadcrumb'), 'Overview');
    await expect(page.locator('.lx-header-search input').getAttribute('placeholder')).resolves.toBe('Search cards, customers, plans');
    expect(await page.evaluate(() => localStorage.getItem('lx_language'))).toBe('en');
    await shot(page, 'shell-en');
    await page.reload();
    await page.locator('.lx-sider').waitFor();
    expect(await topMenu(page)).toEqual(['Home', 'Billing', 'Automation rules', 'Business', 'Financial', 'Reports', 'Cards', 'Channel cards', 'Shortcuts', 'Operators', 'Stock', 'Operation management', 'System']);
    expect(cspViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('header search finds pages by Chinese and English titles', async () => {
    const page = await newPage(browser, 'en');
    await login(page, 'admin');
    const search = page.locator('.lx-header-search input');
    await search.fill('角色');
    await page.locator('.ant-select-item-option').first().waitFor();
    expect(await page.locator('.ant-select-item-option').allInnerTexts()).toEqual(['System / Roles']);
    await page.locator('.ant-select-item-option').first().click();
    await page.waitForURL('**/system/role/list');
    await page.context().close();
  });

  it('keeps at most 20 tabs, closes others and reloads a tab', async () => {
    const page = await newPage(browser, 'en');
    await login(page, 'admin');
    for (let i = 1; i <= 22; i++) {
      await page.evaluate((p) => {
        window.history.pushState({}, '', p);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, `/home/account/list/${100000 + i}`);
      await page.locator(`.lx-tab[data-key="/home/account/list/${100000 + i}"]`).waitFor();
    }
    await expect(page.locator('.lx-tab').count()).resolves.toBe(20);
    // the oldest went first: the overview tab and the first account lists are gone
    await expect(page.locator('.lx-tab[data-key="/home/index"]').count()).resolves.toBe(0);
    await expect(page.locator('.lx-tab[data-key="/home/account/list/100022"]').count()).resolves.toBe(1);
    await shot(page, 'tabs-20');
    await page.locator('.lx-tab[data-key="/home/account/list/100010"]').click({ button: 'right' });
    await page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-item', { hasText: 'Close others' }).click();
    await expect(page.locator('.lx-tab').count()).resolves.toBe(1);
    await page.waitForURL('**/home/account/list/100010');
    // reload remounts the page: the element is replaced
    const before = await visible(page).elementHandle();
    await page.locator('.lx-tab').click({ button: 'right' });
    await page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-item', { hasText: 'Reload' }).click();
    await page.waitForFunction((el) => !el?.isConnected, before);
    await expect(page.locator('.lx-tab').count()).resolves.toBe(1);
    await page.context().close();
  });

  it('sends the user to login with status 20003 when the session dies', async () => {
    const page = await newPage(browser, 'zh');
    await login(page, 'manager');
    const token = await page.evaluate(() => localStorage.getItem('lx_access_token'));
    await api('base/oauth/user/logout', {}, token!);
    // the next call with the dead token answers 20003 (reloading makes the page call the server again)
    await page.reload();
    await page.waitForURL('**/login?status=20003', { timeout: 15_000 });
    // the login form is plain HTML and CSS now (no antd on the login page): its notice has a test id
    await expectText(page.getByTestId('login-notice'), '登录已失效');
    expect(await page.evaluate(() => [localStorage.getItem('lx_access_token'), localStorage.getItem('lx_role_id'), localStorage.getItem('lx_login_name')])).toEqual([null, null, null]);
    await shot(page, 'session-expired');
    await page.context().close();
  });

  it('shows the not-found page for unknown and unpermitted paths, with a way home', async () => {
    const page = await newPage(browser, 'en');
    await login(page, 'subcustomer');
    await page.goto('/no/such/page');
    await expectText(visible(page), 'Sorry, the page you visited does not exist!');
    await page.goto('/system/role/list');
    await expectText(visible(page), 'Sorry, the page you visited does not exist!');
    await shot(page, 'not-found');
    await visible(page).getByRole('button', { name: 'Back to home' }).click();
    await page.waitForURL('**/home/index');
    await page.context().close();
  });

  it('redirects / to /home and an unauthenticated visit to /login', async () => {
    const page = await newPage(browser, 'zh');
    await page.goto('/system/role/list');
    await page.waitForURL('**/login');
    await shot(page, 'login-zh');
    await login(page, 'admin');
    await page.goto('/');
    await page.waitForURL('**/home/index');
    await page.context().close();
  });

  it('a role 3000 token cannot read staff lists even by typing the URL', async () => {
    const token = await apiLogin('enterprise');
    const r = await api('system/apiLog/getListPage', {}, token);
    expect(r.errorCode).toBe(20002);
  });
});
