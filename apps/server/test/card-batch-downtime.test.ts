import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CardState, ErrorCode, Operator, batch } from '@lynx/contract';
import { backends, iccidsOf, insertCards, ownerOf, startTestApp, waitFor, type Owner, type TestApp, type TestCards } from './harness.ts';

const { BatchType, BatchState, BatchItemStatus } = batch;
const VALIDATE = 'core/sim/batchOperate/validate';
const CONFIRM = 'core/sim/batchOperate/process';
const DETAIL = 'core/sim/batchOperate/getBatchDetail';
const FEE = 'core/sim/batchOperate/shutDownFee';

describe('deactivation batches (pure)', () => {
  it('are status changes and standard-card operations with the deactivate action, nothing else', () => {
    expect(batch.isDeactivation({ type: BatchType.StatusChange, params: { action: 'deactivate' } })).toBe(true);
    expect(batch.isDeactivation({ type: BatchType.StandardCard, params: { action: 'deactivate' } })).toBe(true);
    // a forced shutdown is the platform's act: no downtime fee (docs/decisions.md)
    expect(batch.isDeactivation({ type: BatchType.StatusChange, params: { action: 'freeze' } })).toBe(false);
    expect(batch.isDeactivation({ type: BatchType.PlanChange, params: { action: 'deactivate' } })).toBe(false);
    expect(batch.isDeactivation({ type: BatchType.DataRecovery, params: {} })).toBe(false);
  });
});

