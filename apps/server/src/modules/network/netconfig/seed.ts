import crypto from 'node:crypto';
import {
  ApnStatus, ApnType, FirewallAction, FirewallAddressType, FirewallDirection, FirewallPolicyStatus, FirewallProtocol, IpAllocation, Operator,
  OperatorGoodsStatus, OperatorGoodsType, QuotaUnit, RoamingZone, UnicomPlanStatus,
} from '@lynx/contract';
import type { Executor } from '../../../db/client.ts';
import { apns } from '../tables.ts';
import { fwAddresses, fwPolicies, fwPolicyAddresses, operatorGoods, unicomCommPlans } from './tables.ts';

const BY = 'admin';

/**
 * Demo network configuration: two address books with a few entries, two firewall policies, an imported
 * operator plan list and a China Unicom communication plan on a Unicom APN.
 */
export async function seedNetconfig(tx: Executor): Promise<void> {
  const addr = (addressScope: 'srcaddr' | 'dstaddr', addressName: string, addressType: number, v: { ipAddress?: string; startIp?: string; endIp?: string }, description: string) => ({
    addressScope, addressName, addressType, ipAddress: v.ipAddress ?? null, startIp: v.startIp ?? null, endIp: v.endIp ?? null, description, createdBy: BY,
  });
  const [fleet, meters, platform, dns] = await tx
    .insert(fwAddresses)
    .values([
      addr('srcaddr', '智行车载终端网段', FirewallAddressType.Cidr, { ipAddress: '10.64.0.0/16' }, '智行物流车载终端的专网地址'),
      addr('srcaddr', '华电电表终端', FirewallAddressType.Range, { startIp: '10.80.1.1', endIp: '10.80.1.254' }, '华电智能电表'),
      addr('dstaddr', '车联网平台', FirewallAddressType.Single, { ipAddress: '203.0.113.20' }, '智行物流车辆管理平台'),
      addr('dstaddr', '公共 DNS', FirewallAddressType.Single, { ipAddress: '114.114.114.114' }, '域名解析'),
    ])
    .returning();
  const policy = (policyName: string, protocol: number, action: number, ports: string | null, priority: number, description: string) => ({
    policyName, operatorId: Operator.ChinaTelecom, direction: FirewallDirection.Outbound, action, protocol, ports, priority,
    status: FirewallPolicyStatus.Enabled, description, createdBy: BY,
  });
  const [toPlatform, dnsOnly] = await tx
    .insert(fwPolicies)
    .values([
      policy('车载终端访问车联网平台', FirewallProtocol.Tcp, FirewallAction.Permit, '443,8883', 10, '只允许 HTTPS 与 MQTT over TLS'),
      policy('终端域名解析', FirewallProtocol.Udp, FirewallAction.Permit, '53', 20, '允许 DNS 查询'),
    ])
    .returning();
  await tx.insert(fwPolicyAddresses).values([
    { policyId: toPlatform.policyId, addressId: fleet.addressId, addressScope: 'srcaddr' },
    { policyId: toPlatform.policyId, addressId: platform.addressId, addressScope: 'dstaddr' },
    { policyId: dnsOnly.policyId, addressId: fleet.addressId, addressScope: 'srcaddr' },
    { policyId: dnsOnly.policyId, addressId: meters.addressId, addressScope: 'srcaddr' },
    { policyId: dnsOnly.policyId, addressId: dns.addressId, addressScope: 'dstaddr' },
  ]);

  const importBatch = crypto.randomUUID();
  const goods = (goodsCode: string, goodsName: string, operatorId: number, goodsType: number, quota: number, quotaUnit: number, price: string, status: number = OperatorGoodsStatus.On) => ({
    goodsCode, goodsName, operatorId, goodsType, quota, quotaUnit, quotaBase: quotaUnit === QuotaUnit.Gb ? quota * 1024 : quota, validityDays: 30, price,
    status, importBatch, createdBy: BY,
  });
  await tx.insert(operatorGoods).values([
    goods('CMIOT-D-30M', '移动物联网 30MB 月包', Operator.ChinaMobile, OperatorGoodsType.Data, 30, QuotaUnit.Mb, '1.5'),
    goods('CMIOT-D-1G', '移动物联网 1GB 月包', Operator.ChinaMobile, OperatorGoodsType.Data, 1, QuotaUnit.Gb, '9'),
    goods('CUIOT-D-500M', '联通物联网 500MB 月包', Operator.ChinaUnicom, OperatorGoodsType.Data, 500, QuotaUnit.Mb, '5'),
    goods('CUIOT-S-100', '联通物联网短信 100 条', Operator.ChinaUnicom, OperatorGoodsType.Sms, 100, QuotaUnit.Items, '3'),
    goods('CTIOT-D-2G', '电信物联网 2GB 月包', Operator.ChinaTelecom, OperatorGoodsType.Data, 2, QuotaUnit.Gb, '15'),
    goods('CTIOT-V-50', '电信物联网语音 50 分钟', Operator.ChinaTelecom, OperatorGoodsType.Voice, 50, QuotaUnit.Minutes, '4', OperatorGoodsStatus.Off),
  ]);

  const [unicomApn] = await tx
    .insert(apns)
    .values({ apnName: 'scuiot', operatorId: Operator.ChinaUnicom, apnType: ApnType.Public, ipAllocation: IpAllocation.Dynamic, status: ApnStatus.Enabled, remark: '中国联通物联网公网 APN', createdBy: BY })
    .onConflictDoNothing()
    .returning();
  if (unicomApn) {
    await tx.insert(unicomCommPlans).values({
      planName: '联通标准数据计划', planCode: 'CU_STD_DATA', dataEnabled: true, smsEnabled: true, voiceEnabled: false, apnId: unicomApn.apnId,
      roamingZone: RoamingZone.Domestic, dataLimitMb: 1024, smsLimit: 200, speedLimitKbps: null,
      // China Unicom's billing period starts on the 26th (spec §9)
      billingDay: 26, description: '联通物联网卡默认通信计划', status: UnicomPlanStatus.Enabled, createdBy: BY,
    });
  }
}
