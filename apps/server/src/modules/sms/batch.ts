// Batch SMS (issue 15, docs/sms.md): a type of the card batch engine (docs/batch.md). Validation classifies each card
// with the one-card rule (test or activated, an MSISDN, an access configuration of its operator); a confirmed batch's
// job hands each chunk of items here, inside the chunk's transaction: each card is checked again, its message is
// submitted under an id derived from the batch and the item (so a chunk redone after a crash submits the same
// references and the carrier does not send them twice), and the messages are stored with the items' outcomes in the
// same transaction. An item succeeds when the carrier accepted the message; its delivery report moves the message.
import { ErrorCode, batch, errorMessage, sms as api } from '@lynx/contract';
import type { Executor, Tx } from '../../db/client.ts';
import { audit } from '../../platform/audit.ts';
import { canSeeTenant, type SessionContext } from '../../platform/context.ts';
import { isInstalledAdapter } from '../../operators/registry.ts';
import { cardRefusal, checkContent, derivedUuid, insertSubmitted, refusalText, rowsOf, smsCards, SmsRoutes, submitAll, type SmsDeps, type Submission } from './send.ts';
import { sql } from 'drizzle-orm';

const { BatchVerdict, BatchItemStatus, BatchType } = batch;
const { SmsSource, SmsStatus } = api;

export const isSmsBatch = (type: number) => type === BatchType.Sms;

/** The checked operation of a batch SMS: the message and its encoding. */
export function smsBatchParams(content: string | undefined): { content: string; encoding: number } {
  const text = content ?? '';
  return { content: text, encoding: checkContent(text) };
}

/** Which operators have an access configuration with an installed adapter (credentials are not opened to classify). */
export async function smsGatewayOperators(ex: Executor): Promise<Set<number>> {
  const rows = rowsOf<{ operator_id: number; adapter: string }>(await ex.execute(sql`
    select distinct on (operator_id) operator_id, adapter from operator_accounts order by operator_id, oper_account_id`));
  return new Set(rows.filter((r) => isInstalledAdapter(r.adapter)).map((r) => Number(r.operator_id)));
}

/** A card's verdict for a batch SMS (a card outside the caller's tenant is "not found" before this). */
export function smsVerdict(card: { state: number; msisdn: string | null; operatorId: number }, gateways: Set<number>) {
  const r = cardRefusal({ ...card, iccid: '', custId: null, rootCustId: null }, gateways.has(card.operatorId) ? null : { ok: false, refusal: { code: ErrorCode.SmsNoGateway } });
  return r ? { verdict: BatchVerdict.Invalid, code: r.code, params: r.params } : { verdict: BatchVerdict.Valid };
}

interface Outcome {
  seq: number;
  status: number;
  zh: string | null;
  en: string | null;
}

/** Sends a chunk of a batch SMS inside the chunk's transaction; answers each item's outcome. */
export async function applySmsChunk(
  tx: Tx, deps: Pick<SmsDeps, 'config'>, ctx: SessionContext, batchId: string, op: { content?: string; encoding?: number }, items: { seq: number; iccid: string }[],
): Promise<Outcome[]> {
  const failed = (seq: number, code: ErrorCode, params?: Record<string, string | number>): Outcome => ({
    seq, status: BatchItemStatus.Failed, zh: errorMessage(code, 'zh', params), en: errorMessage(code, 'en', params),
  });
  const content = op.content ?? '';
  const encoding = op.encoding ?? api.smsLength(content).encoding;
  const cards = await smsCards(tx, items.map((i) => i.iccid));
  const routes = new SmsRoutes(tx, deps.config);
  const out = new Map<number, Outcome>();
  const subs: (Submission & { seq: number })[] = [];
  for (const item of items) {
    const card = cards.get(item.iccid);
    if (!card || !canSeeTenant(ctx.actor, card)) {
      out.set(item.seq, failed(item.seq, ErrorCode.BatchCardNotFound));
      continue;
    }
    const route = await routes.of(card.operatorId);
    const refusal = cardRefusal(card, route);
    if (refusal || !route.ok || !card.msisdn) {
      const r = refusal ?? { code: ErrorCode.SmsNoGateway };
      out.set(item.seq, { seq: item.seq, status: BatchItemStatus.Failed, zh: refusalText(r, 'zh'), en: refusalText(r, 'en') });
      continue;
    }
    subs.push({
      seq: item.seq, smsId: derivedUuid('batch', batchId, item.seq), card: { ...card, msisdn: card.msisdn }, route, content, encoding,
      source: SmsSource.Batch, batchId, createdBy: ctx.actor.loginName,
    });
  }
  const sent = await submitAll(subs);
  await insertSubmitted(tx, sent);
  sent.forEach((s, i) => {
    const seq = subs[i].seq;
    out.set(seq, s.status === SmsStatus.SubmitFailed
      ? failed(seq, ErrorCode.SmsSubmitRefused, { reason: s.failReason ?? '' })
      : { seq, status: BatchItemStatus.Succeeded, zh: null, en: null });
  });
  if (sent.length) {
    await audit(tx, ctx, {
      entity: 'cardSms', entityId: batchId, custId: ctx.actor.custId, rootCustId: ctx.actor.rootCustId,
      after: { batchId, content, submitted: sent.filter((s) => s.status !== SmsStatus.SubmitFailed).length, refused: sent.filter((s) => s.status === SmsStatus.SubmitFailed).length, iccids: sent.map((s) => s.card.iccid) },
    });
  }
  return items.map((i) => out.get(i.seq)!);
}
