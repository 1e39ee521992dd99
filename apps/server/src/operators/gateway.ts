/**
 * The operator gateway (ARCHITECTURE §1): everything the platform asks of a carrier's network goes
 * through this interface, so card lifecycle, plan changes and usage never depend on one carrier's API.
 * An implementation is chosen per operator account in the access configuration; the built-in network
 * simulator is the default, real carrier adapters register in registry.ts.
 *
 * Calls do not throw for a refusal by the carrier: they answer `{ ok: false, code, message }`, so the
 * caller can record the failure (card change failure records) and decide whether to retry.
 */

/** Credentials of an operator account, decrypted only for the duration of a call. */
export interface GatewayCredentials {
  appKey: string | null;
  appSecret: string | null;
  password: string | null;
}

/** An access configuration as the gateway needs it. */
export interface GatewayAccount {
  operAccountId: number;
  operatorId: number;
  accountName: string;
  endpointUrl: string;
  apiVersion: string;
  credentials: GatewayCredentials;
  /** simulator only: share (0-100) of card changes refused */
  simFailureRate: number;
  /** simulator only: ICCID glob (* and ?) whose card changes are refused */
  simFailIccidPattern: string | null;
}

export type GatewayResult<T> =
  | { ok: true; data: T; latencyMs: number }
  | { ok: false; code: string; message: string; latencyMs: number; retryable: boolean };

export interface ConnectionInfo {
  platform: string;
  apiVersion: string;
  serverTime: string;
}

export interface CardRef {
  iccid: string;
  msisdn?: string | null;
}

export interface CardStateChange extends CardRef {
  /** target card state (spec §4 numeric states, e.g. 64 activated, 65 deactivated) */
  targetState: number;
}

export interface PlanChange extends CardRef {
  /** the operator's code of the plan to move to */
  planCode: string;
  /** when the operator applies it */
  effective: 'now' | 'nextCycle';
}

export interface ZoneChange extends CardRef {
  /** block: no service in the zone / region / network; permit: service again; release: the zone is given up */
  op: 'block' | 'permit' | 'release';
  kind: 'zone' | 'region' | 'network';
  targetId: number;
}

export interface ChangeAccepted {
  /** the operator's reference of the accepted request */
  requestId: string;
  acceptedAt: string;
}

export interface UsageQuery extends CardRef {
  from: Date;
  to: Date;
}

export interface Usage {
  iccid: string;
  from: string;
  to: string;
  dataBytes: number;
  smsCount: number;
  voiceSeconds: number;
}

export interface OperatorGateway {
  /** adapter code, e.g. 'simulator' */
  readonly adapter: string;
  /** authenticates the stored credentials against the operator platform */
  testConnection(): Promise<GatewayResult<ConnectionInfo>>;
  changeCardState(req: CardStateChange): Promise<GatewayResult<ChangeAccepted>>;
  changePlan(req: PlanChange): Promise<GatewayResult<ChangeAccepted>>;
  /** blocks or permits a zone, region or network for one card */
  changeZone(req: ZoneChange): Promise<GatewayResult<ChangeAccepted>>;
  /** drops the card's data sessions so the device attaches again */
  resetNetwork(req: CardRef): Promise<GatewayResult<ChangeAccepted>>;
  queryUsage(req: UsageQuery): Promise<GatewayResult<Usage>>;
}

/** Builds a gateway for one account; a carrier adapter module exports one of these. */
export type GatewayFactory = (account: GatewayAccount) => OperatorGateway;
