import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { PayChannel, PayState, RechargeAuditState, WithdrawState } from '@lynx/contract';
import { backends, startTestApp, type TestApp } from './harness.ts';
import { runLedgerCheck } from '../src/modules/money/ledger-check.ts';

/** CMP_DEMO_MONEY: the first start of an empty database leaves the channel customer's money as use would have. */
describe.each(backends)('demo money on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  const HD = '华电智能表计有限公司';
  const ok = <T = any>(r: { body: { success: boolean; data: T; msg: string } }) => {
    expect(r.body.success, r.body.msg).toBe(true);
    return r.body.data;
  };

  beforeAll(async () => {
    t = await startTestApp(backend, { demoMoney: true }, { jobs: false });
    admin = await t.login('admin');
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });

  it('has an online top-up paid at the cashier and a bank transfer waiting for review, with its certificate', async () => {
    const list = ok(await t.call('core/finance/refund/getRechargePage', { pageSize: 50 }, { token: admin })).list as any[];
    expect(list.every((r) => r.custName === HD)).toBe(true);
    const online = list.find((r) => r.channel === PayChannel.Online);
    expect(online).toMatchObject({ amount: '3000.00', payState: PayState.Confirmed });
    const bank = list.find((r) => r.channel === PayChannel.Public);
    expect(bank).toMatchObject({ amount: '20000.00', payState: PayState.Paid, auditState: RechargeAuditState.Submitted, overdue: false });
    expect(ok(await t.call('core/finance/refund/getReviewSummary', {}, { token: admin }))).toMatchObject({ pending: 1, overdue: 0 });
    const proof = await t.app.inject({ method: 'GET', url: `/api/cmp/core/finance/refund/downloadProof?rechargeId=${bank.rechargeId}`, headers: { authorization: admin } });
    expect(proof.statusCode).toBe(200);
    expect(proof.headers['content-type']).toBe('image/png');
    expect(proof.rawPayload.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });

  it('has a withdrawal waiting for review, its amount held, and the ledger balances', async () => {
    const list = ok(await t.call('core/finance/withdraw/getWithdrawListPage', { pageSize: 50 }, { token: admin })).list as any[];
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ custName: HD, amount: '5000.00', state: WithdrawState.Applied });
    const money = ok(await t.call('core/finance/capital/getCapitalDetail', { custId: list[0].custId }, { token: admin }));
    // 120,000 opening + 3,000 online − 5,000 held; the bank transfer counts once finance approves it
    expect(money).toMatchObject({ preDeposit: '118000.00', withdrawHold: '5000.00' });
    const check = await runLedgerCheck(t.deps.db);
    expect(check.ok).toBe(true);
  });
});
