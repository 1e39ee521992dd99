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

/**
 * A card as the usage feed asks about it. `service` is what the carrier's network knows of the card (the
 * platform keeps it in step by sending every state and zone change): the periods of the window in which the card
 * may attach (test or active, not barred). A carrier adapter answers from its own records and may ignore it; the
 * simulator generates usage only inside these periods.
 */
export interface UsageCard extends CardRef {
  operatorId: number;
  service: { from: Date; to: Date | null; test: boolean }[];
  /** the APN the device attaches with */
  apn: string;
  /** radio access types the card's plan allows (NetworkType values); empty = the operator's default */
  networkTypes: readonly number[];
}

/** Usage of many cards in the window [from, to). */
export interface UsagePull {
  cards: UsageCard[];
  from: Date;
  to: Date;
}

/** One data session as reported at the end of the window; counters are cumulative since the session started. */
export interface SessionRecord {
  iccid: string;
  sessionId: string;
  startedAt: Date;
  /** null: still open at the end of the window */
  endedAt: Date | null;
  apn: string;
  bytesUp: number;
  bytesDown: number;
  /** NetworkType value */
  rat: number;
  /** serving cell, MCC-MNC-TAC-CI */
  cell: string | null;
}

/** One card's counters for one China calendar day, cumulative up to the end of the window. */
export interface DailyUsageRecord {
  iccid: string;
  /** YYYY-MM-DD, the business time zone */
  day: string;
  bytesUp: number;
  bytesDown: number;
  sms: number;
  voiceSeconds: number;
  /** data sessions started that day */
  sessions: number;
}

export interface UsageReport {
  /** sessions that overlap the window */
  sessions: SessionRecord[];
  /** counters of every day the window touches, for the cards whose counters moved in the window */
  daily: DailyUsageRecord[];
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
  /** the usage feed: sessions and daily counters of many cards in a time window (re-asking gives the same or larger counters) */
  pullUsage(req: UsagePull): Promise<GatewayResult<UsageReport>>;
  /** submits an SMS to the card (mobile-terminated) */
  sendSms(req: SmsRequest): Promise<GatewayResult<SmsAccepted>>;
  /** delivery reports of submitted messages (docs/sms.md): delivered, failed, or still pending at the carrier */
  querySmsReports(req: SmsReportQuery): Promise<GatewayResult<SmsReport[]>>;
  /** mobile-originated messages the given cards sent in the window [from, to) (docs/sms.md) */
  pullMoSms(req: MoSmsPull): Promise<GatewayResult<MoSms[]>>;
  /**
   * The operator's bill of a closed period for the given cards of this account, a page of cards at a time (the caller
   * walks the account's cards; per-card charges add up, so the pages sum to the bill). Refused while the carrier has
   * not issued the period's bill yet (retryable).
   */
  queryBill(req: BillQuery): Promise<GatewayResult<OperatorBillPage>>;
}

/** A card as the carrier bills it: what its network knew of the card in the period (as for usage) and the plan it is on. */
export interface BillCard extends UsageCard {
  /** the operator's code of the card's plan; null = no plan (billed under the account's default) */
  planCode: string | null;
}

/** One period's bill for a page of the account's cards. */
export interface BillQuery {
  /** 'YYYY-MM', the month the carrier's period ends in */
  periodKey: string;
  /** the period [from, to): 00:00 of its first day to 00:00 of the day after its last (business time) */
  from: Date;
  to: Date;
  cards: BillCard[];
}

/** The carrier's wholesale prices (amounts in fen, tax excluded). */
export interface WholesaleTariff {
  /** per card with active service in the period */
  cardFeeFen: number;
  /** per GB (1024 MB); a card's data is billed in whole MB, rounded up, and its data charge rounded half up to the fen */
  dataFenPerGb: number;
  /** per mobile-originated SMS */
  smsFen: number;
  /** VAT in hundredths of a percent (600 = 6 %), per line, rounded half up */
  taxRateBp: number;
}

/** One card's charges on the carrier's bill (amounts in fen; `amountFen` = card + data + SMS, tax excluded). */
export interface OperatorBillLine {
  iccid: string;
  planCode: string | null;
  dataBytes: number;
  billedMb: number;
  sms: number;
  cardFeeFen: number;
  dataFeeFen: number;
  smsFeeFen: number;
  amountFen: number;
  taxFen: number;
}

