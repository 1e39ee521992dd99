import fs from 'node:fs';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { POLL, api, apiLogin, dialog, expectText, launch, login, newPage, pick, row, shot, visible } from './support.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});


describe('administration flows in the browser', () => {
  it('creates an account, freezes it (it can no longer sign in) and thaws it', async () => {
    // a name of its own per try: a retry after a late failure finds the first try's account
    const loginName = `e2e.operator.${Date.now().toString(36)}`;
    const page = await newPage(browser, 'en');
    await login(page, 'channel');
    await page.goto('/home/account/list');
    await visible(page).getByTestId('account-create').click();
    const form = dialog(page);
    await form.locator('#loginName').fill(loginName);
    await form.locator('#userName').fill('E2E operator');
    await pick(page, form, 'roleId', 'Channel customer');
    await form.locator('#phone').fill('13800001111;13800002222');
    await form.locator('#password').fill('E2e#pass2026');
    await shot(page, 'account-create-en');
    await form.locator('.ant-btn-primary').last().click();
    await row(page, loginName).waitFor();
    expect((await api('base/oauth/user/login', { loginName, password: 'E2e#pass2026' })).success).toBe(true);

    await row(page, loginName).getByText('Freeze', { exact: true }).click();
    const freeze = dialog(page);
    await freeze.locator('.ant-btn-primary').last().click();
    await expectText(freeze, 'Please select or enter');
    await freeze.locator('#reason').fill('Left the company');
    await freeze.locator('.ant-btn-primary').last().click();
    await row(page, loginName).getByText('Frozen').waitFor();
    const refused = await api('base/oauth/user/login', { loginName, password: 'E2e#pass2026' });
    expect(refused.errorCode).toBe(20014);
    await shot(page, 'account-frozen-en');

    await row(page, loginName).getByText('Thaw', { exact: true }).click();
    const thaw = dialog(page);
    await thaw.locator('#reason').fill('Came back');
    await thaw.locator('.ant-btn-primary').last().click();
    await row(page, loginName).getByText('Normal').waitFor();
    expect((await api('base/oauth/user/login', { loginName, password: 'E2e#pass2026' })).success).toBe(true);

    await row(page, loginName).getByText('Freeze records').click();
    await page.waitForURL(`**/home/account/freeze/${loginName}`);
    await expect.poll(() => visible(page).innerText(), { timeout: 15_000 }).toContain('Left the company');
    await expect.poll(() => visible(page).innerText(), { timeout: 15000 }).toContain('Came back');
    await shot(page, 'freeze-records-en');
    await page.context().close();
  });

  it('creates a role whose permissions take effect for its user after re-login', async () => {
    // names of their own per try: a retry after a late failure finds the first try's role and account
    const suffix = Date.now().toString(36).toUpperCase();
    const roleCode = `E2E_AUDITOR_${suffix}`;
    const page = await newPage(browser, 'zh');
    await login(page, 'admin');
    await page.goto('/system/role/list');
    await visible(page).getByRole('button', { name: /新增角色/ }).click();
    const drawer = dialog(page);
    await drawer.locator('#roleCode').fill(roleCode);
    await drawer.locator('#roleName').fill(`审计员${suffix}`);
    await pick(page, drawer, 'roleType', '运营管理员');
    await drawer.getByTestId('permission-filter').locator('input').fill('用户行为日志');
    await drawer.getByTestId(`perm-14040000`).click();
    await shot(page, 'role-create-zh');
    await drawer.getByTestId('role-save').click();
    await row(page, roleCode).waitFor();

    const admin = await apiLogin('admin');
    const roles = await api<{ list: { roleId: number; roleCode: string; permissions: number[] }[] }>('system/role/getRoleListPage', { roleName: `审计员${suffix}` }, admin);
    const role = roles.data.list.find((r) => r.roleCode === roleCode)!;
    expect(role.permissions).toEqual(expect.arrayContaining([14000000, 14040000]));
    const auditor = `e2e.auditor.${suffix.toLowerCase()}`;
    expect((await api('core/account/account/saveAccount', { loginName: auditor, userName: '审计', roleId: role.roleId, password: 'Audit#2026x' }, admin)).success).toBe(true);

    const user = await newPage(browser, 'zh');
    await login(user, auditor, 'Audit#2026x');
    await user.waitForURL('**/system/userBehavior/list');
    const menu = async () => user.locator('.lx-sider .ant-menu-title-content').allInnerTexts();
    expect(await menu()).toEqual(['系统', '用户行为日志']);

    // grant the API log; it shows after signing in again
    await api('system/role/updateRole', { roleId: role.roleId, permissions: [...role.permissions, 14010000] }, admin);
    await login(user, auditor, 'Audit#2026x');
    // the menu is drawn from the new sign-in's permissions once the shell has rendered them
    await expect.poll(menu, { timeout: 10_000 }).toEqual(['系统', 'API 请求日志', '用户行为日志']);
    await shot(user, 'role-effect-zh');
    await user.context().close();
    await page.context().close();
  });

  it('creates an announcement and shows it in the header banner in both languages', async () => {
    const page = await newPage(browser, 'zh');
    await login(page, 'admin');
    await page.goto('/shortcuts/notification/list');
    await visible(page).getByRole('button', { name: /新增公告/ }).click();
    const modal = dialog(page);
    await modal.getByTestId('notice-content').fill('今晚 23:00 至 24:00 系统升级');
    await modal.getByTestId('notice-english').fill('System upgrade tonight 23:00-24:00');
    const end = modal.getByTestId('notice-end-date');
    await end.click();
    const tomorrow = new Date(Date.now() + 2 * 86_400_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    await end.fill(`${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())} 12:00`);
    await end.press('Enter');
    await modal.locator('.ant-btn-primary').last().click();
    await page.getByTestId('notice-banner').waitFor();
    await expectText(page.getByTestId('notice-banner'), '今晚 23:00 至 24:00 系统升级');
    await shot(page, 'banner-zh');
    await page.getByTestId('lang-toggle').click();
    await expect.poll(() => page.getByTestId('notice-banner').innerText(), { timeout: 15000 }).toContain('System upgrade tonight');
    // the switch closes the Chinese "saved" message (it fades out)
    await expect.poll(() => page.locator('.ant-message-notice').count(), POLL).toBe(0);
    await shot(page, 'banner-en');
    // other users see it too
    const sub = await newPage(browser, 'en');
    await login(sub, 'subcustomer');
    await expectText(sub.getByTestId('notice-banner'), 'System upgrade tonight');
    await sub.context().close();
    await page.context().close();
  });

  it('exports the behaviour log and downloads the file again from the download tasks', async () => {
    const page = await newPage(browser, 'en');
    await login(page, 'admin');
    await page.goto('/system/userBehavior/list');
    await visible(page).locator('tr.ant-table-row').first().waitFor();
    // a few rows: written during the call and downloaded at once (issue 12)
    await Promise.all([page.waitForEvent('download'), visible(page).getByTestId('export-button').click()]);
    await page.locator('.ant-message', { hasText: 'Export done' }).waitFor();
    await page.goto('/card/downloadtask/list');
    const task = visible(page).locator('tr.ant-table-row', { hasText: 'User behaviour log' }).first();
    await task.getByText('Succeeded').waitFor({ timeout: 30_000 });
    await shot(page, 'downloads-en');
    const [download] = await Promise.all([page.waitForEvent('download'), task.getByRole('button', { name: /Download/ }).click()]);
    expect(download.suggestedFilename()).toMatch(/^User behaviour log-\d{12}\.xlsx$/);
    const file = await download.path();
    const bytes = fs.readFileSync(file!);
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    await page.context().close();
  });
});

describe('open pages and first login', () => {
  it('registers a company; after approval its administrator signs in', async () => {
    const page = await newPage(browser, 'en');
    await page.goto('/login');
    await page.getByRole('link', { name: 'Register an enterprise account' }).click();
    await page.waitForURL('**/register');
    await page.locator('#custName').fill('E2E Smart Farming Ltd');
    await page.locator('#loginName').fill('e2e.farm');
    await page.locator('#password').fill('Farm#2026ok');
    await page.locator('#confirmPassword').fill('Farm#2026ok');
    await page.locator('#adminName').fill('Li Na');
    await page.locator('#adminPhone').fill('13912345678 ');
    await page.locator('button[type=submit]').click();
    await expectText(page.locator('form'), 'Spaces are not allowed');
    await page.locator('#adminPhone').fill('13912345678');
    await page.locator('#adminEmail').fill('li.na@farm.example.com');
    await shot(page, 'register-en');
    await page.locator('button[type=submit]').click();
    await page.getByText('Your application was submitted').waitFor();

    const admin = await apiLogin('admin');
    const applies = await api<{ list: { applyId: number; loginName: string }[] }>('core/account/customer/getRegisterApplyListPage', { auditStatus: 0 }, admin);
    const apply = applies.data.list.find((a) => a.loginName === 'e2e.farm')!;
    expect((await api('core/account/customer/auditRegisterApply', { applyId: apply.applyId, pass: true }, admin)).success).toBe(true);
    await login(page, 'e2e.farm', 'Farm#2026ok');
    await page.waitForURL('**/home/index');
    await page.context().close();
  });

  it('forces a password change when the account has a one-time password', async () => {
    const admin = await apiLogin('admin');
    const created = await api<{ initialPassword: string }>('core/account/account/saveAccount', { loginName: 'e2e.newbie', userName: 'Newbie', roleId: 2000 }, admin);
    const page = await newPage(browser, 'zh');
    await page.goto('/login');
    await page.locator('#loginName').fill('e2e.newbie');
    await page.locator('#password').fill(created.data.initialPassword);
    await page.locator('button[type=submit]').click();
    await page.locator('#newPassword').waitFor();
    await expectText(page.locator('.ant-alert'), '请先修改密码');
    await page.locator('#oldPassword').fill(created.data.initialPassword);
    await page.locator('#newPassword').fill('Newbie#2026');
    await page.locator('#confirmPassword').fill('Newbie#2026');
    await shot(page, 'forced-change-zh');
    await page.locator('button[type=submit]').click();
    await page.waitForURL('**/home/index');
    expect((await api('base/oauth/user/login', { loginName: 'e2e.newbie', password: 'Newbie#2026' })).data).toMatchObject({ mustResetPassword: false });
    await page.context().close();
  });
});

describe('network configuration', () => {
  it('adds an APN; a duplicate name on the same operator is refused on the field', async () => {
    const page = await newPage(browser, 'en');
    await login(page, 'admin');
    await page.goto('/operator/apn/list');
    const add = async (name: string) => {
      await visible(page).getByTestId('apn-add').click();
      const modal = dialog(page);
      await modal.getByTestId('apn-name').fill(name);
      await pick(page, modal, 'operatorId', 'China Unicom');
      await modal.locator('.ant-btn-primary').last().click();
      return modal;
    };
    // a fresh name each attempt, so the one retry allowed on this machine starts clean
    const name = `cuiot.meter${Date.now() % 100000}`;
    await add(name);
    await row(page, name).waitFor();
    const modal = await add(name.toUpperCase());
    await modal.getByText('This operator already has an APN with this name').waitFor();
    await shot(page, 'apn-duplicate-en');
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await page.goto('/operator/name/list');
    await expect.poll(() => visible(page).innerText(), { timeout: 15000 }).toContain('26th of each month');
    await page.context().close();
  });
});
