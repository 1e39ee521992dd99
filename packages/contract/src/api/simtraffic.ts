import { Type } from '@sinclair/typebox';
import { endpoint, Nullable, Obj } from './endpoint.ts';

/**
 * The network simulator's traffic generator (docs/operator-gateway.md "Generated traffic"): operator staff make a card's
 * simulated device use data now, as a real device would, so that what follows from usage — the card's cycle usage,
 * quota alerts, automation rules, pools, the operator bill — can be tried end to end on the built-in network. Only for
 * cards whose operator's network is the simulator (its first access configuration, or none: the built-in network) and
 * which may use the network (activated or in test). The usage arrives with the next usage feed window, as any usage.
 */
const tag = 'simtraffic';
/** the access configuration's "test connection" button: staff who may try the operator's network */
export const SIM_TRAFFIC_PERM = 7060004;
/** one generation: at most 100 GB, in whole MB */
export const SIM_TRAFFIC_MAX_MB = 102_400;
/** how long the generated session lasts (its usage grows over it, as a device's session does), seconds */
export const SIM_TRAFFIC_SECONDS = 60;

const Iccid = Type.String({ minLength: 1, maxLength: 32 });

export const getTrafficTarget = endpoint({
  name: 'network/simulator/trafficTarget', method: 'POST', auth: 'session', perm: [SIM_TRAFFIC_PERM], kind: 'query', tag,
  summary: { zh: '卡的网络是否为模拟器，能否生成流量', en: 'Whether the card\'s network is the simulator and can generate usage' },
  body: Obj({ iccid: Iccid }),
  response: Type.Object({
    iccid: Type.String(),
    /** the card's operator is on the simulator (its first access configuration, or none) */
    simulator: Type.Boolean(),
    /** the card can get generated usage now */
    available: Type.Boolean(),
    /** why not, in both languages (null when available) */
    reason: Nullable(Type.Object({ zh: Type.String(), en: Type.String() })),
    /** usage generated for this card in the last 30 days, newest first (at most 20) */
    recent: Type.Array(Type.Object({ trafficId: Type.Integer(), at: Type.String(), bytes: Type.Integer(), seconds: Type.Integer(), createdBy: Type.String() })),
  }),
});

export const generateTraffic = endpoint({
  name: 'network/simulator/generateTraffic', method: 'POST', auth: 'session', perm: [SIM_TRAFFIC_PERM], kind: 'mutation', tag,
  summary: { zh: '模拟器：让卡的设备立即使用流量', en: 'Simulator: make the card\'s device use data now' },
  body: Obj({ iccid: Iccid, dataMb: Type.Integer({ minimum: 1, maximum: SIM_TRAFFIC_MAX_MB }) }),
  response: Type.Object({ trafficId: Type.Integer(), iccid: Type.String(), at: Type.String(), bytes: Type.Integer(), seconds: Type.Integer() }),
});
