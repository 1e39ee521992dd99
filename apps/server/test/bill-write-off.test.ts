import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { BillStatus, ErrorCode, JournalKind, LedgerAccount, businessDayStart, businessToday } from '@lynx/contract';
import { backends, callOk, HD, HD_SZ, ZX, ZX_COLD, type TestApp } from './harness.ts';
import { B, W, openBillWorld, type BillSpec, type BillWorld } from './bill-fixtures.ts';
import { dayPlus, grantFixedCredit } from '../src/modules/money/credit/credit-service.ts';
import { WriteOffService } from '../src/modules/billing/bills/write-off.ts';
import type { Tx } from '../src/db/client.ts';

/**
 * Issue 14, write-off (Financial › Write-off, spec §5): 0, exactly the due, 1 fen above it, above pre-deposit (its part
 * above zero) + grants; grants first, then pre-deposit, in one WriteOff journal crediting revenue; a refusal changes
 * nothing; overdue written off (4) against written off (3); two write-offs at once never exceed the due.
 */
describe.each(backends)('bill write-off on %s', (backend) => {
  let w: BillWorld;
  let t: TestApp;
  let ids: Record<string, number>;
  let admin: string;
  let enterprise: string;
  let channel: string;
  const today = businessToday();
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => w.q<T>(text, params);
  const bill = (o: BillSpec) => w.bill(o);
  const setMoney = (cust: string, pre: string, grants: string) => w.setMoney(cust, pre, grants);
  const money = (cust: string) => w.money(cust);
  const billRow = (billId: number, token = admin) => w.billRow(billId, token);
  const writeOff = (billId: number, amount: string, token = admin) => w.writeOff(billId, amount, token);

  beforeAll(async () => {
    w = await openBillWorld(backend);
    ({ t, ids, admin, enterprise, channel } = w);
  });
  afterAll(async () => {
    await w?.t.stop();
  });

  it('write-off boundaries: 0, 1 fen above the due, above pre-deposit + grants; refusals change nothing', async () => {
    await setMoney(HD_SZ, '80.00', '30.00');
    const id = await bill({ cust: HD_SZ, due: '100.00' });
    const journals = async () => Number((await q<{ n: string }>('select count(*) as n from ledger_journals where cust_id = $1', [ids[HD_SZ]]))[0].n);
    const before = { money: await money(HD_SZ), journals: await journals() };

    expect((await writeOff(id, '0')).body.errorCode).toBe(ErrorCode.WriteOffZero);
    expect((await writeOff(id, '0.00')).body.errorCode).toBe(ErrorCode.WriteOffZero);
    const above = await writeOff(id, '100.01');
    expect(above.body).toMatchObject({ success: false, errorCode: ErrorCode.WriteOffAboveDue });
    expect(above.body.msg).toContain('100.00');
    await setMoney(HD_SZ, '60.00', '30.00');
    const tooMuch = await writeOff(id, '90.01', channel);
    expect(tooMuch.body.errorCode).toBe(ErrorCode.WriteOffAboveBalance);
    expect(tooMuch.body.msg).toContain('90.00');
    expect((await t.call(`${W}writeOffBill`, { billId: id, amount: '1.001' }, { token: admin })).body.errorCode).toBe(ErrorCode.Validation);
    const after = { bill: await billRow(id), writeOffs: await q('select 1 from bill_write_offs where bill_id = $1', [id]) };
    expect(after.bill).toMatchObject({ writtenOff: '0.00', arrears: '100.00', status: BillStatus.ToWriteOff });
    expect(after.writeOffs).toHaveLength(0);
    expect(await journals()).toBe(before.journals + 1);
    expect(await money(HD_SZ)).toEqual({ pre: '60.00', grants: '30.00' });

    // grants first, then pre-deposit; one WriteOff journal crediting revenue
    const first = await t.call(`${W}writeOffBill`, { billId: id, amount: '50', remark: ' first part ' }, { token: channel });
    expect(first.body.errorCode).toBeNull();
    expect(first.body.data.writeOff).toMatchObject({ amount: '50.00', fromGrants: '30.00', fromPreDeposit: '20.00', overdue: false, remark: 'first part', source: 1, createdBy: 'channel' });
    expect(first.body.data.bill).toMatchObject({ writtenOff: '50.00', arrears: '50.00', status: BillStatus.ToWriteOff });
    expect(await money(HD_SZ)).toEqual({ pre: '40.00', grants: '0.00' });
    const postings = await q<{ account: number; amount: string; kind: number }>(`select p.account, p.amount::text as amount, j.kind from ledger_postings p
      join ledger_journals j on j.journal_id = p.journal_id where p.journal_id = $1 order by p.account`, [first.body.data.writeOff.journalId]);
    expect(postings).toEqual([
      { account: LedgerAccount.PreDeposit, amount: '-20.00', kind: JournalKind.WriteOff },
      { account: LedgerAccount.Grants, amount: '-30.00', kind: JournalKind.WriteOff },
      { account: LedgerAccount.Revenue, amount: '50.00', kind: JournalKind.WriteOff },
    ]);
    // exactly the rest: written off
    await setMoney(HD_SZ, '100.00', '0.00');
    const rest = await callOk(t, `${W}writeOffBill`, { billId: id, amount: '50.00' }, admin);
    expect(rest.bill).toMatchObject({ writtenOff: '100.00', arrears: '0.00', status: BillStatus.WrittenOff });
    expect((await writeOff(id, '0.01')).body.errorCode).toBe(ErrorCode.BillNothingDue);
    const tab2 = await callOk(t, `${W}getWriteOffListPage`, { tab: 2, custId: ids[HD_SZ] }, channel);
    expect(tab2.list.map((b: { billId: number }) => b.billId)).toContain(id);
    const detail = await callOk(t, `${B}getBillDetail`, { billId: id }, channel);
    expect(detail.writeOffs.map((w: { amount: string }) => w.amount)).toEqual(['50.00', '50.00']);

    // unpublished: refused (staff see it; customers do not)
    const draft = await bill({ cust: HD_SZ, published: false });
    expect((await writeOff(draft, '1')).body.errorCode).toBe(ErrorCode.BillNotPublished);
    expect((await writeOff(draft, '1', channel)).body.errorCode).toBe(ErrorCode.NotFound);
  });

  it('a pre-deposit below zero counts as zero: only grants pay', async () => {
    await setMoney(ZX_COLD, '0.00', '0.00');
    await t.deps.db.transaction(async (tx: Tx) => {
      await grantFixedCredit(tx, { custId: ids[ZX_COLD], rootCustId: ids[ZX] }, 100_00n, 'test');
    });
    await setMoney(ZX_COLD, '-50.00', '30.00');
    const id = await bill({ cust: ZX_COLD, due: '100.00' });
    const r = await writeOff(id, '30.01', enterprise);
    expect(r.body.errorCode).toBe(ErrorCode.WriteOffAboveBalance);
    expect(r.body.msg).toContain('30.00');
    const ok = await callOk(t, `${W}writeOffBill`, { billId: id, amount: '30' }, enterprise);
    expect(ok.writeOff).toMatchObject({ fromGrants: '30.00', fromPreDeposit: '0.00' });
    expect(await money(ZX_COLD)).toEqual({ pre: '-50.00', grants: '0.00' });
    const page = await callOk(t, `${W}getWriteOffListPage`, { tab: 1, custId: ids[ZX_COLD] }, enterprise);
    expect(page.list.find((b: { billId: number }) => b.billId === id)).toMatchObject({ payable: '0.00', arrears: '70.00' });
  });

  it('overdue: written off after the due date is 4, by the due date 3; unpaid past it is tab 3', async () => {
    await setMoney(ZX, '1000.00', '0.00');
    const late = await bill({ cust: ZX, due: '10.00', dueDate: dayPlus(today, -1) });
    const onTime = await bill({ cust: ZX, due: '10.00', dueDate: today });
    const tab3 = await callOk(t, `${W}getWriteOffListPage`, { tab: 3, custId: ids[ZX] }, enterprise);
    expect(tab3.list.map((b: { billId: number }) => b.billId)).toContain(late);
    expect(tab3.list.map((b: { billId: number }) => b.billId)).not.toContain(onTime);
    const tab1 = await callOk(t, `${W}getWriteOffListPage`, { tab: 1, custId: ids[ZX] }, enterprise);
    expect(tab1.list.map((b: { billId: number }) => b.billId)).toContain(onTime);
    expect(tab1.list.find((b: { billId: number }) => b.billId === onTime).payable).toBe('1000.00');

    const a = await callOk(t, `${W}writeOffBill`, { billId: late, amount: '10' }, enterprise);
    expect(a.writeOff.overdue).toBe(true);
    expect(a.bill.status).toBe(BillStatus.OverdueWrittenOff);
    const b = await callOk(t, `${W}writeOffBill`, { billId: onTime, amount: '10' }, enterprise);
    expect(b.writeOff.overdue).toBe(false);
    expect(b.bill.status).toBe(BillStatus.WrittenOff);
    // the next day the on-time bill stays 3: its write-off was by the due date
    const svc = new WriteOffService(t.deps.db);
    const actor = await w.actorOf('admin');
    const tomorrow = new Date(businessDayStart(dayPlus(today, 2)).getTime());
    const tab2 = await svc.list({ tab: 2, custId: ids[ZX] }, actor, tomorrow);
    expect(tab2.list.find((x) => x.billId === onTime)?.status).toBe(BillStatus.WrittenOff);
    expect(tab2.list.find((x) => x.billId === late)?.status).toBe(BillStatus.OverdueWrittenOff);
  });

  it('two write-offs at once never take more than is due', async () => {
    await setMoney(HD, '500.00', '0.00');
    const id = await bill({ cust: HD, due: '100.00' });
    const rs = await Promise.all([writeOff(id, '60', channel), writeOff(id, '60', admin), writeOff(id, '60', channel)]);
    const ok = rs.filter((r) => r.body.success);
    expect(ok).toHaveLength(1);
    expect(rs.filter((r) => r.body.errorCode === ErrorCode.WriteOffAboveDue)).toHaveLength(2);
    expect((await billRow(id)).writtenOff).toBe('60.00');
    expect((await money(HD)).pre).toBe('440.00');
    const [{ n }] = await q<{ n: string }>('select count(*) as n from bill_write_offs where bill_id = $1', [id]);
    expect(Number(n)).toBe(1);
  });

});
