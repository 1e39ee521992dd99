import { defineEnum } from './define.ts';

/** Export (download task) state (spec §4). */
export const ExportState = defineEnum({
  InProcess: { value: 1, zh: '处理中', en: 'In process' },
  Succeeded: { value: 2, zh: '成功', en: 'Succeeded' },
  Failed: { value: 3, zh: '失败', en: 'Failed' },
});

export const ExportFormat = defineEnum({
  Xlsx: { value: 1, zh: 'Excel (xlsx)', en: 'Excel (xlsx)' },
  Csv: { value: 2, zh: 'CSV', en: 'CSV' },
  /** QR code images of cards (card detail / card list) */
  Zip: { value: 3, zh: 'ZIP（二维码图片）', en: 'ZIP (QR code images)' },
});

export const Operator = defineEnum({
  ChinaMobile: { value: 1, zh: '中国移动', en: 'China Mobile' },
  ChinaUnicom: { value: 2, zh: '中国联通', en: 'China Unicom' },
  ChinaTelecom: { value: 3, zh: '中国电信', en: 'China Telecom' },
});

export const SendMode = defineEnum({
  Immediate: { value: 1, zh: '立即发送', en: 'Immediate' },
  Timed: { value: 2, zh: '定时发送', en: 'Timed' },
});

/** Derived from send time and end date. */
export const NoticeState = defineEnum({
  Pending: { value: 1, zh: '待发布', en: 'Scheduled' },
  Active: { value: 2, zh: '展示中', en: 'Showing' },
  Ended: { value: 3, zh: '已结束', en: 'Ended' },
});

export const ApnType = defineEnum({
  Public: { value: 1, zh: '公网 APN', en: 'Public APN' },
  Private: { value: 2, zh: '专网 APN', en: 'Private APN' },
});

export const IpAllocation = defineEnum({
  Dynamic: { value: 1, zh: '动态分配', en: 'Dynamic' },
  Static: { value: 2, zh: '静态分配', en: 'Static' },
});

export const ApnStatus = defineEnum({
  Enabled: { value: 1, zh: '启用', en: 'Enabled' },
  Disabled: { value: 2, zh: '停用', en: 'Disabled' },
});
