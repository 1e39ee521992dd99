import { Type } from '@sinclair/typebox';
import { endpoint, Nullable, Obj, Page, PageParams } from './endpoint.ts';

/**
 * Shortcuts › resale status sync (转售卡状态同步, /shortcuts/resell/list, 6020000; "sync now" 6020001; spec §7 "resell
 * state"; docs/channel-cards.md "Resale"): cards of the platform resold through another platform, with the resale
 * platform's own state, our mapped ResellSyncState, the last sync time and the last error.
 */
const tag = 'resell';
const Perm = { Page: 6020000, Sync: 6020001 } as const;
/** Spec §9: at most 10,000 cards per selection. */
export const RESELL_SYNC_MAX = 10_000;
/** A request may carry more ICCIDs than a sync takes, so that "too many" is answered with the spec's message. */
export const RESELL_REQUEST_MAX_ICCIDS = 20_000;

export const ResellCard = Type.Object({
  iccid: Type.String(),
  platformCode: Type.String(),
  externalId: Type.String(),
  /** the resale platform's own word */
  platformState: Nullable(Type.String()),
  /** ResellSyncState */
  syncState: Type.Integer(),
  lastSyncAt: Nullable(Type.String()),
  lastError: Nullable(Type.String()),
  custId: Nullable(Type.Integer()),
  custName: Nullable(Type.String()),
});

export const getResellPage = endpoint({
  name: 'core/shortcuts/resell/getPage', method: 'POST', auth: 'session', perm: [Perm.Page], kind: 'query', tag,
  summary: { zh: '转售卡及其同步状态', en: 'Resold cards and their sync state' },
  body: Obj({
    ...PageParams,
    iccid: Type.Optional(Type.String({ minLength: 1, maxLength: 22 })),
    syncState: Type.Optional(Type.Integer({ minimum: 0, maximum: 4 })),
  }),
  response: Page(ResellCard),
});

export const syncResellNow = endpoint({
  name: 'core/shortcuts/resell/sync', method: 'POST', auth: 'session', perm: [Perm.Sync], kind: 'mutation', tag,
  summary: { zh: '立即同步所选转售卡的状态', en: 'Sync the chosen resold cards now' },
  body: Obj({ iccids: Type.Array(Type.String({ minLength: 1, maxLength: 22 }), { minItems: 1, maxItems: RESELL_REQUEST_MAX_ICCIDS }) }),
  response: Type.Object({ synced: Type.Integer(), failed: Type.Integer() }),
});
