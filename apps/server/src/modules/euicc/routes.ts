import type { FastifyInstance } from 'fastify';
import { euicc as api } from '@lynx/contract';
import { bind } from '../../platform/http.ts';
import type { AppDeps } from '../../app.ts';
import type { SessionContext } from '../../platform/context.ts';
import { SmdpSimulator } from '../../operators/esim/simulator.ts';
import type { EsimGateway } from '../../operators/esim/gateway.ts';
import { EuiccEngine } from './engine.ts';
import { EuiccService } from './service.ts';
import { registerEuiccBatches } from './batch.ts';
import { euiccTemplate, readEuiccUpload } from './import.ts';
import { BatchService } from '../card/batch/service.ts';
import { BATCH_QUEUE } from '../card/batch/runner.ts';
import { EuiccAction, EuiccProfileState, Operator } from '@lynx/contract';

const engines = new WeakMap<FastifyInstance, EuiccEngine>();
/** The app's eUICC engine (its SM-DP+ gateway and timeout): tests and the benchmark turn the simulator's knobs. */
export const euiccEngineOf = (app: FastifyInstance) => engines.get(app)!;

/**
 * Card › eUICC (2040000; changes 2040001): eUICCs and profiles, check and change of profile states, EID assignment,
 * import, activation codes. The SM-DP+ is the in-process simulator unless a real EsimGateway is given.
 */
export function euiccRoutes(app: FastifyInstance, deps: AppDeps, gateway: EsimGateway = new SmdpSimulator()) {
  const engine = new EuiccEngine(deps, gateway, app.log);
  engines.set(app, engine);
  // state changes are batches of the card batch engine (types 30-33): its job places the operations (batch.ts)
  registerEuiccBatches(engine);
  const batches = new BatchService(deps.db, (batchId) =>
    deps.jobs.send(BATCH_QUEUE, { batchId }).then(() => undefined)
      .catch((err) => app.log.error({ err, batchId }, 'eUICC batch job not queued; the batch sweep will queue it')));
  const service = new EuiccService(deps.db, gateway, engine, batches);
  const ctxOf = (c: unknown) => c as SessionContext;
  if (deps.config.runWorkers) engine.startTimer();
  app.addHook('onClose', async () => engine.stop());

  bind(app, deps, api.getEuiccPage, (body, c) => service.page(body, ctxOf(c).actor));
  bind(app, deps, api.getProfilePage, (body, c) => service.profilePage(body, ctxOf(c).actor));
  bind(app, deps, api.checkProfiles, (body, c) => service.check(body, ctxOf(c)));
  bind(app, deps, api.getEuiccBatch, (body, c) => service.batchDetail(body, ctxOf(c).actor));
  bind(app, deps, api.changeProfileState, (body, c) => service.changeState(body, ctxOf(c)));
  bind(app, deps, api.assignEid, (body, c) => service.assign(body, ctxOf(c)));
  bind(app, deps, api.batchAssignEid, (body, c) => service.batchAssign(body, ctxOf(c)));
  bind(app, deps, api.batchInsert, (body, c) => service.batchInsert(body, ctxOf(c)));
  bind(app, deps, api.importEuiccFile, async (_body, c, req) => {
    const { rows, custId, remark } = await readEuiccUpload(req, ctxOf(c));
    return service.batchInsert({ rows, ...(custId !== undefined ? { custId } : {}) }, ctxOf(c), remark);
  });
  bind(app, deps, api.downloadEuiccTemplate, (body, c, _req, reply) => euiccTemplate(body, ctxOf(c), reply));
  bind(app, deps, api.activationQrCodes, (body, c) => service.qrCodes(body, ctxOf(c)));
  bind(app, deps, api.euiccCustomers, (_body, c) => service.customers(ctxOf(c).actor));

  // the lists' downloads (the generic download task; rows from the screens' own calls, so the same tenant rules)
  const profileColumns = [
    { key: 'iccid', title: { zh: 'Profile ICCID', en: 'Profile ICCID' } },
    { key: 'eid', title: { zh: 'EID', en: 'EID' } },
    { key: 'operatorId', title: { zh: '运营商', en: 'Operator' }, enum: Operator },
    { key: 'state', title: { zh: '状态', en: 'State' }, enum: EuiccProfileState },
    { key: 'pendingAction', title: { zh: '等待 SM-DP+ 的操作', en: 'Waiting for the SM-DP+' }, enum: EuiccAction },
    { key: 'reason', title: { zh: '原因', en: 'Reason' } },
    { key: 'activationCode', title: { zh: '激活码', en: 'Activation code' } },
    { key: 'custName', title: { zh: '客户', en: 'Customer' } },
    { key: 'stateAt', title: { zh: '状态时间', en: 'State since' }, type: 'datetime' as const },
  ];
  const reasonOf = (p: { reasonZh: string | null; reasonEn: string | null }) =>
    (p.reasonZh == null ? null : p.reasonZh === p.reasonEn ? p.reasonZh : `${p.reasonZh} / ${p.reasonEn}`);
  deps.exports.register(api.getProfilePage, {
    title: { zh: 'eUICC Profile 列表', en: 'eUICC profiles' },
    filters: {
      state: { title: { zh: '状态', en: 'State' }, enum: EuiccProfileState },
      operatorId: { title: { zh: '运营商', en: 'Operator' }, enum: Operator },
      eid: { title: { zh: 'EID', en: 'EID' } },
      downloadable: { title: { zh: '仅可下载', en: 'Downloadable only' }, kind: 'bool' },
    },
    page: async (f, actor) => {
      const r = await service.profilePage(f, actor);
      return { ...r, list: r.list.map((p) => ({ ...p, reason: reasonOf(p) })) };
    },
    columns: profileColumns,
  });
  deps.exports.register(api.getEuiccPage, {
    title: { zh: 'eUICC 列表', en: 'eUICCs' },
    filters: {
      state: { title: { zh: 'Profile 状态', en: 'Profile state' }, enum: EuiccProfileState },
      eid: { title: { zh: 'EID', en: 'EID' } },
    },
    page: async (f, actor) => {
      const r = await service.page(f, actor);
      return {
        ...r,
        list: r.list.map((e) => ({
          ...e, profileCount: e.profiles.length,
          profiles: e.profiles.map((p) => `${p.iccid} ${EuiccProfileState.label(p.state, 'zh')} / ${EuiccProfileState.label(p.state, 'en')}`).join('; '),
        })),
      };
    },
    columns: [
      { key: 'eid', title: { zh: 'EID', en: 'EID' } },
      { key: 'custName', title: { zh: '客户', en: 'Customer' } },
      { key: 'profileCount', title: { zh: 'Profile 数', en: 'Profiles' }, type: 'number' },
      { key: 'profiles', title: { zh: 'Profile（ICCID 与状态）', en: 'Profiles (ICCID and state)' } },
      { key: 'createdAt', title: { zh: '导入时间', en: 'Imported' }, type: 'datetime' },
    ],
  });
}
