import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CardActionKind, CardChangeSource, CardChangeType, CardState, ErrorCode, Operator, Perm, RoleType } from '@lynx/contract';
import { accessConfigThatNoLongerOpens, backends, ownerOf, startTestApp, type TestApp } from './harness.ts';
import { NOT_SENT_NOTE } from '../src/modules/card/lifecycle/card-service.ts';
import { simulatorSecretFor } from '../src/operators/simulator.ts';

const CHANGE = 'core/sim/singleCard/changeStatus';
const APP_KEY = 'LYNXKEY7731CARDS';

describe.each(backends)('card state changes on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let enterprise: string;
  let channel: string;
  let ent: { cust_id: number; root_cust_id: number };
  let chan: { cust_id: number; root_cust_id: number };
  let seq = 0;

  beforeAll(async () => {
    t = await startTestApp(backend);
    admin = await t.login('admin');
    enterprise = await t.login('enterprise');
    channel = await t.login('channel');
    ent = await ownerOf(t, 'enterprise');
    chan = await ownerOf(t, 'channel');
  });
  afterAll(() => t?.stop());

  /** A card straight in the table (the import path has its own tests). */
  const card = async (o: { state?: number; operatorId?: number; owner?: { cust_id: number; root_cust_id: number } | null; prefix?: string } = {}) => {
    seq++;
    const iccid = `${o.prefix ?? '8986047700'}${String(seq).padStart(10, '0')}`;
    await t.database.sql.query(
      'insert into cards (iccid, msisdn, imsi, state, operator_id, cust_id, root_cust_id) values ($1, $2, $3, $4, $5, $6, $7)',
      [iccid, `10647${String(seq).padStart(8, '0')}`, `4600477${String(seq).padStart(8, '0')}`, o.state ?? CardState.Inventory,
        o.operatorId ?? Operator.ChinaUnicom, o.owner === null ? null : (o.owner ?? ent).cust_id, o.owner === null ? null : (o.owner ?? ent).root_cust_id],
    );
    return iccid;
  };
  const stateOf = async (iccid: string) => Number((await t.database.sql.query<{ state: number }>('select state from cards where iccid = $1', [iccid]))[0].state);
  const historyOf = (iccid: string) =>
    t.database.sql.query<{ from_state: number; to_state: number; action: number; source: number; actor: string; reason: string | null; note_zh: string | null; note_en: string | null }>(
      'select from_state, to_state, action, source, actor, reason, note_zh, note_en from card_history where iccid = $1', [iccid]);
  const auditsOf = async (iccid: string) =>
    Number((await t.database.sql.query<{ n: string }>(`select count(*) n from audit_log where entity = 'card' and entity_id = $1`, [iccid]))[0].n);
  const failuresOf = async (iccid: string) =>
    Number((await t.database.sql.query<{ n: string }>('select count(*) n from card_change_failures where iccid = $1', [iccid]))[0].n);

  it('a legal change updates the state and writes one history row and one audit row', async () => {
    const iccid = await card({ state: CardState.Inventory });
    const r = await t.call(CHANGE, { iccid, action: 'activate', reason: '客户要求开通' }, { token: enterprise });
    expect(r.body.success).toBe(true);
    expect(r.body.data).toMatchObject({ iccid, fromState: CardState.Inventory, toState: CardState.Activated, sentToOperator: false, requestId: null });
    expect(await stateOf(iccid)).toBe(CardState.Activated);
    const rows = (await t.database.sql.query<{ activated_at: Date | null }>('select activated_at from cards where iccid = $1', [iccid]))[0];
    expect(rows.activated_at).not.toBeNull();
    const h = await historyOf(iccid);
    expect(h).toHaveLength(1);
    expect(h[0]).toMatchObject({
      from_state: CardState.Inventory, to_state: CardState.Activated, action: CardActionKind.Activate, source: CardChangeSource.User, actor: 'enterprise',
    });
    // no access configuration for the operator: nothing was sent, and the history says so
    expect(h[0]).toMatchObject({ reason: '客户要求开通', note_zh: NOT_SENT_NOTE.zh, note_en: NOT_SENT_NOTE.en });
    expect(await auditsOf(iccid)).toBe(1);
  });

  it('an illegal change answers the engine error in both languages and changes nothing', async () => {
    const iccid = await card({ state: CardState.Retired });
    const zh = await t.call(CHANGE, { iccid, action: 'activate' }, { token: admin, lang: 'zh' });
    expect(zh.body.success).toBe(false);
    expect(zh.body).toMatchObject({ errorCode: ErrorCode.CardIllegalTransition, msg: '不允许从“已销户”变更为“已激活”' });
    const en = await t.call(CHANGE, { iccid, action: 'activate' }, { token: admin, lang: 'en' });
    expect(en.body).toMatchObject({ errorCode: ErrorCode.CardIllegalTransition, msg: 'Illegal transition from "Retired" to "Activated"' });
    const active = await card({ state: CardState.Activated });
    const again = await t.call(CHANGE, { iccid: active, action: 'activate' }, { token: admin, lang: 'en' });
    expect(again.body).toMatchObject({ errorCode: ErrorCode.CardAlreadyInState, msg: 'The card is already in state "Activated"' });
    for (const [i, s] of [[iccid, CardState.Retired], [active, CardState.Activated]] as const) {
      expect(await stateOf(i)).toBe(s);
      expect(await historyOf(i)).toHaveLength(0);
      expect(await auditsOf(i)).toBe(0);
    }
  });

  it('a forced shutdown is lifted back to the state the card had', async () => {
    const iccid = await card({ state: CardState.Deactivated });
    expect((await t.call(CHANGE, { iccid, action: 'freeze' }, { token: admin })).body.data.toState).toBe(CardState.Frozen);
    const back = await t.call(CHANGE, { iccid, action: 'unfreeze' }, { token: admin });
    expect(back.body.data).toMatchObject({ fromState: CardState.Frozen, toState: CardState.Deactivated });
    expect(await historyOf(iccid)).toHaveLength(2);
  });

  it("a customer cannot change another tenant's card nor a stock card: 20005 like a missing card", async () => {
    const foreign = await card({ state: CardState.Inventory, owner: chan });
    const stock = await card({ state: CardState.Inventory, owner: null });
    for (const iccid of [foreign, stock, '89860477009999999999']) {
      const r = await t.call(CHANGE, { iccid, action: 'activate' }, { token: enterprise, lang: 'en' });
      expect(r.body).toMatchObject({ success: false, errorCode: ErrorCode.NotFound, msg: 'Record not found' });
    }
    expect(await stateOf(foreign)).toBe(CardState.Inventory);
    expect(await stateOf(stock)).toBe(CardState.Inventory);
    // the owner of the tree and operator staff can
    expect((await t.call(CHANGE, { iccid: foreign, action: 'activate' }, { token: channel })).body.success).toBe(true);
    expect((await t.call(CHANGE, { iccid: stock, action: 'activate' }, { token: admin })).body.success).toBe(true);
  });

  it('a role without the change status button gets 20002', async () => {
    const role = await t.call('system/role/saveRole', { roleCode: 'CARDVIEW', roleName: '卡查看', roleType: RoleType.Manager, permissions: [Perm.CardList] }, { token: admin });
    expect(role.body.success).toBe(true);
    const acc = await t.call('core/account/account/saveAccount', { loginName: 'cardviewer', userName: '查看', roleId: role.body.data.roleId, password: 'View#2026pass' }, { token: admin });
    expect(acc.body.success).toBe(true);
    const viewer = await t.login('cardviewer', 'View#2026pass');
    const iccid = await card({ state: CardState.Inventory });
    const r = await t.call(CHANGE, { iccid, action: 'activate' }, { token: viewer });
    expect(r.body.errorCode).toBe(ErrorCode.PermissionDenied);
    expect(await stateOf(iccid)).toBe(CardState.Inventory);
  });

  it('rejects a bad body: unknown action, reason over 200 characters', async () => {
    const iccid = await card();
    expect((await t.call(CHANGE, { iccid, action: 'explode' }, { token: admin })).body.success).toBe(false);
    expect((await t.call(CHANGE, { iccid, action: 'activate', reason: 'x'.repeat(201) }, { token: admin })).body.success).toBe(false);
    expect(await stateOf(iccid)).toBe(CardState.Inventory);
  });

  it("goes through the operator's access configuration; a refusal keeps the state and records a card change failure", async () => {
    const saved = await t.call('network/operatorsAccount/save', {
      operatorId: Operator.ChinaMobile, accountName: '状态演练', endpointUrl: 'https://api.onelink.example.com/openapi', apiVersion: 'v2',
      adapter: 'simulator', appKey: APP_KEY, appSecret: simulatorSecretFor(APP_KEY), password: 'Plain-Password-Card-2026', simFailIccidPattern: '8986046600*',
    }, { token: admin });
    expect(saved.body.success).toBe(true);

    const fine = await card({ state: CardState.Inventory, operatorId: Operator.ChinaMobile });
    const ok = await t.call(CHANGE, { iccid: fine, action: 'activate' }, { token: admin });
    expect(ok.body.data).toMatchObject({ toState: CardState.Activated, sentToOperator: true });
    expect(ok.body.data.requestId).toMatch(/^SIM-/);
    expect((await historyOf(fine))[0].reason).toBeNull();

    const failing = await card({ state: CardState.Activated, operatorId: Operator.ChinaMobile, prefix: '8986046600' });
    const refused = await t.call(CHANGE, { iccid: failing, action: 'deactivate', reason: '欠费' }, { token: admin, lang: 'en' });
    expect(refused.body.success).toBe(false);
    expect(refused.body.errorCode).toBe(ErrorCode.CardGatewayRefused);
    expect(refused.body.msg).toMatch(/operator refused/);
    expect(await stateOf(failing)).toBe(CardState.Activated);
    expect(await historyOf(failing)).toHaveLength(0);
    expect(await failuresOf(failing)).toBe(1);
    const [f] = await t.database.sql.query<{ change_type: number; request: { targetState: number }; cust_id: number }>(
      'select change_type, request, cust_id from card_change_failures where iccid = $1', [failing]);
    expect(f).toMatchObject({ change_type: CardChangeType.CardState, request: { targetState: CardState.Deactivated }, cust_id: ent.cust_id });
    // the failure record is in the audit trail, the card is not
    expect(await auditsOf(failing)).toBe(0);
  });

  it('credentials that no longer open (the key changed) refuse a user\'s change with the re-enter message and change nothing', async () => {
    await accessConfigThatNoLongerOpens(t, admin, Operator.ChinaTelecom);

    const iccid = await card({ state: CardState.Inventory, operatorId: Operator.ChinaTelecom });
    const en = await t.call(CHANGE, { iccid, action: 'activate' }, { token: admin, lang: 'en' });
    expect(en.body).toMatchObject({ success: false, errorCode: ErrorCode.SecretUndecryptable, msg: expect.stringMatching(/enter them again/) });
    const zh = await t.call(CHANGE, { iccid, action: 'activate' }, { token: admin, lang: 'zh' });
    expect(zh.body.msg).toMatch(/重新填写凭据/);
    expect(await stateOf(iccid)).toBe(CardState.Inventory);
    expect(await historyOf(iccid)).toHaveLength(0);
  });
});
