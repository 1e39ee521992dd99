import type { FastifyInstance } from 'fastify';
import { asc, eq, sql } from 'drizzle-orm';
import { CardState, ErrorCode, simtraffic as api, type BodyOf } from '@lynx/contract';
import type { AppDeps } from '../../../app.ts';
import type { Db, Executor } from '../../../db/client.ts';
import { bind } from '../../../platform/http.ts';
import { audit } from '../../../platform/audit.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import type { Actor, RequestContext, SessionContext } from '../../../platform/context.ts';
import { setTrafficSource, type GeneratedSession } from '../../../operators/simulator-traffic.ts';
import { operatorAccounts } from '../opconfig/tables.ts';
import { tenantOf } from '../custoperation/service.ts';

type Row = Record<string, unknown>;
const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));
const MB = 1024 * 1024;
/** the share of generated data the device sends (the rest it receives) */
const UP_SHARE = 0.3;
const SERVING: readonly number[] = [CardState.Activated, CardState.Test];

/** The generated sessions of these cards starting in [from, to): what the simulator adds to their usage. */
export async function readGeneratedTraffic(ex: Executor, iccids: string[], from: Date, to: Date): Promise<GeneratedSession[]> {
  const list = rowsOf<Row>(await ex.execute(sql`select traffic_id, iccid, at, seconds, bytes_up, bytes_down from simulator_traffic
    where iccid = any(${sql.param(iccids)}::text[]) and at >= ${from.toISOString()}::timestamptz and at < ${to.toISOString()}::timestamptz`));
  return list.map((r) => ({
    trafficId: Number(r.traffic_id), iccid: String(r.iccid), at: new Date(r.at as string).getTime(), seconds: Number(r.seconds),
    bytesUp: Number(r.bytes_up), bytesDown: Number(r.bytes_down),
  }));
}

interface Target {
  iccid: string;
  state: number;
  custId: number | null;
  rootCustId: number | null;
  /** the access configuration that serves the card's operator when it is not the simulator */
  realAccount: string | null;
}

/** The card as the viewer may see it, with the network its operator's usage comes through (usage-feed.ts feedGateway). */
async function target(db: Db, actor: Actor, iccid: string): Promise<Target> {
  const [card] = rowsOf<Row>(await db.execute(sql`select c.iccid, c.state, c.cust_id, c.root_cust_id, c.operator_id from cards c
    where c.iccid = ${iccid} and ${tenantOf(actor, 'c')}`));
  if (!card) throw notFound();
  const [account] = await db.select({ adapter: operatorAccounts.adapter, name: operatorAccounts.accountName }).from(operatorAccounts)
    .where(eq(operatorAccounts.operatorId, Number(card.operator_id))).orderBy(asc(operatorAccounts.operAccountId)).limit(1);
  return {
    iccid: String(card.iccid), state: Number(card.state), custId: card.cust_id == null ? null : Number(card.cust_id),
    rootCustId: card.root_cust_id == null ? null : Number(card.root_cust_id),
    realAccount: account && account.adapter !== 'simulator' ? account.name : null,
  };
}

function refusal(t: Target): AppError | null {
  if (t.realAccount != null) return new AppError(ErrorCode.SimTrafficNotSimulator, { iccid: t.iccid, account: t.realAccount });
  if (!SERVING.includes(t.state)) {
    return new AppError(ErrorCode.SimTrafficNotServing, { iccid: t.iccid, stateZh: CardState.label(t.state, 'zh'), stateEn: CardState.label(t.state, 'en') });
  }
  return null;
}

/**
 * The network simulator's traffic generator (contract simtraffic.ts; docs/operator-gateway.md "Generated traffic"):
 * staff make a card's simulated device use data now. The row is what the simulator reads (simulator-traffic.ts, whose
 * source this installs for the process); the usage reaches the card with the next usage feed window.
 */
export function simTrafficRoutes(app: FastifyInstance, deps: AppDeps) {
  const remove = setTrafficSource((iccids, from, to) => readGeneratedTraffic(deps.db, iccids, from, to));
  app.addHook('onClose', async () => remove());
  const actorOf = (c: unknown) => (c as SessionContext).actor;

  bind(app, deps, api.getTrafficTarget, async (body: BodyOf<typeof api.getTrafficTarget>, c) => {
    const t = await target(deps.db, actorOf(c), body.iccid);
    const refused = refusal(t);
    const recent = rowsOf<Row>(await deps.db.execute(sql`select traffic_id, at, seconds, bytes_up + bytes_down as bytes, created_by from simulator_traffic
      where iccid = ${t.iccid} and at > now() - interval '30 days' order by at desc, traffic_id desc limit 20`));
    return {
      iccid: t.iccid, simulator: t.realAccount == null, available: refused == null, reason: refused ? { zh: refused.message_('zh'), en: refused.message_('en') } : null,
      recent: recent.map((r) => ({
        trafficId: Number(r.traffic_id), at: new Date(r.at as string).toISOString(), bytes: Number(r.bytes), seconds: Number(r.seconds), createdBy: String(r.created_by),
      })),
    };
  });

  bind(app, deps, api.generateTraffic, async (body: BodyOf<typeof api.generateTraffic>, c) => {
    const ctx = c as SessionContext & RequestContext;
    const t = await target(deps.db, actorOf(c), body.iccid);
    const refused = refusal(t);
    if (refused) throw refused;
    const bytes = body.dataMb * MB;
    const up = Math.round(bytes * UP_SHARE);
    return deps.db.transaction(async (tx) => {
      const [row] = rowsOf<Row>(await tx.execute(sql`insert into simulator_traffic (iccid, at, seconds, bytes_up, bytes_down, created_by)
        values (${t.iccid}, now(), ${api.SIM_TRAFFIC_SECONDS}, ${up}, ${bytes - up}, ${ctx.actor.loginName}) returning traffic_id, at`));
      const trafficId = Number(row.traffic_id);
      const at = new Date(row.at as string).toISOString();
      await audit(tx, ctx, { entity: 'simulatorTraffic', entityId: trafficId, custId: t.custId, rootCustId: t.rootCustId, after: { iccid: t.iccid, bytes, at } });
      return { trafficId, iccid: t.iccid, at, bytes, seconds: api.SIM_TRAFFIC_SECONDS };
    });
  });
}
