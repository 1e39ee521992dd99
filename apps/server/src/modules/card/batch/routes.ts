import type { FastifyInstance } from 'fastify';
import { batch } from '@lynx/contract';
import { bind } from '../../../platform/http.ts';
import type { AppDeps } from '../../../app.ts';
import type { SessionContext } from '../../../platform/context.ts';
import { BatchService } from './service.ts';
import { BatchRunner } from './runner.ts';

const { BatchVerdict, BatchItemStatus } = batch;

/**
 * Batch operations on cards (the four batch screens). Every call needs one of the batch page codes; the
 * service then checks the code of the batch's type and the caller's tenant on the batch and on every card.
 */
export function batchRoutes(app: FastifyInstance, deps: AppDeps) {
  const runner = new BatchRunner(deps, app.log);
  // a job that cannot be queued now (queue not started, database hiccup) is queued by the sweep within a minute or two
  const service = new BatchService(deps.db, (batchId) =>
    runner.enqueue(batchId).catch((err) => app.log.error({ err, batchId }, 'batch job not queued; the sweep will queue it')));
  // on shutdown the job stops between chunks and is retried by the next process (nothing is lost or repeated)
  app.addHook('onClose', async () => runner.stop());

  bind(app, deps, batch.validateBatch, (b, ctx) => service.validate(b, ctx));
  bind(app, deps, batch.validateBatchFile, (_b, ctx, req) => service.validateFile(req, ctx));
  bind(app, deps, batch.downloadBatchTemplate, (b, ctx, _req, reply) => service.template(b, ctx, reply));
  bind(app, deps, batch.confirmBatch, (b, ctx) => service.confirm(b.batchId, ctx));
  bind(app, deps, batch.cancelBatch, (b, ctx) => service.cancel(b.batchId, ctx));
  bind(app, deps, batch.getBatchPage, (b, ctx) => service.page(b, ctx.actor));
  bind(app, deps, batch.getBatchDetail, (b, ctx) => service.detail(b.batchId, ctx.actor));
  bind(app, deps, batch.getBatchShutDownFee, (b, ctx) => service.shutDownFee(b.batchId, ctx.actor));
  bind(app, deps, batch.getBatchItemPage, (b, ctx) => service.itemPage(b, ctx.actor, ctx.lang));
  bind(app, deps, batch.exportBatchItems, async (b, rawCtx) => {
    const ctx = rawCtx as SessionContext;
    const { format, ...filters } = b;
    // the batch must be visible before a task is created for it
    await service.detail(filters.batchId, ctx.actor);
    return deps.exports.create({ source: batch.getBatchItemPage.name, filters, format }, ctx);
  });

  deps.exports.register(batch.getBatchItemPage, {
    title: { zh: '批量操作逐卡结果', en: 'Batch per-card results' },
    filters: {
      verdict: { title: { zh: '校验结果', en: 'Validation' }, enum: batch.BatchVerdict },
      status: { title: { zh: '执行结果', en: 'Result' }, enum: batch.BatchItemStatus },
    },
    // the same tenant and type rule as the screen (checked again when the job runs)
    page: (f, actor) => service.itemPage(f, actor, 'both'),
    columns: [
      { key: 'seq', title: { zh: '序号', en: 'No.' }, type: 'number' },
      { key: 'iccid', title: { zh: 'ICCID', en: 'ICCID' } },
      { key: 'verdict', title: { zh: '校验结论', en: 'Verdict' }, enum: BatchVerdict },
      { key: 'reason', title: { zh: '原因', en: 'Reason' } },
      { key: 'status', title: { zh: '执行结果', en: 'Result' }, enum: BatchItemStatus },
      { key: 'error', title: { zh: '失败原因', en: 'Failure' } },
      { key: 'doneAt', title: { zh: '完成时间', en: 'Done at' }, type: 'datetime' },
    ],
  });
}