describe.each(backends)('downtime fee of a batch on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let enterprise: string;
  let channel: string;
  let ent: Owner;
  let chan: Owner;
  let next = 0;
  let planName: string;
  const fresh = async (n: number, o: Omit<TestCards, 'operatorId'>) => {
    const ids = await insertCards(t, iccidsOf('8986093', next, n), { ...o, operatorId: Operator.ChinaTelecom });
    next += n;
    return ids;
  };
  const validate = async (params: Record<string, unknown>, iccids: string[], token = enterprise) => {
    const r = await t.call(VALIDATE, { params, sourceKind: 'paste', iccids }, { token });
    expect(r.body.success).toBe(true);
    return r.body.data as { batchId: string; validCount: number; invalidCount: number; alreadyCount: number };
  };

  beforeAll(async () => {
    t = await startTestApp(backend);
    admin = await t.login('admin');
    enterprise = await t.login('enterprise');
    channel = await t.login('channel');
    ent = await ownerOf(t, 'enterprise');
    chan = await ownerOf(t, 'channel');
    // plan 1 charges 1.10 a month after 2 free months (a float would say 3.3000000000000003 for 3 cards); plan 2 is free
    await t.database.sql.query('update basic_plans set downtime_fee = 1.10, downtime_free_months = 2 where goods_release_id = 1');
    await t.database.sql.query('update basic_plans set downtime_fee = 0, downtime_free_months = 0 where goods_release_id = 2');
    planName = (await t.database.sql.query<{ name: string }>('select name from basic_plans where goods_release_id = 1'))[0].name;
  });
  afterAll(() => t?.stop());

  it('sums the valid cards per plan in exact money, the paying plan first, free plans and cards without a plan at 0.00', async () => {
    const paying = await fresh(3, { state: CardState.Activated, owner: ent, plan: 1 });
    const free = await fresh(2, { state: CardState.Activated, owner: ent, plan: 2 });
    const planless = await fresh(1, { state: CardState.Activated, owner: ent, plan: null });
    // not counted: invalid (retired, another customer's card, not a card) and already deactivated
    const retired = await fresh(2, { state: CardState.Retired, owner: ent, plan: 1 });
    const already = await fresh(1, { state: CardState.Deactivated, owner: ent, plan: 1 });
    const foreign = await fresh(1, { state: CardState.Activated, owner: chan, plan: 1 });
    const b = await validate({ type: BatchType.StatusChange, action: 'deactivate' },
      [...paying, ...free, ...planless, ...retired, ...already, ...foreign, '89860939999999999999']);
    expect(b).toMatchObject({ validCount: 6, invalidCount: 4, alreadyCount: 1 });

    const r = await t.call(FEE, { batchId: b.batchId }, { token: enterprise });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      applies: true,
      list: [
        { goodsReleaseId: 1, planName, cards: 3, downtimeFee: '1.10', freeMonths: 2, monthlyTotal: '3.30' },
        { goodsReleaseId: 2, planName: expect.any(String), cards: 2, downtimeFee: '0.00', freeMonths: 0, monthlyTotal: '0.00' },
        { goodsReleaseId: null, planName: null, cards: 1, downtimeFee: '0.00', freeMonths: 0, monthlyTotal: '0.00' },
      ],
      cards: 6,
      monthlyTotal: '3.30',
    });
    // staff see it too; the channel customer gets what a missing batch gets, as for the batch's detail
    expect((await t.call(FEE, { batchId: b.batchId }, { token: admin })).body.data).toEqual(r.body.data);
    for (const path of [DETAIL, FEE]) {
      expect((await t.call(path, { batchId: b.batchId }, { token: channel })).body).toMatchObject({ success: false, errorCode: ErrorCode.NotFound });
    }
    expect((await t.call(FEE, { batchId: '00000000-0000-4000-8000-000000000000' }, { token: enterprise })).body.errorCode).toBe(ErrorCode.NotFound);
    // without a batch code at all the endpoint refuses
    expect((await t.call(FEE, { batchId: b.batchId }, { token: await t.login('subcustomer') })).body.errorCode).toBe(ErrorCode.PermissionDenied);
  });

  it('after the run leaves out the cards whose deactivation failed (they stayed up)', async () => {
    const cards = await fresh(4, { state: CardState.Activated, owner: ent, plan: 1 });
    const b = await validate({ type: BatchType.StandardCard, action: 'deactivate' }, cards);
    expect(b.validCount).toBe(4);
    // one card is retired by someone else before the batch is confirmed: its change fails
    await t.database.sql.query('update cards set state = $2 where iccid = $1', [cards[3], CardState.Retired]);
    expect((await t.call(FEE, { batchId: b.batchId }, { token: enterprise })).body.data).toMatchObject({ cards: 4, monthlyTotal: '4.40' });
    await t.call(CONFIRM, { batchId: b.batchId }, { token: enterprise });
    await waitFor(async () => {
      const d = (await t.call(DETAIL, { batchId: b.batchId }, { token: enterprise })).body.data;
      return d?.state === BatchState.Done ? d : null;
    }, 60_000);
    const failed = await t.database.sql.query<{ n: string }>('select count(*) n from card_batch_items where batch_id = $1 and status = $2', [b.batchId, BatchItemStatus.Failed]);
    expect(Number(failed[0].n)).toBe(1);
    expect((await t.call(FEE, { batchId: b.batchId }, { token: enterprise })).body.data).toEqual({
      applies: true, list: [{ goodsReleaseId: 1, planName, cards: 3, downtimeFee: '1.10', freeMonths: 2, monthlyTotal: '3.30' }], cards: 3, monthlyTotal: '3.30',
    });
  });

  it('answers an empty list for a batch that does not deactivate (activation, forced shutdown, data recovery)', async () => {
    const cards = await fresh(2, { state: CardState.Activated, owner: ent, plan: 1 });
    const inventory = await fresh(1, { state: CardState.Inventory, owner: ent, plan: 1 });
    const batches = [
      await validate({ type: BatchType.StatusChange, action: 'activate' }, inventory),
      await validate({ type: BatchType.StatusChange, action: 'freeze' }, cards),
      await validate({ type: BatchType.DataRecovery }, cards),
    ];
    for (const b of batches) {
      expect(b.validCount).toBeGreaterThan(0);
      expect((await t.call(FEE, { batchId: b.batchId }, { token: enterprise })).body.data).toEqual({ applies: false, list: [], cards: 0, monthlyTotal: '0.00' });
    }
  });
});
