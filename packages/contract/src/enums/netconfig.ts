import { defineEnum } from './define.ts';

/** Firewall address books (spec §7): source addresses use scope `srcaddr`, target addresses `dstaddr`. */
export const ADDRESS_SCOPES = ['srcaddr', 'dstaddr'] as const;
export type AddressScope = (typeof ADDRESS_SCOPES)[number];

/** How an address book entry is written: one IPv4 address, a start-end range, or a CIDR block. */
export const FirewallAddressType = defineEnum({
  Single: { value: 1, zh: '单个 IP', en: 'Single IP' },
  Range: { value: 2, zh: 'IP 范围', en: 'IP range' },
  Cidr: { value: 3, zh: '网段（CIDR）', en: 'Subnet (CIDR)' },
});

/** Traffic direction a policy applies to, seen from the card. */
export const FirewallDirection = defineEnum({
  Outbound: { value: 1, zh: '上行（终端访问外部）', en: 'Outbound (device to network)' },
  Inbound: { value: 2, zh: '下行（外部访问终端）', en: 'Inbound (network to device)' },
  Both: { value: 3, zh: '双向', en: 'Both directions' },
});

export const FirewallAction = defineEnum({
  Permit: { value: 1, zh: '允许', en: 'Permit' },
  Deny: { value: 2, zh: '拒绝', en: 'Deny' },
});

export const FirewallProtocol = defineEnum({
  Any: { value: 1, zh: '任意', en: 'Any' },
  Tcp: { value: 2, zh: 'TCP', en: 'TCP' },
  Udp: { value: 3, zh: 'UDP', en: 'UDP' },
  Icmp: { value: 4, zh: 'ICMP', en: 'ICMP' },
});

export const FirewallPolicyStatus = defineEnum({
  Enabled: { value: 1, zh: '启用', en: 'Enabled' },
  Disabled: { value: 2, zh: '停用', en: 'Disabled' },
});

/** Kind of an operator rate plan (the operator's own catalogue, imported from its file). */
export const OperatorGoodsType = defineEnum({
  Data: { value: 1, zh: '流量', en: 'Data' },
  Sms: { value: 2, zh: '短信', en: 'SMS' },
  Voice: { value: 3, zh: '语音', en: 'Voice' },
});

/**
 * Unit the quota is given in. Data is stored in MB (1 GB = 1024 MB, spec §5 base 1024); SMS in messages;
 * voice in minutes.
 */
export const QuotaUnit = defineEnum({
  Mb: { value: 1, zh: 'MB', en: 'MB' },
  Gb: { value: 2, zh: 'GB', en: 'GB' },
  Items: { value: 3, zh: '条', en: 'messages' },
  Minutes: { value: 4, zh: '分钟', en: 'minutes' },
});

/** Spec §7: operator package list calls force status 1, so 1 is "on". */
export const OperatorGoodsStatus = defineEnum({
  On: { value: 1, zh: '开启', en: 'On' },
  Off: { value: 0, zh: '关闭', en: 'Off' },
});

export const UnicomPlanStatus = defineEnum({
  Enabled: { value: 1, zh: '启用', en: 'Enabled' },
  Disabled: { value: 2, zh: '停用', en: 'Disabled' },
});

/** Where a China Unicom communication plan may be used. */
export const RoamingZone = defineEnum({
  Domestic: { value: 1, zh: '中国大陆', en: 'Mainland China' },
  HkMoTw: { value: 2, zh: '港澳台', en: 'Hong Kong, Macao and Taiwan' },
  Asia: { value: 3, zh: '亚太', en: 'Asia-Pacific' },
  Global: { value: 4, zh: '全球', en: 'Worldwide' },
});
