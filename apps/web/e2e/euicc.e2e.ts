import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import { dialog, launch, login, newPage, shot, visible } from './support.ts';

/**
 * Issue 16: Card › eUICC as the enterprise customer sees it in both languages: import eUICCs and profiles from an xlsx
 * file (the shared import dialog), assign an EID, download and enable a profile and watch its state move through the
 * simulated SM-DP+; a batch state change (check, run through the card batch engine, its progress and final states, the
 * list of its profiles); the activation-code screen with a profile's QR code.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const TEXTS = {
  zh: { profiles: 'Profile', unbound: '未绑定', bound: '已绑定', enabled: '已启用', disabled: '已停用', operator: '运营商', cm: '中国移动', cu: '中国联通' },
  en: { profiles: 'Profiles', unbound: 'Unbound', bound: 'Bound', enabled: 'Enabled', disabled: 'Disabled', operator: 'Operator', cm: 'China Mobile', cu: 'China Unicom' },
} as const;

const stamp = String(Date.now()).slice(-9);
const ids = (lang: 'zh' | 'en') => {
  const k = lang === 'zh' ? '1' : '2';
  return {
    eid: `890490329${k}${stamp.padStart(22, '0')}`,
    p1: `8986098${k}${stamp.padStart(10, '0')}01`,
    p2: `8986098${k}${stamp.padStart(10, '0')}02`,
  };
};

async function confirmModal(page: Page) {
  const ok = page.locator('.ant-modal-confirm:visible .ant-btn-primary').last();
  await ok.click();
}

async function waitState(page: Page, iccid: string, state: number) {
  await expect.poll(() => visible(page).getByTestId(`euicc-state-${iccid}`).first().getAttribute('data-state'), { timeout: 30_000, interval: 300 })
    .toBe(String(state));
}

async function act(page: Page, iccid: string, action: number) {
  await visible(page).getByTestId(`euicc-actions-${iccid}`).first().click();
  await page.locator(`.ant-dropdown:visible [data-testid="euicc-action-${action}"]`).click();
  await confirmModal(page);
}

describe('eUICC', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`imports, assigns an EID, downloads and enables a profile (${lang})`, async () => {
      const T = TEXTS[lang];
      const { eid, p1, p2 } = ids(lang);
      const page = await newPage(browser, lang);
      await login(page, 'enterprise');
      await page.goto('/card/euicc/list');
      const list = visible(page);
      await list.getByTestId('euicc-import').click();
      // an xlsx with the headers of the reader's language and operator names
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('eUICC');
      for (const row of [['EID', 'Profile ICCID', T.operator], [eid, '', ''], ['', p1, T.cm], ['', p2, T.cu]]) ws.addRow(row);
      const xlsx = Buffer.from(await wb.xlsx.writeBuffer());
      const modal = dialog(page);
      await modal.locator('input[type=file]').setInputFiles({ name: 'euicc.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: xlsx });
      await shot(page, `euicc-import-${lang}`);
      await modal.getByTestId('euicc-import-submit').click();
      await modal.waitFor({ state: 'hidden' });

      await list.getByTestId('euicc-assign').click();
      await dialog(page).getByTestId('euicc-assign-iccid').fill(p1);
      await dialog(page).getByTestId('euicc-assign-eid').fill(eid);
      await dialog(page).getByTestId('euicc-assign-ok').click();

      // the eUICC by its EID, with the profile bound
      await list.locator('input#eid').first().fill(eid);
      await list.getByRole('button', { name: lang === 'zh' ? /查\s*询/ : 'Search' }).first().click();
      await list.getByTestId(`euicc-profile-${p1}`).waitFor();
      expect(await list.getByTestId(`euicc-state-${p1}`).innerText()).toContain(T.bound);

      await act(page, p1, 4);
      await waitState(page, p1, 5);
      await act(page, p1, 7);
      await waitState(page, p1, 8);
      expect(await list.getByTestId(`euicc-state-${p1}`).innerText()).toContain(T.enabled);
      await shot(page, `euicc-list-${lang}`);

      // a batch change: checked first (p2 is unbound: cannot), then run through the batch engine for p1
      await list.getByTestId('euicc-batch-state').click();
      const state = dialog(page);
      await state.getByTestId('euicc-state-action').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').nth(2).click();
      await state.getByTestId('euicc-state-iccids').fill(`${p1}\n${p2}`);
      await state.getByTestId('euicc-state-check').click();
      await state.getByTestId('euicc-state-checked').waitFor();
      await state.getByTestId('euicc-state-run').click();
      await page.getByTestId('euicc-state-confirm').click();
      const progress = page.getByTestId('euicc-batch-progress');
      await progress.waitFor({ timeout: 30_000 }).catch(async (err) => {
        await shot(page, `euicc-batch-failed-${lang}`);
        throw err;
      });
      await expect.poll(() => progress.getAttribute('data-finished'), { timeout: 30_000, interval: 300 }).toBe('yes');
      expect(await page.getByTestId('euicc-batch-states').innerText()).toContain(T.disabled);
      await shot(page, `euicc-batch-${lang}`);
      // the batch's profiles in their current state
      await page.getByTestId('euicc-batch-profiles').click();
      await list.getByTestId('euicc-batch-filter').waitFor();
      await list.locator('[role=tabpanel][aria-hidden=false] tr.ant-table-row', { hasText: p1 }).waitFor();
      // the list shows the batch's one profile once the filtered page has replaced the unfiltered one
      await expect.poll(() => list.locator('[role=tabpanel][aria-hidden=false] tr.ant-table-row').count(), { timeout: 30_000, interval: 300 }).toBe(1);
      expect(await list.locator('[role=tabpanel][aria-hidden=false] tr.ant-table-row', { hasText: p1 }).innerText()).toContain(T.disabled);
      await shot(page, `euicc-batch-profiles-${lang}`);
      await list.getByTestId('euicc-batch-filter').getByRole('button').click();
      // every profile, the unbound ones too: the imported p2 waits there for an EID
      await list.locator('input#iccid').last().fill(p2);
      await list.getByRole('button', { name: lang === 'zh' ? /查\s*询/ : 'Search' }).last().click();
      await list.locator('[role=tabpanel][aria-hidden=false] tr.ant-table-row', { hasText: p2 }).waitFor();
      expect(await list.locator('[role=tabpanel][aria-hidden=false] tr.ant-table-row', { hasText: p2 }).innerText()).toContain(T.unbound);
      await shot(page, `euicc-profiles-${lang}`);

      // activation codes: the demo's bound profile gets a QR code holding its activation code
      await page.goto('/card/euicc/activation-code');
      const codes = visible(page);
      await codes.locator('tr.ant-table-row').first().waitFor();
      await shot(page, `euicc-activation-code-${lang}`);
      await codes.locator('tr.ant-table-row .ant-checkbox-input').first().check();
      await codes.getByTestId('euicc-make-qr').click();
      const qr = page.getByTestId('euicc-qr-codes');
      await qr.locator('img').first().waitFor();
      // the dialog's opening animation ends before the screenshot
      await expect.poll(() => page.locator('.ant-zoom-appear, .ant-zoom-enter').count(), { timeout: 5_000 }).toBe(0);
      expect(await qr.locator('img').first().getAttribute('alt')).toMatch(/^LPA:1\$/);
      await shot(page, `euicc-qr-${lang}`);
      await page.context().close();
    });
  }
});
