import { defineEnum } from './define.ts';

/*
 * Channel bills (issue 14; spec §2 /billing/channelbill/*, code 4050000): a bill imported from an operator or an
 * upstream channel, reconciled line by line against the platform's own usage. docs/channel-bills.md.
 */

/** Where an imported bill is in its life: the import and the reconciliation run as a durable background job. */
export const ChannelBillState = defineEnum({
  Importing: { value: 1, zh: '导入中', en: 'Importing' },
  Reconciling: { value: 2, zh: '对账中', en: 'Reconciling' },
  Reconciled: { value: 3, zh: '已对账', en: 'Reconciled' },
  Failed: { value: 4, zh: '导入失败', en: 'Import failed' },
});
export type ChannelBillState = (typeof ChannelBillState.values)[number];

/** Who issued the bill. */
export const ChannelBillSource = defineEnum({
  Operator: { value: 1, zh: '运营商', en: 'Operator' },
  UpstreamChannel: { value: 2, zh: '上游渠道', en: 'Upstream channel' },
});
export type ChannelBillSource = (typeof ChannelBillSource.values)[number];

/**
 * What reconciliation found for one card: the channel's line against the platform's usage of the same card in the
 * same period (the operator's billing period, China Unicom from the 26th).
 */
export const ChannelBillLineState = defineEnum({
  Pending: { value: 0, zh: '待对账', en: 'Not reconciled' },
  Matched: { value: 1, zh: '一致', en: 'Matched' },
  Differs: { value: 2, zh: '有差异', en: 'Differs' },
  MissingOnPlatform: { value: 3, zh: '平台无此卡', en: 'Missing on platform' },
  MissingInChannel: { value: 4, zh: '渠道账单缺失', en: 'Missing in channel bill' },
});
export type ChannelBillLineState = (typeof ChannelBillLineState.values)[number];

/** Lines a bill file may have (one card a line). */
export const CHANNEL_BILL_MAX_LINES = 1_000_000;
/** Size of an uploaded bill file: 1,000,000 lines of CSV are about 60 MB. */
export const CHANNEL_BILL_MAX_BYTES = 100 * 1024 * 1024;
/** Data is "matched" when the difference is at most the larger of this many bytes (1 MB) … */
export const CHANNEL_BILL_TOLERANCE_BYTES = 1024 * 1024;
/** … and this share of the platform's usage, in thousandths (10 = 1 %). SMS counts must be equal. */
export const CHANNEL_BILL_TOLERANCE_PERMILLE = 10;
/** Per-line errors kept for a failed import (the count covers them all). */
export const CHANNEL_BILL_ERRORS_KEPT = 1000;
export const CHANNEL_BILL_SOURCE_NAME_MAX = 64;
export const CHANNEL_BILL_REMARK_MAX = 200;

/** The columns of a bill file; titles in either language are accepted. Data comes in KB or in MB (one of the two). */
export const CHANNEL_BILL_COLUMNS = [
  { key: 'iccid', zh: 'ICCID', en: 'ICCID', required: true, example: '89860112345678901234' },
  { key: 'period', zh: '账期', en: 'Period', required: false, example: '2026-10' },
  { key: 'dataKb', zh: '流量(KB)', en: 'Data (KB)', required: false, example: '102400' },
  { key: 'dataMb', zh: '流量(MB)', en: 'Data (MB)', required: false, example: '100' },
  { key: 'sms', zh: '短信(条)', en: 'SMS', required: false, example: '3' },
  { key: 'amount', zh: '金额(元)', en: 'Amount (CNY)', required: true, example: '5.00' },
] as const;
export type ChannelBillColumn = (typeof CHANNEL_BILL_COLUMNS)[number]['key'];
