import type { FastifyInstance } from 'fastify';
import { diagnose } from '@lynx/contract';
import { bind } from '../../platform/http.ts';
import type { AppDeps } from '../../app.ts';
import { DiagnoseService } from './diagnose-service.ts';

/**
 * Card diagnosis (/shortcuts/diagnose/detail/:iccId?): intelligent (6050000) and advanced (6050001) diagnosis,
 * network reset (6050001) and the card's diagnosis records. Every call is scoped to the caller's tenant.
 * Changing the card's state from the diagnosis page (6050002) goes through carddata.changeCardStatus.
 */
export function diagnoseRoutes(app: FastifyInstance, deps: AppDeps) {
  const service = new DiagnoseService(deps);
  bind(app, deps, diagnose.diagnoseCard, (b, ctx) => service.diagnose(ctx, b.iccid, false));
  bind(app, deps, diagnose.diagnoseCardAdvanced, (b, ctx) => service.diagnose(ctx, b.iccid, true));
  bind(app, deps, diagnose.networkReset, (b, ctx) => service.networkReset(ctx, b.iccid));
  bind(app, deps, diagnose.getDiagnoseRecordPage, (b, ctx) => service.records(ctx, b));
  bind(app, deps, diagnose.getDiagnoseRecordDetail, (b, ctx) => service.record(ctx, b));
}
