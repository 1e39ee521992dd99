import { defineEnum } from './define.ts';

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
