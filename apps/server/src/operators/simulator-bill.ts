import crypto from 'node:crypto';
import type { BillCard, OperatorBillLine, OperatorBillPage, WholesaleTariff } from './gateway.ts';
import { simulateUsage } from './simulator-usage.ts';
import type { TrafficByCard } from './simulator-traffic.ts';

/**
 * The network simulator's operator bill (docs/operator-gateway.md "Operator bills"): what the simulated carrier charges
 * an operator account for a closed period, card by card, from its own usage (simulator-usage.ts) over the cards'
 * service periods, so the bill's data and SMS are exactly what the usage feed delivered for the same days.
 *
 * - A card with active service at any time in the period pays the monthly card fee; a card only in test pays none.
 * - Data is billed per card in whole MB, rounded up, at the price per GB (÷ 1024), rounded half up to the fen.
 * - Mobile-originated SMS at the SMS price.
 * - VAT per line, rounded half up to the fen.
 * A card without charges (no service in the period) is not on the bill. Everything is integer fen: no float reaches money.
 */

const MB = 1024 * 1024;

/**
 * The simulated carriers' wholesale tariffs (tax excluded), by operator id: China Mobile 1.50 a card, 5.00 a GB, 0.05
 * an SMS; China Unicom 1.20, 4.50, 0.05; China Telecom 1.00, 4.00, 0.04; VAT 6 %. Another operator gets China Mobile's.
 */
export const SIMULATOR_TARIFFS: Record<number, WholesaleTariff> = {
  1: { cardFeeFen: 150, dataFenPerGb: 500, smsFen: 5, taxRateBp: 600 },
  2: { cardFeeFen: 120, dataFenPerGb: 450, smsFen: 5, taxRateBp: 600 },
  3: { cardFeeFen: 100, dataFenPerGb: 400, smsFen: 4, taxRateBp: 600 },
};
export const simulatorTariff = (operatorId: number): WholesaleTariff => SIMULATOR_TARIFFS[operatorId] ?? SIMULATOR_TARIFFS[1];

/** a × b ÷ d rounded half up, in integers (a, b ≥ 0) */
const mulDivHalfUp = (a: number, b: number, d: number): number => Number((BigInt(a) * BigInt(b) * 2n + BigInt(d)) / (2n * BigInt(d)));

/** One card's line of the bill for [from, to), or null when the carrier has nothing to charge. */
export function billLineOf(card: BillCard, from: Date, to: Date, tariff: WholesaleTariff, generated?: TrafficByCard): OperatorBillLine | null {
  const served = card.service.filter((s) => s.from < to && (s.to === null || s.to > from));
  if (served.length === 0) return null;
  const { daily } = simulateUsage({ cards: [{ ...card, service: served }], from, to }, generated);
  let dataBytes = 0;
  let sms = 0;
  for (const d of daily) {
    dataBytes += d.bytesUp + d.bytesDown;
    sms += d.sms;
  }
  const billedMb = Math.ceil(dataBytes / MB);
  const cardFeeFen = served.some((s) => !s.test) ? tariff.cardFeeFen : 0;
  const dataFeeFen = mulDivHalfUp(billedMb, tariff.dataFenPerGb, 1024);
  const smsFeeFen = sms * tariff.smsFen;
  const amountFen = cardFeeFen + dataFeeFen + smsFeeFen;
  if (amountFen === 0 && dataBytes === 0 && sms === 0) return null;
  return {
    iccid: card.iccid, planCode: card.planCode, dataBytes, billedMb, sms, cardFeeFen, dataFeeFen, smsFeeFen, amountFen,
    taxFen: mulDivHalfUp(amountFen, tariff.taxRateBp, 10_000),
  };
}

/** The bill of a page of cards: every card's line, in the order given. */
export function simulateBill(
  req: { periodKey: string; from: Date; to: Date; cards: BillCard[]; operAccountId: number; operatorId: number }, generated?: TrafficByCard,
): OperatorBillPage {
  const tariff = simulatorTariff(req.operatorId);
  const lines: OperatorBillLine[] = [];
  for (const card of req.cards) {
    const line = billLineOf(card, req.from, req.to, tariff, generated);
    if (line) lines.push(line);
  }
  const billRef = `SIMBILL-${req.periodKey.replace('-', '')}-${crypto.createHash('sha256').update(`${req.operAccountId}|${req.operatorId}|${req.periodKey}`).digest('hex').slice(0, 8).toUpperCase()}`;
  return { periodKey: req.periodKey, billRef, currency: 'CNY', tariff, lines };
}
