import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  BillPublishState, BillRunState, BillStatus, ErrorCode, JournalKind, errorMessage, fenToMoney, formatMoney, moneyToFen,
} from '@lynx/contract';
import { POLL, api, apiLogin, dialog, launch, login, newPage, row, shot, visible } from './support.ts';

/**
 * Issue 14, bills end to end: staff run a closed period's bills for the demo fleet and watch the run finish (en), open
 * the demo enterprise's bill with its categories and card lines and publish it (en, then read in zh); the enterprise's
 * finance writes it off from grants and pre-deposit (zh), the refusal of too much in the spec's words first; its ledger
 * shows the write-off and its balances are lower by the amount; the card detail's Billing tab lists the card's lines.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

type Period = { periodKey: string; ready: boolean; reason: string | null; bills: number; published: number };
type Run = { runId: number; periodKey: string; custId: number | null; state: number; error: string | null };
type Bill = { billId: number; billNo: string; periodKey: string; custId: number; custName: string; status: number; published: number; total: string; arrears: string; writtenOff: string };
type Line = { iccid: string };

const shared = { period: '', billId: 0, billNo: '', custId: 0, amount: '', iccid: '' };
const money = (v: string) => moneyToFen(v) ?? 0n;

/** The demo enterprise's customer id, from its own session. */
async function enterpriseCustId(): Promise<number> {
  const r = await api<{ custId: number | null }>('base/oauth/user/login', { loginName: 'enterprise', password: 'Demo@2026pass' });
  expect(r.data.custId, 'the demo enterprise login has a customer').toBeGreaterThan(0);
  return r.data.custId!;
}

/** Waits for a run of the period to finish, and fails with its error if it failed. */
async function runFinished(token: string, period: string): Promise<Run> {
  let last: Run | undefined;
  await expect.poll(async () => {
    const runs = (await api<{ list: Run[] }>('core/finance/bill/getBillRuns', { periodKey: period, pageSize: 5 }, token)).data.list;
    last = runs.find((r) => r.custId === null) ?? runs[0];
    return last?.state;
  }, { timeout: 120_000, interval: 1_000 }).not.toBe(BillRunState.Running);
  expect(last?.error ?? null, `run ${last?.runId} of ${period}`).toBeNull();
  expect(last?.state).toBe(BillRunState.Done);
  return last!;
}

const text = (page: Page, testId: string) => visible(page).getByTestId(testId).innerText();

