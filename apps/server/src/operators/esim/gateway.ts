// The SM-DP+ behind the eUICC screens (issue 16, docs/euicc.md), as GSMA SGP.22 ES2+ sees it from the operator's side:
// DownloadOrder, ConfirmOrder and ReleaseProfile prepare a profile for an eUICC; the operations a person asks for on
// the console (download, enable, disable, delete) are sent with an operation id and answered later, through the
// notifications the SM-DP+ sends back (ES2+ HandleDownloadProgressInfo for a download, the other RSP notifications
// for enable, disable and delete). A real SM-DP+ adapter implements this interface; the in-process simulator
// (simulator.ts) is the default, like the carriers' network simulator.

export type EsimOperationKind = 'download' | 'enable' | 'disable' | 'delete';

export interface EsimOperation {
  /** the idempotency key: the same id sent twice is one operation */
  opId: string;
  iccid: string;
  eid: string;
  kind: EsimOperationKind;
  matchingId: string | null;
}

/** An answer of the SM-DP+ for one operation: done, or failed with its reason. */
export interface EsimNotification {
  opId: string;
  iccid: string;
  kind: EsimOperationKind;
  ok: boolean;
  /** the SM-DP+'s reason of a failure (its subject code / reason code text) */
  reason?: string;
}

/** A call the SM-DP+ refused at once (bad request, unknown profile, …): the operation fails with this reason. */
export class EsimRefusal extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

export interface EsimGateway {
  /** the SM-DP+ address in activation codes (LPA:1$<address>$<matching id>) */
  readonly smdpAddress: string;
  /** ES2+.DownloadOrder: reserves the profile (optionally for an EID) */
  downloadOrder(req: { iccid: string; eid?: string | null }): Promise<{ iccid: string }>;
  /** ES2+.ConfirmOrder: binds it to the EID and answers the matching id of its activation code */
  confirmOrder(req: { iccid: string; eid?: string | null; matchingId?: string | null; releaseFlag: boolean }): Promise<{ eid: string | null; matchingId: string; smdpAddress: string }>;
  /** ES2+.ReleaseProfile: the profile may now be downloaded with its activation code */
  releaseProfile(req: { iccid: string }): Promise<void>;
  /** sends an operation; its answer comes later through the notification handler (never twice for one opId) */
  requestOperation(op: EsimOperation): Promise<void>;
  /** where the answers go (the eUICC module registers one handler; answers may come in bunches) */
  onNotifications(handler: (batch: EsimNotification[]) => void): void;
  /** stops its timers (server shutdown) */
  close(): void;
}
