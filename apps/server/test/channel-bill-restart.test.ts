import { describe, it, expect } from 'vitest';
import { ChannelBillLineState as L, ChannelBillState, Operator, businessToday } from '@lynx/contract';
import { backends, callOk, iccidsOf, insertCards, multipart, seededInstallation, waitFor } from './harness.ts';
import { periodByKey, periodOfDay, shiftPeriodKey } from '../src/modules/billing/rating/periods.ts';
import { continueChannelBill } from '../src/modules/billing/channel/channel-bill-job.ts';

/**
 * Issue 14, channel bills: an import survives a server restart. A server stores part of a bill and stops (its worker
 * dead, its lease left behind); the next server, with its background jobs on, takes the bill over from the job queue
 * once the lease has run out and finishes it, every line once, from the file it kept.
 */
describe.each(backends)('channel bill import across a restart on %s', (backend) => {
  it('is finished by the next server from where the first stopped', { timeout: 120_000 }, async () => {
    // the first start from the seeded image: the test pays for the restart only
    const installation = await seededInstallation(backend);
    const period = periodByKey(shiftPeriodKey(periodOfDay(businessToday(), 1).key, -1), 1);
    try {
      const first = await installation.open({}, { jobs: false });
      const admin = await first.login('admin');
      const cards = await insertCards(first, iccidsOf('8986005', 1, 7), { state: 64, owner: null, operatorId: Operator.ChinaMobile });
      const csv = ['ICCID,Data (MB),Amount (CNY)', ...cards.map((c) => `${c},0,1.00`)].join('\n');
      const m = multipart([
        { name: 'operatorId', value: '1' }, { name: 'periodKey', value: period.key }, { name: 'sourceType', value: '1' }, { name: 'sourceName', value: 'restart' },
        { name: 'findMissing', value: '0' }, { name: 'file', filename: 'bill.csv', type: 'text/csv', data: Buffer.from(csv) },
      ]);
      const r = (await first.app.inject({ method: 'POST', url: '/api/cmp/core/finance/channelBill/save', payload: m.payload, headers: { ...m.headers, authorization: admin } })).json();
      const billId = r.data.billId as number;
      // the first server's worker stores 3 of 7 lines and dies with the server
      await continueChannelBill(first.deps.db, first.deps.files.root, billId, 'dead-worker', { chunk: 3, crashAfterChunks: 1 });
      expect((await callOk(first, 'core/finance/channelBill/detail', { billId }, admin)).bill).toMatchObject({ state: ChannelBillState.Importing, linesDone: 3 });
      // its lease runs out while the server is down
      await first.database.sql.query(`update channel_bills set lease_until = now() - interval '1 second' where bill_id = $1`, [billId]);
      await first.stop();

      const second = await installation.open({}, { jobs: true });
      try {
        const token = await second.login('admin');
        const bill = await waitFor(async () => {
          const b = (await callOk(second, 'core/finance/channelBill/detail', { billId }, token)).bill;
          return b.state === ChannelBillState.Reconciled ? b : null;
        }, 60_000, 300);
        expect(bill).toMatchObject({ linesDone: 7, totalLines: 7, matched: 7 });
        const [n] = await second.database.sql.query<{ n: number; d: number }>(`select count(*)::int n, count(distinct iccid)::int d from channel_bill_lines where bill_id = $1 and state = ${L.Matched}`, [billId]);
        expect(n).toEqual({ n: 7, d: 7 });
      } finally {
        await second.stop();
      }
    } finally {
      await installation.remove();
    }
  });
});
