// The resale platform (issue 16; docs/channel-cards.md "Resale"): another platform on which some of our cards are resold.
// We only read it: the state of each listing, by the listing id it gave the card. A real adapter implements this
// interface; the in-process simulator (simulator.ts) is the default, like the carriers' network simulator.

import type { ResalePlatformStateCode } from '@lynx/contract';

/** The resale platform's own listing states (its words, kept as it says them; labels in the contract). */
export type ResaleListingStatus = ResalePlatformStateCode;

export interface ResaleListing {
  externalId: string;
  /**
   * null with `error` when the platform does not know the listing. Typed as the platform's known words, but a real
   * platform may send a word added after ours: the sync keeps it and marks the sync failed (unknown state).
   */
  status: ResaleListingStatus | null;
  error?: string;
}

export type ResaleResult<T> = { ok: true; data: T } | { ok: false; code: string; message: string };

export interface ResalePlatform {
  readonly adapter: string;
  /** the listings' states, at most RESALE_QUERY_MAX ids a call; the answer holds one entry per id asked */
  queryListings(externalIds: string[]): Promise<ResaleResult<ResaleListing[]>>;
}

export const RESALE_QUERY_MAX = 500;