export interface OperatorBillPage {
  periodKey: string;
  /** the carrier's reference of the period's bill (the same for every page) */
  billRef: string;
  currency: 'CNY';
  tariff: WholesaleTariff;
  /** the cards of the page that have charges (a card the carrier did not serve in the period is not billed) */
  lines: OperatorBillLine[];
}

export interface SmsRequest extends CardRef {
  msisdn: string;
  /** the message text (160 GSM 7-bit characters or 70 others) */
  content: string;
  /**
   * The platform's own reference of the message (its id): the carrier answers a second submission with the same
   * reference with the first one's message id instead of sending the message again, so a resubmission after a crash
   * never reaches the device twice.
   */
  clientRef?: string;
}

/** Messages whose delivery reports the platform asks for. */
export interface SmsReportQuery {
  messages: { messageId: string; iccid: string; submittedAt: Date }[];
}

/** The carrier's delivery report of one message. */
export interface SmsReport {
  messageId: string;
  /** pending: no report yet; unknown: the carrier does not know the message id */
  state: 'pending' | 'delivered' | 'failed' | 'unknown';
  /** when the device acknowledged the message or the carrier gave up */
  reportedAt: string | null;
  /** the carrier's status word (CMPP / SMPP style: DELIVRD, UNDELIV, EXPIRED …) */
  code: string | null;
  message: string | null;
}

/** Mobile-originated messages of these cards in the window [from, to). */
export interface MoSmsPull {
  cards: { iccid: string; msisdn: string; test: boolean }[];
  from: Date;
  to: Date;
}

export interface MoSms {
  iccid: string;
  msisdn: string;
  /** the carrier's id of the message: the same message always has the same id */
  messageId: string;
  sentAt: string;
  content: string;
}

export interface SmsAccepted {
  /** the operator's reference of the message */
  messageId: string;
  acceptedAt: string;
  /** delivery report when the operator gives one at once: true delivered, false not delivered, null pending */
  delivered: boolean | null;
  deliveryError?: string | null;
}

/** Builds a gateway for one account; a carrier adapter module exports one of these. */
export type GatewayFactory = (account: GatewayAccount) => OperatorGateway;

/*
 * The super SIM vendor platform (issue 16; docs/super-sim.md): a multi-IMSI card whose active profile the vendor
 * switches over the air. It is not one carrier's API, so it has its own small interface beside OperatorGateway; the
 * built-in simulator (simulator-supersim.ts) implements it, a real vendor adapter registers in registry.ts.
 */

/** A profile of the super SIM as the vendor knows it. */
export interface SuperSimProfile {
  operatorId: number;
  iccid: string;
  imsi: string | null;
  /** the platform's state of the profile's card allows service (test or activated) */
  serving: boolean;
}

export interface SuperSimSwitchRequest {
  sn: string;
  from: SuperSimProfile | null;
  to: SuperSimProfile;
  /** the platform's reference (its switch record id): a second request with it answers the first one's request id */
  clientRef: string;
}

/** The outcome of a switch at the vendor: pending until the device confirms the new profile over the air. */
export interface SuperSimSwitchOutcome {
  requestId: string;
  state: 'pending' | 'confirmed' | 'failed';
  code: string | null;
  message: string | null;
  at: string;
}

/** The vendor's radio report of one super SIM: the signal (dBm) each profile would have now. */
export interface SuperSimSignal {
  sn: string;
  signals: { operatorId: number; dbm: number }[];
}

export interface SuperSimGateway {
  readonly adapter: string;
  /** asks the vendor to switch the active profile; a refusal is a value (ok: false) */
  requestSwitch(req: SuperSimSwitchRequest): Promise<GatewayResult<SuperSimSwitchOutcome>>;
  /** the current outcome of an accepted request */
  querySwitch(requestId: string): Promise<GatewayResult<SuperSimSwitchOutcome>>;
  /** the radio report of many super SIMs (at most 1,000 a call) */
  querySignals(req: { sns: { sn: string; operatorIds: number[] }[] }): Promise<GatewayResult<SuperSimSignal[]>>;
}
