import path from 'node:path';
import { inject } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';

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
export async function newPage(browser: Browser, lang: 'zh' | 'en' = 'zh'): Promise<Page> {
  // the users are in China: dates show in China time as in their browsers
  const context = await browser.newContext({
    baseURL: baseURL(), viewport: { width: 1440, height: 900 }, locale: lang === 'zh' ? 'zh-CN' : 'en-US', timezoneId: 'Asia/Shanghai',
  });
  await context.addInitScript((l) => {
    if (!localStorage.getItem('lx_language')) localStorage.setItem('lx_language', l);
  }, lang);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

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

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: false });
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
