import { chromium } from 'playwright-core';
const base = 'http://127.0.0.1:8091';
const out = '/tmp/helperU/shots';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'] });
const [who, langs, what] = [process.argv[2] ?? 'admin', (process.argv[3] ?? 'zh,en').split(','), (process.argv[4] ?? 'home,flow,session').split(',')];
for (const lang of langs) {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 }, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
  await context.addInitScript((l) => { if (!localStorage.getItem('lx_language')) localStorage.setItem('lx_language', l); }, lang);
  const page = await context.newPage();
  page.setDefaultTimeout(30000);
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text().slice(0, 200)); });
  await page.goto('/login');
  await page.locator('#loginName').fill(who);
  await page.locator('#password').fill('Demo@2026pass');
  await page.locator('button[type=submit]').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  await page.locator('.lx-sider').waitFor();
  if (what.includes('home')) {
    await page.goto('/home/index');
    await page.getByTestId('home-usage').waitFor();
    await page.waitForTimeout(3500);
    await page.getByTestId('home-usage').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${out}/home-${who}-${lang}.png`, fullPage: true });
  }
  if (what.includes('flow')) {
    await page.goto('/shortcuts/queryflow/list');
    await page.getByTestId('flow-search').waitFor();
    await page.waitForTimeout(2500);
    await page.screenshot({ path: `${out}/flow-${who}-${lang}.png`, fullPage: false });
  }
  if (what.includes('session')) {
    await page.locator('.lx-page:visible label.ant-radio-button-wrapper').nth(1).click();
    await page.waitForTimeout(2500);
    await page.screenshot({ path: `${out}/flow-session-${who}-${lang}.png`, fullPage: false });
  }
  console.log(lang, 'console:', errors.slice(0, 8));
  await context.close();
}
await browser.close();
