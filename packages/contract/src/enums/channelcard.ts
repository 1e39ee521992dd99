import { defineEnum } from './define.ts';
import type { Lang } from '../i18n.ts';

/** Channel card (渠道卡, 16000000; docs/channel-cards.md): the channel card's own state (the card keeps its card state). */
export const ChannelCardState = defineEnum({
  InUse: { value: 1, zh: '使用中', en: 'In use' },
  /** the channel no longer bills it from the period after the stop */
  Stopped: { value: 2, zh: '已停用', en: 'Stopped' },
});

/** Resale status sync (6020000): the resale platform's states mapped to ours (its own word is kept beside it). */
export const ResellSyncState = defineEnum({
  NotSynced: { value: 0, zh: '未同步', en: 'Not synced' },
  Listed: { value: 1, zh: '在售', en: 'Listed' },
  Sold: { value: 2, zh: '已售出', en: 'Sold' },
  Delisted: { value: 3, zh: '已下架', en: 'Delisted' },
  Failed: { value: 4, zh: '同步失败', en: 'Sync failed' },
});

/**
 * The resale platform's own listing states (its words on the wire, `platformState`), with labels for the console. The
 * raw word stays visible beside the label for support staff; a word not listed here is shown as sent, marked unknown.
 */
export const RESALE_PLATFORM_STATES = {
  PENDING_REVIEW: { zh: '待审核', en: 'Pending review' },
  ON_SALE: { zh: '在售', en: 'On sale' },
  SOLD: { zh: '已售出', en: 'Sold' },
  OFF_SHELF: { zh: '已下架', en: 'Off the shelf' },
} as const satisfies Record<string, { zh: string; en: string }>;

export type ResalePlatformStateCode = keyof typeof RESALE_PLATFORM_STATES;

export const isKnownResaleState = (code: string | null | undefined): code is ResalePlatformStateCode =>
  code != null && Object.prototype.hasOwnProperty.call(RESALE_PLATFORM_STATES, code);

/** The label of a resale platform state: known → its label; unknown → null (show the raw word with an "unknown" hint). */
export function resaleStateLabel(code: string | null | undefined, lang: Lang): string | null {
  return isKnownResaleState(code) ? RESALE_PLATFORM_STATES[code][lang] : null;
}
