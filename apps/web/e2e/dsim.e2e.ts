import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { api, apiLogin, baseURL, dialog, launch, login, newPage, row, shot, visible } from './support.ts';

/**
 * Issue 16: Card › Super SIM as the enterprise sees it in both languages: the demo's super SIMs with their profiles per
 * operator; a super SIM's detail; a switch of its operator by hand after the confirmation, answered by the vendor
 * simulator, and the switch record it leaves; the OEM strategies.
 */
let browser: Browser;
let token = '';
beforeAll(async () => {
  browser = await launch();
  token = await apiLogin('enterprise');
});
afterAll(async () => {
  await browser?.close();
});

const TEXTS = {
  zh: { title: '超级 SIM', records: '切换记录', unicom: '中国联通', ok: '已切换到中国联通', manual: '手动切换', succeeded: '切换成功', strategies: 'OEM 切换策略' },
  en: { title: 'Super SIMs', records: 'Switch records', unicom: 'China Unicom', ok: 'Switched to China Unicom', manual: 'Manual', succeeded: 'Succeeded', strategies: 'OEM switch strategies' },
} as const;
const SN = { zh: 'ZX2026SS0003', en: 'ZX2026SS0004' } as const;
const IMPORT = {
  zh: { wrong: '平台中没有这张卡，请先导入卡', items: 'SN 与各运营商 ICCID', header: 'SN,中国移动 ICCID,中国联通 ICCID,中国电信 ICCID,初始运营商,供应商卡' },
  en: { wrong: 'no such card on the platform; import the card first', items: 'SNs and their ICCIDs per operator', header: 'SN,China Mobile ICCID,China Unicom ICCID,China Telecom ICCID,Initial operator,Supplier card' },
} as const;

/** Two platform-stock cards (China Mobile and China Unicom) through the card import API; answers their ICCIDs. */
async function stockCards(adminToken: string, tag: string): Promise<[string, string]> {
  const cm = `898600209${tag}00000001`;
  const cu = `898601209${tag}00000001`;
  const csv = `ICCID,MSISDN,IMSI,Operator\r\n${cm},10649${tag}0001,46000${tag}00000001,China Mobile\r\n${cu},10649${tag}0002,46001${tag}00000001,China Unicom\r\n`;
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'cards.csv');
  const res = await fetch(`${baseURL()}/api/cmp/core/sim/simEnter/insert?ts=${Date.now()}&lang=en`, { method: 'POST', headers: { authorization: adminToken }, body: form });
  const body = await res.json();
  expect(body.data?.successRows, body.msg).toBe(2);
  return [cm, cu];
}

describe('super SIMs', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`switches a super SIM's operator by hand and shows the switch record (${lang})`, async () => {
      const sn = SN[lang];
      const before = await api('core/sim/dsimStrategy/info', { snNumber: sn }, token);
      expect(before.data.currentOperatorId).toBe(1);
      const page = await newPage(browser, lang);
      await login(page, 'enterprise');
      await page.goto('/card/dsimlist/list');
      const list = visible(page);
      await list.getByText(TEXTS[lang].title).first().waitFor();
      await row(page, sn).waitFor();
      await shot(page, `dsim-list-${lang}`);
      await list.getByTestId('dsim-strategies').click();
      await dialog(page).getByText(TEXTS[lang].strategies).waitFor();
      await page.locator('.ant-drawer .ant-table-row').first().waitFor();
      await shot(page, `dsim-strategies-${lang}`);
      await page.keyboard.press('Escape');
      await row(page, sn).getByTestId('dsim-sn-link').click();
      await page.waitForURL(`**/card/dsimlist/detail/${sn}/**`);
      const detail = visible(page);
      await detail.getByTestId('dsim-profiles').locator('tr.ant-table-row').first().waitFor();
      await detail.getByTestId('dsim-switch-2').click();
      await dialog(page).getByTestId('dsim-switch-ok').click();
      await page.getByText(TEXTS[lang].ok).waitFor();
      await detail.getByTestId('dsim-current-operator').filter({ hasText: TEXTS[lang].unicom }).waitFor();
      const record = detail.getByTestId('dsim-records').locator('tr.ant-table-row').first();
      await record.filter({ hasText: TEXTS[lang].succeeded }).waitFor();
      expect(await record.innerText()).toContain(TEXTS[lang].manual);
      await shot(page, `dsim-detail-${lang}`);
      const after = await api('core/sim/dsimStrategy/info', { snNumber: sn }, token);
      expect(after.data.currentOperatorId).toBe(2);
      await page.context().close();
    });
  }

  for (const [lang, tag] of [['zh', '11'], ['en', '12']] as const) {
    it(`imports super SIMs all or nothing: a wrong row is listed, a good file opens its batch (${lang})`, async () => {
      const admin = await apiLogin('admin');
      const [cm, cu] = await stockCards(admin, tag);
      const sn = `E2ESS${tag}0001`;
      const page = await newPage(browser, lang);
      await login(page, 'admin');
      await page.goto('/card/dsimlist/list');
      await visible(page).getByTestId('dsim-import').click();
      const modal = dialog(page);
      const file = (lines: string[]) => ({ name: 'dsims.csv', mimeType: 'text/csv', buffer: Buffer.from(`\ufeff${[IMPORT[lang].header, ...lines].join('\r\n')}\r\n`) });
      await modal.locator('input[type=file]').setInputFiles(file([`${sn},${cm},${cu},,,`, `E2ESS${tag}0002,${cm.slice(0, -1)}9,${cu.slice(0, -1)}9,,,`]));
      await modal.getByTestId('dsim-import-submit').click();
      await modal.getByTestId('dsim-import-errors').getByText(IMPORT[lang].wrong).first().waitFor();
      await shot(page, `dsim-import-errors-${lang}`);
      expect((await api('core/sim/dsimStrategy/getDsimPage', { snNumber: sn }, admin)).data.total).toBe(0);
      await modal.locator('input[type=file]').setInputFiles(file([`${sn},${cm},${cu},,,`]));
      await modal.getByTestId('dsim-import-submit').click();
      await page.waitForURL('**/card/import-info/dsimdetail/**');
      const detail = visible(page);
      await detail.getByText(IMPORT[lang].items).waitFor();
      await row(page, cu).waitFor();
      await shot(page, `dsim-import-detail-${lang}`);
      await page.context().close();
    });
  }
});
