import { describe, it, expect } from 'vitest';
import { zonedTime } from '@lynx/contract';
import type { BillCard, GatewayAccount } from '../src/operators/gateway.ts';
import { createSimulatorGateway, simulatorSecretFor } from '../src/operators/simulator.ts';
import { simulateUsage } from '../src/operators/simulator-usage.ts';
import { SIMULATOR_TARIFFS, billLineOf, simulateBill } from '../src/operators/simulator-bill.ts';
import { periodByKey } from '../src/modules/billing/rating/periods.ts';

// The network simulator's operator bill (issue 14): per card, exactly the usage its feed reports for the same service
// periods, charged at the documented wholesale tariff in integer fen; deterministic; refused before the period ends.

const MB = 1024 * 1024;
const card = (iccid: string, service: BillCard['service'], operatorId = 1): BillCard => ({
  iccid, msisdn: null, operatorId, apn: 'cmiot', networkTypes: [], planCode: 'P-1', service,
});

describe('simulator operator bill', () => {
  const period = periodByKey('2026-09', 1);
  const unicom = periodByKey('2026-09', 26);
  const whole = [{ from: new Date(period.start.getTime() - 86_400_000 * 40), to: null, test: false }];

  it('bills each card the data and SMS of its usage over the period, rounded up to the MB, at the tariff', () => {
    const cards = ['89860000000000000011', '89860000000000000012', '89860000000000000013', '89860000000000000014'].map((i) => card(i, whole));
    // one card deactivated on the 10th, one in test only
    cards[2] = card(cards[2].iccid, [{ from: whole[0].from, to: zonedTime(2026, 9, 10, 8), test: false }]);
    cards[3] = card(cards[3].iccid, [{ from: zonedTime(2026, 9, 5), to: null, test: true }]);
    const bill = simulateBill({ periodKey: '2026-09', from: period.start, to: period.end, cards, operAccountId: 7, operatorId: 1 });
    expect(bill.lines.map((l) => l.iccid)).toEqual(cards.map((c) => c.iccid));
    const t = SIMULATOR_TARIFFS[1];
    for (const c of cards) {
      const { daily } = simulateUsage({ cards: [c], from: period.start, to: period.end });
      const bytes = daily.reduce((n, d) => n + d.bytesUp + d.bytesDown, 0);
      const sms = daily.reduce((n, d) => n + d.sms, 0);
      const line = bill.lines.find((l) => l.iccid === c.iccid)!;
      expect(line.dataBytes).toBe(bytes);
      expect(line.sms).toBe(sms);
      expect(line.billedMb).toBe(Math.ceil(bytes / MB));
      expect(line.dataFeeFen).toBe(Math.round((line.billedMb * t.dataFenPerGb) / 1024));
      expect(line.smsFeeFen).toBe(sms * t.smsFen);
      expect(line.cardFeeFen).toBe(c.service.some((s) => !s.test) ? t.cardFeeFen : 0);
      expect(line.amountFen).toBe(line.cardFeeFen + line.dataFeeFen + line.smsFeeFen);
      expect(line.taxFen).toBe(Math.round((line.amountFen * t.taxRateBp) / 10_000));
      expect(Number.isInteger(line.amountFen) && Number.isInteger(line.taxFen)).toBe(true);
    }
    // the deactivated card used less than it would have all month; the test card pays no card fee
    const full = billLineOf(card(cards[2].iccid, whole), period.start, period.end, t)!;
    expect(bill.lines[2].dataBytes).toBeLessThan(full.dataBytes);
    expect(bill.lines[3].cardFeeFen).toBe(0);
    // the same question, the same bill (and the same reference)
    expect(simulateBill({ periodKey: '2026-09', from: period.start, to: period.end, cards, operAccountId: 7, operatorId: 1 })).toEqual(bill);
  });

  it('sums over pages: a bill asked in two pages is the bill asked at once', () => {
    const cards = Array.from({ length: 6 }, (_, i) => card(`8986010000000000${String(100 + i).padStart(4, '0')}`, whole, 2));
    const at = (cs: BillCard[]) => simulateBill({ periodKey: '2026-09', from: unicom.start, to: unicom.end, cards: cs, operAccountId: 1, operatorId: 2 });
    expect([...at(cards.slice(0, 2)).lines, ...at(cards.slice(2)).lines]).toEqual(at(cards).lines);
    expect(at(cards).tariff).toEqual(SIMULATOR_TARIFFS[2]);
  });

  it('does not bill a card without service in the period, nor usage outside it (China Unicom 26th to 25th)', () => {
    const before = card('89860100000000000200', [{ from: new Date(unicom.start.getTime() - 86_400_000 * 20), to: unicom.start, test: false }], 2);
    expect(billLineOf(before, unicom.start, unicom.end, SIMULATOR_TARIFFS[2])).toBeNull();
    const inside = card('89860100000000000201', whole, 2);
    const line = billLineOf(inside, unicom.start, unicom.end, SIMULATOR_TARIFFS[2])!;
    const days = simulateUsage({ cards: [inside], from: unicom.start, to: unicom.end }).daily.map((d) => d.day);
    expect(days[0] >= '2026-08-26' && days[days.length - 1] <= '2026-09-25').toBe(true);
    expect(line.dataBytes).toBe(simulateUsage({ cards: [inside], from: zonedTime(2026, 8, 26), to: zonedTime(2026, 9, 26) }).daily.reduce((n, d) => n + d.bytesUp + d.bytesDown, 0));
  });

  it('answers through the gateway: authenticated, refused before the period ends (retryable), bad periods refused', async () => {
    const appKey = 'SIMTESTBILL0001';
    const account: GatewayAccount = {
      operAccountId: 3, operatorId: 1, accountName: 't', endpointUrl: 'https://sim.example/openapi', apiVersion: 'v2',
      credentials: { appKey, appSecret: simulatorSecretFor(appKey), password: null }, simFailureRate: 0, simFailIccidPattern: null,
    };
    const g = createSimulatorGateway(account);
    const ok = await g.queryBill({ periodKey: '2026-09', from: period.start, to: period.end, cards: [card('89860000000000000011', whole)] });
    expect(ok.ok && ok.data.lines.length === 1 && ok.data.billRef.startsWith('SIMBILL-202609-')).toBe(true);
    const open = await g.queryBill({ periodKey: '2099-01', from: zonedTime(2099, 1, 1), to: zonedTime(2099, 2, 1), cards: [] });
    expect(open).toMatchObject({ ok: false, code: 'BILL_NOT_ISSUED', retryable: true });
    const bad = await g.queryBill({ periodKey: '2026-13', from: period.start, to: period.end, cards: [] });
    expect(bad).toMatchObject({ ok: false, code: 'BAD_PERIOD', retryable: false });
    const wrong = createSimulatorGateway({ ...account, credentials: { ...account.credentials, appSecret: 'not-the-secret' } });
    expect(await wrong.queryBill({ periodKey: '2026-09', from: period.start, to: period.end, cards: [] })).toMatchObject({ ok: false, code: 'AUTH_FAILED' });
  });
});
