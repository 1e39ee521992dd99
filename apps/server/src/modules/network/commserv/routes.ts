import type { FastifyInstance } from 'fastify';
import { commserv, CommServDirectional, CommServStatus, CommServType } from '@lynx/contract';
import { bind } from '../../../platform/http.ts';
import type { AppDeps } from '../../../app.ts';
import { denied } from '../../../platform/errors.ts';
import { isStaff, type Actor } from '../../../platform/context.ts';
import * as svc from './service.ts';
import * as cfg from './config.ts';

/**
 * Communication services, their QoS profiles and the speed-limit / redirect configurations: platform
 * configuration kept by operator staff. Customers are refused here even when a custom role holds the codes.
 */
export function commservRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;
  const staffOnly = (actor: Actor) => {
    if (!isStaff(actor)) throw denied();
  };

  const listPage = (q: svc.CommServListQuery, actor: Actor) => {
    staffOnly(actor);
    return svc.listCommServices(db, q);
  };
  bind(app, deps, commserv.getCommServListPage, (q, ctx) => listPage(q, ctx.actor));
  bind(app, deps, commserv.getCommServDetail, async (b, ctx) => {
    staffOnly(ctx.actor);
    return svc.commServDetail(db, b.commservId);
  });
  bind(app, deps, commserv.saveCommServ, async (b, ctx) => {
    staffOnly(ctx.actor);
    return svc.createCommServ(db, ctx, b);
  });
  bind(app, deps, commserv.updateCommServ, async (b, ctx) => {
    staffOnly(ctx.actor);
    await svc.updateCommServ(db, ctx, b);
    return null;
  });
  bind(app, deps, commserv.deleteCommServ, async (b, ctx) => {
    staffOnly(ctx.actor);
    await svc.deleteCommServ(db, ctx, b.commservId);
    return null;
  });

  bind(app, deps, commserv.getQosList, async (b, ctx) => {
    staffOnly(ctx.actor);
    return svc.listQos(db, b.commservId);
  });
  bind(app, deps, commserv.saveQos, async (b, ctx) => {
    staffOnly(ctx.actor);
    return svc.createQos(db, ctx, b);
  });
  bind(app, deps, commserv.updateQos, async (b, ctx) => {
    staffOnly(ctx.actor);
    await svc.updateQos(db, ctx, b);
    return null;
  });
  bind(app, deps, commserv.deleteQos, async (b, ctx) => {
    staffOnly(ctx.actor);
    await svc.deleteQos(db, ctx, b.qosId);
    return null;
  });

  bind(app, deps, commserv.getSpeedLimitListPage, async (q, ctx) => {
    staffOnly(ctx.actor);
    return cfg.listSpeedLimits(db, q);
  });
  bind(app, deps, commserv.saveSpeedLimit, async (b, ctx) => {
    staffOnly(ctx.actor);
    return cfg.createSpeedLimit(db, ctx, b);
  });
  bind(app, deps, commserv.updateSpeedLimit, async (b, ctx) => {
    staffOnly(ctx.actor);
    await cfg.updateSpeedLimit(db, ctx, b);
    return null;
  });
  bind(app, deps, commserv.deleteSpeedLimit, async (b, ctx) => {
    staffOnly(ctx.actor);
    await cfg.deleteSpeedLimit(db, ctx, b.speedLimitId);
    return null;
  });

  bind(app, deps, commserv.getRedirectListPage, async (q, ctx) => {
    staffOnly(ctx.actor);
    return cfg.listRedirects(db, q);
  });
  bind(app, deps, commserv.saveRedirect, async (b, ctx) => {
    staffOnly(ctx.actor);
    return cfg.createRedirect(db, ctx, b);
  });
  bind(app, deps, commserv.updateRedirect, async (b, ctx) => {
    staffOnly(ctx.actor);
    await cfg.updateRedirect(db, ctx, b);
    return null;
  });
  bind(app, deps, commserv.deleteRedirect, async (b, ctx) => {
    staffOnly(ctx.actor);
    await cfg.deleteRedirect(db, ctx, b.redirectId);
    return null;
  });

  deps.exports.register(commserv.getCommServListPage, {
    title: { zh: '通信服务列表', en: 'Communication services' },
    filters: {
      commservName: { title: { zh: '通信服务名称', en: 'Service name' } },
      commservType: { title: { zh: '类型', en: 'Type' }, enum: CommServType },
      directional: { title: { zh: '定向', en: 'Directional' }, kind: 'bool' },
      hasQos: { title: { zh: '已配置 QoS', en: 'Has QoS' }, kind: 'bool' },
      status: { title: { zh: '状态', en: 'Status' }, enum: CommServStatus },
    },
    page: async (q: svc.CommServListQuery, actor: Actor) => {
      const r = await listPage(q, actor);
      return {
        total: r.total,
        list: r.list.map((s) => ({
          ...s, directional: s.directional ? CommServDirectional.Yes : CommServDirectional.No, whitelist: s.whitelist.join('; '),
        })),
      };
    },
    columns: [
      { key: 'commservName', title: { zh: '通信服务名称', en: 'Service name' } },
      { key: 'commservType', title: { zh: '类型', en: 'Type' }, enum: CommServType },
      { key: 'directional', title: { zh: '是否定向', en: 'Directional' }, enum: CommServDirectional },
      { key: 'priority', title: { zh: '优先级', en: 'Priority' }, type: 'number' },
      { key: 'qosCount', title: { zh: 'QoS 数', en: 'QoS profiles' }, type: 'number' },
      { key: 'whitelist', title: { zh: '白名单', en: 'Whitelist' } },
      { key: 'redirectAddress', title: { zh: '重定向地址', en: 'Redirection address' } },
      { key: 'speedLimitName', title: { zh: '限速配置', en: 'Speed limit' } },
      { key: 'redirectName', title: { zh: '重定向配置', en: 'Redirect configuration' } },
      { key: 'status', title: { zh: '状态', en: 'Status' }, enum: CommServStatus },
      { key: 'description', title: { zh: '描述', en: 'Description' } },
      { key: 'updatedAt', title: { zh: '更新时间', en: 'Updated' }, type: 'datetime' },
    ],
  });
}