describe('bills', () => {
  it('staff run a closed period for the demo fleet, see the enterprise\'s bill with categories and card lines, and publish it (en)', { timeout: 240_000 }, async () => {
    const token = await apiLogin('admin');
    shared.custId = await enterpriseCustId();
    const periods = (await api<Period[]>('core/finance/bill/getBillPeriods', {}, token)).data;
    const ready = periods.find((p) => p.ready);
    expect(ready, `a period ready to bill; the server says: ${periods.map((p) => `${p.periodKey} ${p.reason ?? 'ready'}`).join('; ')}`).toBeDefined();
    shared.period = ready!.periodKey;

    const page = await newPage(browser, 'en');
    await login(page, 'admin');
    await page.goto('/billing/bill/list');
    await visible(page).getByTestId('bill-run').click();
    const runDialog = dialog(page);
    // a period not ready says why
    const notReady = periods.find((p) => !p.ready && p.reason);
    if (notReady) await expect.poll(() => runDialog.getByTestId(`bill-run-reason-${notReady.periodKey}`).innerText(), POLL).toBe(notReady.reason);
    await runDialog.getByTestId(`bill-run-period-${shared.period}`).check({ force: true });
    await runDialog.getByTestId('bill-run-start').click();
    await page.getByTestId('bill-run-confirm').click();
    const run = await runFinished(token, shared.period);
    await expect.poll(() => runDialog.getByTestId(`bill-run-state-${run.runId}`).innerText(), { timeout: 30_000 }).toBe('Done');
    await shot(page, 'bills-run-en');
    await runDialog.getByRole('button', { name: 'Close' }).last().click();

    const bills = (await api<{ list: Bill[] }>('core/finance/bill/getBillListPage', { periodKey: shared.period, custId: shared.custId, pageSize: 5 }, token)).data.list;
    expect(bills, `the enterprise's bill of ${shared.period}`).toHaveLength(1);
    const b = bills[0];
    Object.assign(shared, { billId: b.billId, billNo: b.billNo });
    expect(money(b.total)).toBeGreaterThan(0n);

    // the list: the bill with its status, publish state and total
    const line = row(page, b.billNo);
    await line.waitFor({ timeout: 30_000 });
    expect(await line.innerText()).toContain(formatMoney(b.total));
    await shot(page, 'bills-list-en');
    await line.getByTestId(`bill-no-${b.billId}`).click();
    await page.waitForURL(`**/billing/bill/spending/detail/${b.billId}`);

    // the detail: categories summing to the total, card lines a page at a time
    await expect.poll(() => text(page, 'bill-categories-total'), POLL).toBe(formatMoney(b.total));
    const lines = visible(page).getByTestId('bill-lines').locator('tr.ant-table-row');
    await expect.poll(() => lines.count(), POLL).toBeGreaterThan(0);
    shared.iccid = (await api<{ list: Line[] }>('core/finance/bill/getBillCardLines', { billId: b.billId, pageSize: 1 }, token)).data.list[0].iccid;
    expect(await text(page, 'bill-lines-page')).toMatch(/^Page 1 of \d+, [\d,]+ lines$/);
    await shot(page, 'bills-detail-en');

    if (b.published === BillPublishState.Unpublished) {
      await visible(page).getByTestId('bill-detail-publish').click();
      await page.getByTestId('bill-publish-confirm').click();
      await expect.poll(() => text(page, 'bill-detail-published'), POLL).toBe('Published');
    }
    const after = (await api<{ bill: Bill & { dueDate: string } }>('core/finance/bill/getBillDetail', { billId: b.billId }, token)).data.bill;
    expect(after.published).toBe(BillPublishState.Published);
    expect(after.dueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await expect.poll(() => visible(page).getByTestId('bill-detail').innerText(), POLL).toContain(after.dueDate);
    await shot(page, 'bills-published-en');
    await page.context().close();
  });

  it('reads the published bill in Chinese, and the card detail lists the card\'s bill lines (zh)', async () => {
    expect(shared.billId, 'the bill of the step before').toBeGreaterThan(0);
    const page = await newPage(browser, 'zh');
    await login(page, 'admin');
    await page.goto(`/billing/bill/spending/detail/${shared.billId}`);
    await expect.poll(() => text(page, 'bill-detail-published'), POLL).toBe('已发布');
    expect(await visible(page).innerText()).toContain('分类费用');
    await shot(page, 'bills-detail-zh');
    await page.goto(`/card/card-list/detail/${shared.iccid}`);
    await visible(page).getByRole('tab', { name: '计费' }).click();
    await expect.poll(() => visible(page).innerText(), POLL).toContain(shared.billNo);
    await shot(page, 'bills-card-billing-zh');
    await page.context().close();
  });

  it('the enterprise\'s finance writes the bill off; the ledger shows it and the balances are lower (zh)', async () => {
    expect(shared.billId, 'the bill of the first step').toBeGreaterThan(0);
    const token = await apiLogin('enterprise');
    const before = (await api<Record<string, string>>('core/finance/capital/getCapitalDetail', {}, token)).data;
    const listed = (await api<{ list: (Bill & { payable: string })[] }>('core/finance/cancelBill/getWriteOffListPage', { tab: 1, periodKey: shared.period, pageSize: 10 }, token)).data.list;
    const b = listed.find((r) => r.billId === shared.billId);
    expect(b, 'the published bill is to be written off').toBeDefined();
    expect(money(b!.arrears), 'the bill has something due').toBeGreaterThan(0n);
    expect(money(b!.payable), 'the enterprise has pre-deposit or grants').toBeGreaterThan(0n);
    const amountFen = money(b!.arrears) < money(b!.payable) ? money(b!.arrears) : money(b!.payable);
    shared.amount = fenToMoney(amountFen);

    const page = await newPage(browser, 'zh');
    await login(page, 'enterprise');
    await page.goto('/financial/cancel-bill/list');
    const line = row(page, shared.billNo);
    await line.waitFor();
    await line.getByTestId(`write-off-${shared.billId}`).click();
    const form = dialog(page);
    const amount = form.getByTestId('write-off-amount');
    await expect.poll(() => amount.inputValue(), POLL).toBe(shared.amount);
    // too much: refused in the dialog, in the server's words, nothing sent
    await amount.fill(fenToMoney(money(b!.arrears) + 1n));
    await form.getByTestId('write-off-ok').click();
    await expect.poll(() => form.innerText(), POLL).toContain(errorMessage(ErrorCode.WriteOffAboveDue, 'zh', { due: formatMoney(b!.arrears) }));
    await amount.fill('0');
    await form.getByTestId('write-off-ok').click();
    await expect.poll(() => form.innerText(), POLL).toContain(errorMessage(ErrorCode.WriteOffZero, 'zh'));
    await amount.fill(shared.amount);
    await expect.poll(() => form.innerText(), POLL).not.toContain(errorMessage(ErrorCode.WriteOffZero, 'zh'));
    await form.getByTestId('write-off-remark').fill('账单核销');
    await shot(page, 'bills-write-off-zh');
    await form.getByTestId('write-off-ok').click();
    await page.getByTestId('write-off-confirm').click();

    await expect.poll(async () => {
      const d = (await api<{ bill: Bill }>('core/finance/bill/getBillDetail', { billId: shared.billId }, token)).data;
      return d.bill.writtenOff;
    }, POLL).toBe(shared.amount);
    const paidAll = amountFen === money(b!.arrears);
    if (paidAll) await expect.poll(async () => (await line.count()) === 0, POLL).toBe(true);

    // the bill: written off (or still due, for what the balance could not cover), with its write-off
    await page.goto(`/billing/bill/spending/detail/${shared.billId}`);
    const status = paidAll ? [BillStatus.WrittenOff, BillStatus.OverdueWrittenOff] : [BillStatus.ToWriteOff, BillStatus.OverdueNotWrittenOff];
    await expect.poll(async () => status.map((s) => BillStatus.label(s, 'zh')).includes(await text(page, 'bill-detail-status')), POLL).toBe(true);
    await expect.poll(() => text(page, 'bill-write-offs'), POLL).toContain(formatMoney(shared.amount));
    await shot(page, 'bills-written-off-zh');

    // the ledger moved: a write-off journal, and pre-deposit + grants lower by the amount
    const after = (await api<Record<string, string>>('core/finance/capital/getCapitalDetail', {}, token)).data;
    const spendable = (m: Record<string, string>) => money(m.preDeposit) + money(m.grants);
    expect(spendable(before) - spendable(after)).toBe(amountFen);
    await visible(page).getByTestId('bill-detail-ledger').click();
    await page.waitForURL('**/business/capital/detail/info/**');
    await expect.poll(() => visible(page).locator('tr.ant-table-row').first().innerText(), POLL).toContain(JournalKind.label(JournalKind.WriteOff, 'zh'));
    await page.screenshot({ path: `${import.meta.dirname}/artifacts/bills-ledger-zh.png` });
    await page.context().close();
  });
});
