// Demo communication services for an empty database (called from seed/demo.ts inside its transaction).
import { CommServStatus, CommServType } from '@lynx/contract';
import type { Executor } from '../../../db/client.ts';
import { commRedirectConfigs, commServiceQos, commServices, commSpeedLimitConfigs } from './tables.ts';

const BY = 'admin';

export async function seedCommServices(tx: Executor): Promise<void> {
  const [throttle] = await tx
    .insert(commSpeedLimitConfigs)
    .values({ speedLimitName: '超量降速 1Mbps', uplinkKbps: 512, downlinkKbps: 1024, description: '套餐流量用尽后降速至上行 512kbps / 下行 1Mbps', createdBy: BY })
    .returning();
  const [portal] = await tx
    .insert(commRedirectConfigs)
    .values({
      redirectName: '欠费充值提醒页', redirectUrl: 'https://portal.lynx-cmp.example.com/recharge',
      targetContent: '停机或欠费时 HTTP 访问重定向到充值页面，提示用户续费', createdBy: BY,
    })
    .returning();
  const services = await tx
    .insert(commServices)
    .values([
      {
        commservName: '通用互联网数据', commservNameEn: 'General internet data', commservType: CommServType.Data, directional: false, priority: 5,
        description: '公网互联网访问，适用于车载终端和通用物联网设备', whitelist: [], speedLimitId: throttle.speedLimitId,
        redirectId: portal.redirectId, redirectAddress: 'https://portal.lynx-cmp.example.com/recharge', status: CommServStatus.Enabled, createdBy: BY,
      },
      {
        commservName: '企业云定向数据', commservNameEn: 'Enterprise cloud directed data', commservType: CommServType.Data, directional: true, priority: 3,
        description: '仅可访问企业私有云与平台接入地址的定向流量',
        whitelist: ['iot.zhixing-logistics.example.com', '*.cloud.zhixing-logistics.example.com', '203.0.113.10', '198.51.100.0/24'],
        status: CommServStatus.Enabled, createdBy: BY,
      },
      {
        commservName: '点对点短信', commservNameEn: 'Point-to-point SMS', commservType: CommServType.Sms, directional: false, priority: 7,
        description: '终端与平台之间的上下行短信', whitelist: [], status: CommServStatus.Enabled, createdBy: BY,
      },
      {
        commservName: '语音通话', commservNameEn: 'Voice calls', commservType: CommServType.Voice, directional: false, priority: 8,
        description: '紧急呼叫与客服语音（VoLTE）', whitelist: [], status: CommServStatus.Enabled, createdBy: BY,
      },
    ])
    .returning();
  const id = (name: string) => services.find((s) => s.commservName === name)!.commservId;
  await tx.insert(commServiceQos).values([
    { commservId: id('通用互联网数据'), qosName: '标准 4G', qci: 9, maxUplinkKbps: 5120, maxDownlinkKbps: 20480, arpPriority: 9, createdBy: BY },
    {
      commservId: id('通用互联网数据'), qosName: '视频回传', qci: 6, maxUplinkKbps: 10240, maxDownlinkKbps: 10240,
      gbrUplinkKbps: 2048, gbrDownlinkKbps: 1024, arpPriority: 6, createdBy: BY,
    },
    { commservId: id('企业云定向数据'), qosName: '专网优先', qci: 7, maxUplinkKbps: 2048, maxDownlinkKbps: 4096, arpPriority: 4, createdBy: BY },
    { commservId: id('点对点短信'), qosName: '信令', qci: 5, maxUplinkKbps: 64, maxDownlinkKbps: 64, arpPriority: 2, createdBy: BY },
    {
      commservId: id('语音通话'), qosName: 'VoLTE 语音', qci: 1, maxUplinkKbps: 128, maxDownlinkKbps: 128,
      gbrUplinkKbps: 64, gbrDownlinkKbps: 64, arpPriority: 2, createdBy: BY,
    },
  ]);
}
