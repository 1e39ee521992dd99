import { eq, sql } from 'drizzle-orm';
import { CardChangeFailureState, CardChangeType } from '@lynx/contract';
import type { Executor } from '../../../db/client.ts';
import type { GatewayAccount, GatewayResult, OperatorGateway, ChangeAccepted } from '../../../operators/gateway.ts';
import { gatewayFor } from '../../../operators/registry.ts';
import type { SecretBox } from './secrets.ts';
import { cardChangeAttempts, cardChangeFailures, operatorAccounts } from './tables.ts';

type AccountRow = typeof operatorAccounts.$inferSelect;

/** Associated data binding sealed credentials to their row. */
export const credentialsPurpose = (operAccountId: number) => `operator_accounts.credentials:${operAccountId}`;
export const platformSecretsPurpose = (id: number) => `platform_configs.secrets:${id}`;

export interface StoredCredentials {
  appKey?: string;
  appSecret?: string;
  password?: string;
}

export function openCredentials(box: SecretBox, row: Pick<AccountRow, 'operAccountId' | 'credentialsSealed'>): StoredCredentials {
  return box.openJson(row.credentialsSealed, credentialsPurpose(row.operAccountId)) as StoredCredentials;
}

/** The gateway of an access configuration, with its credentials decrypted for this call only. */
export function gatewayOfAccount(box: SecretBox, row: AccountRow): OperatorGateway | null {
  const c = openCredentials(box, row);
  const account: GatewayAccount = {
    operAccountId: row.operAccountId, operatorId: row.operatorId, accountName: row.accountName, endpointUrl: row.endpointUrl,
    apiVersion: row.apiVersion, credentials: { appKey: c.appKey ?? null, appSecret: c.appSecret ?? null, password: c.password ?? null },
    simFailureRate: row.simFailureRate, simFailIccidPattern: row.simFailIccidPattern,
  };
  return gatewayFor(row.adapter, account);
}

export type CardChangeRequest =
  | { changeType: typeof CardChangeType.CardState; targetState: number }
  | { changeType: typeof CardChangeType.Plan; planCode: string; effective?: 'now' | 'nextCycle' }
  | { changeType: typeof CardChangeType.Zone; op: 'block' | 'permit' | 'release'; kind: 'zone' | 'region' | 'network'; targetId: number }
  | { changeType: typeof CardChangeType.NetworkReset };

export interface CardChangeFailureInput {
  msisdn: string;
  iccid: string;
  operatorId: number;
  /** the access configuration the call went through */
  operAccountId: number | null;
  request: CardChangeRequest;
  failure: { code: string; message: string; latencyMs?: number | null };
  /** tenant of the card */
  custId?: number | null;
  rootCustId?: number | null;
  /** login name of whoever caused the change, or null for the system */
  triggeredBy?: string | null;
}

const requestPayload = (r: CardChangeRequest): Record<string, string | number | null> => {
  switch (r.changeType) {
    case CardChangeType.CardState: return { targetState: r.targetState };
    case CardChangeType.Plan: return { planCode: r.planCode, effective: r.effective ?? 'nextCycle' };
    case CardChangeType.Zone: return { op: r.op, kind: r.kind, targetId: r.targetId };
    default: return {};
  }
};

/**
 * Records a card change the operator gateway refused (called by the card lifecycle when a gateway call
 * fails). Runs in the caller's transaction; returns the new record's id.
 */
export async function recordCardChangeFailure(ex: Executor, input: CardChangeFailureInput): Promise<number> {
  const [row] = await ex
    .insert(cardChangeFailures)
    .values({
      msisdn: input.msisdn, iccid: input.iccid, operatorId: input.operatorId, operAccountId: input.operAccountId,
      changeType: input.request.changeType, request: requestPayload(input.request),
      failureCode: input.failure.code, failureReason: input.failure.message, attempts: 1, state: CardChangeFailureState.Pending,
      custId: input.custId ?? null, rootCustId: input.rootCustId ?? null,
    })
    .returning({ failureId: cardChangeFailures.failureId });
  await ex.insert(cardChangeAttempts).values({
    failureId: row.failureId, attemptNo: 1, ok: false, message: `${input.failure.code}: ${input.failure.message}`,
    latencyMs: input.failure.latencyMs ?? null, triggeredBy: input.triggeredBy ?? null,
  });
  return row.failureId;
}

/** Sends one card change to the operator through a gateway. */
export function sendCardChange(gateway: OperatorGateway, card: { iccid: string; msisdn: string }, request: CardChangeRequest): Promise<GatewayResult<ChangeAccepted>> {
  const ref = { iccid: card.iccid, msisdn: card.msisdn };
  switch (request.changeType) {
    case CardChangeType.CardState: return gateway.changeCardState({ ...ref, targetState: request.targetState });
    case CardChangeType.Plan: return gateway.changePlan({ ...ref, planCode: request.planCode, effective: request.effective ?? 'nextCycle' });
    case CardChangeType.Zone: return gateway.changeZone({ ...ref, op: request.op, kind: request.kind, targetId: request.targetId });
    default: return gateway.resetNetwork(ref);
  }
}

/**
 * Changes a card on the operator's network through an access configuration; a refusal is recorded as a
 * card change failure. For the card lifecycle: `{ ok: true, requestId }` or `{ ok: false, failureId }`.
 */
export async function changeCardOnNetwork(
  ex: Executor, box: SecretBox,
  input: Omit<CardChangeFailureInput, 'failure' | 'operAccountId'> & { operAccountId: number },
): Promise<{ ok: true; requestId: string } | { ok: false; failureId: number; message: string }> {
  const [account] = await ex.select().from(operatorAccounts).where(eq(operatorAccounts.operAccountId, input.operAccountId));
  const gateway = account ? gatewayOfAccount(box, account) : null;
  const result = gateway
    ? await sendCardChange(gateway, input, input.request)
    : { ok: false as const, code: 'NO_GATEWAY', message: 'the access configuration or its gateway adapter is not available', latencyMs: 0, retryable: false };
  if (result.ok) return { ok: true, requestId: result.data.requestId };
  const failureId = await recordCardChangeFailure(ex, { ...input, failure: result });
  return { ok: false, failureId, message: result.message };
}

/** Open failure records (pending or retry failed) of an access configuration. */
export async function openFailuresOf(ex: Executor, operAccountId: number): Promise<number> {
  const [r] = await ex
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(cardChangeFailures)
    .where(sql`${cardChangeFailures.operAccountId} = ${operAccountId} and ${cardChangeFailures.state} in (${CardChangeFailureState.Pending}, ${CardChangeFailureState.RetryFailed})`);
  return r.n;
}
