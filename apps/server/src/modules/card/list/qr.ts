// QR codes of cards (card list selection or card detail). Which cards get one is the lifecycle engine's
// `downloadQr` rule: invalidated, retired and frozen cards are skipped with the spec's message, start-state
// cards are unsupported. The download is a download task: a zip of one PNG per card, named by ICCID, with the
// skipped cards and their reasons in skipped.csv. A QR code encodes the card's ICCID (docs/decisions.md).
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import QRCode from 'qrcode';
import JSZip from 'jszip';
import { and, inArray, sql } from 'drizzle-orm';
import { CardState, ErrorCode, PlanOperationMode, PlanRenewalMode, errorMessage, type Lang, carddetail as api, type BodyOf } from '@lynx/contract';
import type { Executor } from '../../../db/client.ts';
import { tenantFilter, type Actor } from '../../../platform/context.ts';
import { pageOf } from '../../../platform/paging.ts';
import type { ExportFile } from '../../../platform/exports.ts';
import { cards } from '../card-tables.ts';
import { transition, type CardSnapshot } from '../lifecycle/engine.ts';

type Query = BodyOf<typeof api.getQrCodeCards>;

/** The engine's answer for a QR download from a card in `state` (the rule depends on the state alone). */
export function qrRefusal(state: number): ErrorCode | null {
  const snapshot: CardSnapshot = {
    state, operationMode: PlanOperationMode.Standard, renewalMode: PlanRenewalMode.NoRenew, plan: null, testEndsAt: null, silentEndsAt: null,
    activatedAt: null, contractStartAt: null, contractMonths: 0, cyclesUsed: 0, pendingPlanChange: null, pendingPriceChange: false,
    lastPlanChangeAt: null, frozenFrom: null, lastNetworkResetAt: null,
  };
  const r = transition(snapshot, { type: 'downloadQr' }, new Date());
  return r.ok ? null : r.error;
}

/** What a card's QR code encodes: its ICCID. */
export const qrPayloadOf = (card: { iccid: string }) => card.iccid;

/**
 * The chosen cards with whether each gets a QR code, in ICCID order, one page at a time; cards the actor may
 * not see are listed as not found, exactly like missing ones.
 */
export async function qrCards(ex: Executor, q: Query, actor: Actor, lang: Lang) {
  const p = pageOf(q);
  const all = [...new Set(q.iccids)].sort();
  const scope = tenantFilter(actor, { custId: cards.custId, rootCustId: cards.rootCustId });
  const [byState, rows] = await Promise.all([
    ex.select({ state: cards.state, n: sql<number>`count(*)`.mapWith(Number) }).from(cards).where(and(inArray(cards.iccid, all), scope)).groupBy(cards.state),
    ex.select({ iccid: cards.iccid, state: cards.state }).from(cards).where(and(inArray(cards.iccid, all.slice(p.offset, p.offset + p.limit)), scope)),
  ]);
  const included = byState.filter((g) => qrRefusal(g.state) === null).reduce((s, g) => s + g.n, 0);
  const list = all.slice(p.offset, p.offset + p.limit).map((iccid) => {
    const card = rows.find((r) => r.iccid === iccid);
    if (!card) return { iccid, state: null, included: false, reason: errorMessage(ErrorCode.NotFound, lang), reasonCode: ErrorCode.NotFound, payload: null };
    const refusal = qrRefusal(card.state);
    return {
      iccid, state: card.state, included: refusal === null, reason: refusal === null ? null : errorMessage(refusal, lang),
      // the file is written in the task's language
      reasonCode: refusal, payload: refusal === null ? qrPayloadOf(card) : null,
    };
  });
  return { list, total: all.length, current: p.current, pageSize: p.pageSize, included, skipped: all.length - included };
}

const csvField = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** The download task's file: a zip of PNGs (one per included card) and skipped.csv. Returns the number of images. */
export const qrZipFile: ExportFile = {
  ext: 'zip',
  contentType: 'application/zip',
  async write(file, rows, lang) {
    const zip = new JSZip();
    const skipped: string[] = [];
    let n = 0;
    for await (const r of rows) {
      const iccid = String(r.iccid);
      if (r.included && typeof r.payload === 'string') {
        zip.file(`${iccid}.png`, await QRCode.toBuffer(r.payload, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 320 }));
        n++;
      } else {
        const state = r.state == null ? '' : CardState.label(Number(r.state), lang);
        const reason = r.reasonCode != null ? errorMessage(r.reasonCode as ErrorCode, lang) : String(r.reason ?? '');
        skipped.push([iccid, state, reason].map(csvField).join(','));
      }
    }
    if (skipped.length) {
      const head = lang === 'zh' ? 'ICCID,状态,原因' : 'ICCID,State,Reason';
      zip.file('skipped.csv', '\uFEFF' + [head, ...skipped].join('\r\n') + '\r\n');
    }
    // PNGs are compressed already: store them
    await pipeline(zip.generateNodeStream({ type: 'nodebuffer', streamFiles: true, compression: 'STORE' }), fs.createWriteStream(file));
    return n;
  },
};
