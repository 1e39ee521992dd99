import path from 'node:path';
import { expect, inject } from 'vitest';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { checkLanguage, watchUserText } from './language.ts';

export { checkLanguage };

export const DEMO_PASSWORD = 'Demo@2026pass';
export const baseURL = () => inject('baseURL');
const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');

/** Debian's Chromium, headless (Playwright cannot download browsers here). */
export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
  });
}

/** A fresh browser context with the stored language set (spec §1: lx_language). */
export async function newPage(browser: Browser, lang: 'zh' | 'en' = 'zh', timezoneId = 'Asia/Shanghai'): Promise<Page> {
  // the browser's zone (times show in the product's business zone whatever it is: locale.e2e.ts)
  const context = await browser.newContext({
    baseURL: baseURL(), viewport: { width: 1440, height: 900 }, locale: lang === 'zh' ? 'zh-CN' : 'en-US', timezoneId,
  });
  await context.addInitScript((l) => {
    if (!localStorage.getItem('lx_language')) localStorage.setItem('lx_language', l);
  }, lang);
  const violations: string[] = [];
  await context.exposeFunction('__lxCspViolation', (v: string) => violations.push(v));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __lxCspViolation(v: string): void }).__lxCspViolation(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  const page = await context.newPage();
  cspViolationsOf.set(page, violations);
  watchUserText(page);
  page.setDefaultTimeout(15_000);
  return page;
}

const cspViolationsOf = new WeakMap<Page, string[]>();

/** What the server's Content-Security-Policy blocked on the pages this page has shown so far (should be nothing). */
export const cspViolations = (page: Page): string[] => cspViolationsOf.get(page) ?? [];

/** Logs in through the login page and waits for the shell. */
export async function login(page: Page, loginName: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.locator('#loginName').fill(loginName);
  await page.locator('#password').fill(password);
  await page.locator('button[type=submit]').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  await page.locator('.lx-sider').waitFor();
}

/** The visible page: hidden keep-alive pages stay in the DOM, so queries must be scoped (PITFALLS). */
export const visible = (page: Page) => page.locator('.lx-page:visible');

/** Top-level and nested menu texts of the side menu. */
export async function menuTexts(page: Page): Promise<string[]> {
  return (await page.locator('.lx-sider .ant-menu-title-content').allInnerTexts()).map((s) => s.trim()).filter(Boolean);
}

/** Saves a screenshot of the screen a spec settled on, then checks it is in one language (language.ts). */
export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: false });
  await checkLanguage(page);
}

/** Calls the API directly (setup steps that are not what a spec is about). */
export async function api<T = any>(endpoint: string, body: unknown, token?: string): Promise<{ success: boolean; msg: string; errorCode: number | null; data: T }> {
  const res = await fetch(`${baseURL()}/api/cmp/${endpoint}?ts=${Date.now()}&lang=en`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
    body: JSON.stringify(body),
  });
  return res.json();
}

export async function apiLogin(loginName: string, password = DEMO_PASSWORD): Promise<string> {
  const r = await api<{ accessToken: string }>('base/oauth/user/login', { loginName, password });
  if (!r.success) throw new Error(r.msg);
  return r.data.accessToken;
}

/** expect.poll waits 1 s by default: too short for a busy machine */
export const POLL = { timeout: 15_000 };

/** Waits until a locator's text holds a string (a message can appear a moment after the click that causes it). */
export async function expectText(locator: Locator, text: string): Promise<void> {
  await expect.poll(() => locator.innerText(), POLL).toContain(text);
}

/** The open dialog (modal or drawer) on top. */
export const dialog = (page: Page) => page.getByRole('dialog').filter({ visible: true }).last();

/** The rows of the visible page's tables holding a text. */
export const row = (page: Page, text: string) => visible(page).locator('tr.ant-table-row', { hasText: text });

/** Waits until no select dropdown is open (a closing one stays "visible" while it animates out). */
export async function dropdownsClosed(page: Page): Promise<void> {
  await expect.poll(() => page.locator('.ant-select-dropdown:visible').count(), POLL).toBe(0);
}

/** Opens a search form's "More filters" (folded away by default; the open state is remembered per login). */
export async function moreFilters(search: Locator): Promise<void> {
  const toggle = search.getByTestId('search-more');
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect.poll(() => toggle.getAttribute('aria-expanded'), POLL).toBe('true');
}

/**
 * Picks an option of the antd Select inside a form item. A click during a modal's opening animation can be lost, so
 * the select is opened again (three tries) until the option shows.
 */
export async function pick(page: Page, scope: Locator, field: string, option: string | RegExp): Promise<void> {
  await dropdownsClosed(page);
  const item = page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first();
  for (let attempt = 1; ; attempt++) {
    await scope.locator(`#${field}`).click({ force: true });
    try {
      await item.waitFor({ timeout: 5_000 });
      break;
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
  await item.click();
  await dropdownsClosed(page);
}
