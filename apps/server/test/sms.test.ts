import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CardState, ErrorCode, Operator, RoleType, batch, carddetail, sms } from '@lynx/contract';
import { backends, DEMO_PASSWORD, iccidsOf, insertCards, ownerOf, startTestApp, waitFor, type Owner, type TestApp } from './harness.ts';
import { postgresTemplate } from './seeded-image.ts';
import { createScratchDatabase } from '../src/db/scratch-database.ts';
import { simulatorSecretFor } from '../src/operators/simulator.ts';
import { simulateMo, simulatorSmsDelivered } from '../src/operators/simulator-sms.ts';
import { pollSmsReports } from '../src/modules/sms/reports.ts';
import { runMoFeed } from '../src/modules/sms/mo-feed.ts';
import { fitSmsPart, sendSmsToCards, sendSmsToPhones } from '../src/modules/sms/notify.ts';
import { AppError } from '../src/platform/errors.ts';

const { SmsStatus, SmsDirection, SmsSource } = sms;
const { BatchType, BatchState, BatchVerdict, BatchItemStatus } = batch;
const LIST = sms.getSmsListPage.name;
const DETAIL = sms.getSmsDetail.name;
const EXPORT = sms.exportSmsList.name;
const SEND = carddetail.sendCardSms.name;
const VALIDATE = batch.validateBatch.name;
const CONFIRM = batch.confirmBatch.name;
const BATCH_DETAIL = batch.getBatchDetail.name;
const ITEMS = batch.getBatchItemPage.name;
/** China Telecom cards whose ICCID starts with this are refused by the simulator (the access configuration's pattern) */
const REFUSED = '8986117700';

async function accessConfig(t: TestApp, admin: string, operatorId: number, appKey: string, extra: Record<string, unknown> = {}): Promise<number> {
  const saved = await t.call('network/operatorsAccount/save', {
    operatorId, accountName: `短信 ${appKey}`, endpointUrl: 'https://api.operator.example.com/openapi', apiVersion: 'v2',
    adapter: 'simulator', appKey, appSecret: simulatorSecretFor(appKey), password: 'Plain-Password-Sms-2026', ...extra,
  }, { token: admin });
  expect(saved.body.success, saved.body.msg).toBe(true);
  return saved.body.data.operAccountId;
}

describe.each(backends)('SMS centre on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let enterprise: string;
  let channel: string;
  let sub: string;
  let ent: Owner;
  let chan: Owner;
  let east: Owner;
  let ctAccount: number;
  let cuAccount: number;
  let n = 0;
  /** fresh cards with their own ICCID range */
  const fresh = async (count: number, o: { state?: number; owner?: Owner | null; operatorId?: number; prefix?: string } = {}) => {
    const ids = iccidsOf(o.prefix ?? '8986117100', n, count);
    n += count;
    return insertCards(t, ids, { state: o.state ?? CardState.Activated, owner: o.owner === undefined ? ent : o.owner, operatorId: o.operatorId ?? Operator.ChinaTelecom });
  };
  const rowsOf = (iccids: string[]) => t.database.sql.query<{ iccid: string; sms_id: string; status: number; source: number; batch_id: string | null; report_code: string | null; message_id: string | null; direction: number }>(
    'select iccid, sms_id, status, source, batch_id, report_code, message_id, direction from card_sms where iccid = any($1) order by iccid, created_at', [iccids]);

  /**
   * The delivery reports of these cards' messages: the simulator has each 1-5 s after its submission, so the submissions
   * are dated 6 s back and the report job's step runs once (no waiting; its schedule is not what these tests are about).
   */
  const reported = async (iccids: string[]) => {
    await t.database.sql.query(`update card_sms set submitted_at = submitted_at - interval '6 seconds' where iccid = any($1) and status = $2`,
      [iccids, SmsStatus.Submitted]);
    await pollSmsReports(t.deps);
    expect((await rowsOf(iccids)).filter((r) => Number(r.status) === SmsStatus.Submitted)).toEqual([]);
  };

  beforeAll(async () => {
    t = await startTestApp(backend);
    [admin, enterprise, channel, sub] = await Promise.all(['admin', 'enterprise', 'channel', 'subcustomer'].map((l) => t.login(l)));
    [ent, chan, east] = await Promise.all([ownerOf(t, 'enterprise'), ownerOf(t, 'channel'), ownerOf(t, 'subcustomer')]);
    ctAccount = await accessConfig(t, admin, Operator.ChinaTelecom, 'LYNXKEYSMS0000CT', { simFailIccidPattern: `${REFUSED}*` });
    // China Unicom: half of its cards' messages are refused or not delivered (the simulator's stable share)
    cuAccount = await accessConfig(t, admin, Operator.ChinaUnicom, 'LYNXKEYSMS0000CU');
    await t.database.sql.query('update operator_accounts set sim_failure_rate = 50 where oper_account_id = $1', [cuAccount]);
  });
  afterAll(() => t?.stop());

  it('sends to one card: submitted with the operator id, the delivery report makes it sent; list and detail show it', async () => {
    const [card] = await fresh(1);
    const sent = await t.call(SEND, { iccid: card, content: '请在 10 分钟内上报位置' }, { token: enterprise });
    expect(sent.body.success, sent.body.msg).toBe(true);
    expect(sent.body.data).toMatchObject({ iccid: card, status: SmsStatus.Submitted, direction: SmsDirection.ToDevice, createdBy: 'enterprise' });
    expect(sent.body.data.messageId).toMatch(/^SIM-/);
    // no report before the carrier has one (1-5 s after the submission)
    await pollSmsReports(t.deps);
    expect((await rowsOf([card]))[0].status).toBe(SmsStatus.Submitted);
    await reported([card]);
    const list = (await t.call(LIST, { iccid: card }, { token: enterprise })).body.data;
    expect(list).toMatchObject({ total: 1, totalCapped: false });
    expect(list.list[0]).toMatchObject({ status: SmsStatus.Sent, source: SmsSource.Console, reportCode: 'DELIVRD', encoding: sms.SmsEncoding.Ucs2 });
    expect(list.list[0].reportAt).not.toBeNull();
    const detail = (await t.call(DETAIL, { iccid: card, smsId: sent.body.data.smsId }, { token: enterprise })).body.data;
    expect(detail).toMatchObject({ status: SmsStatus.Sent, operAccountId: ctAccount, operAccountName: '短信 LYNXKEYSMS0000CT', reportCode: 'DELIVRD' });
    expect(Number((await t.database.sql.query<{ n: string }>(`select count(*) n from audit_log where entity = 'cardSms' and entity_id like $1`, [`${card}/%`]))[0].n)).toBe(1);
  });

  it('delivery reports: delivered or failed per card as the carrier reports; refused submissions stay "submission failed"', async () => {
    const cards = await fresh(40, { operatorId: Operator.ChinaUnicom, prefix: '8986017100' });
    const results = await sendSmsToCards(t.deps, cards, { content: 'CFG APN=iot.lynx', ref: 'test:reports', createdBy: 'autorule:test' });
    expect(results).toHaveLength(40);
    const refused = results.filter((r) => r.status === SmsStatus.SubmitFailed);
    const accepted = results.filter((r) => r.status === SmsStatus.Submitted);
    expect(refused.length).toBeGreaterThan(0);
    expect(accepted.length).toBeGreaterThan(0);
    expect(refused[0].error?.en).toMatch(/^The operator refused the SMS: OPERATOR_BUSY/);
    await reported(cards);
    const account = { operAccountId: cuAccount, simFailureRate: 50 };
    const rows = await rowsOf(cards);
    expect(rows).toHaveLength(40);
    for (const r of rows.filter((x) => Number(x.status) !== SmsStatus.SubmitFailed)) {
      const delivered = simulatorSmsDelivered(account, r.iccid);
      expect([Number(r.status), r.report_code]).toEqual(delivered ? [SmsStatus.Sent, 'DELIVRD'] : [SmsStatus.SendFailed, 'UNDELIV']);
    }
    expect(rows.filter((r) => Number(r.status) === SmsStatus.SendFailed).length).toBeGreaterThan(0);
    expect(rows.every((r) => Number(r.source) === SmsSource.Automation)).toBe(true);
    // the same notification again sends nothing twice
    const again = await sendSmsToCards(t.deps, cards, { content: 'CFG APN=iot.lynx', ref: 'test:reports' });
    expect(again.map((r) => r.smsId).sort()).toEqual(results.map((r) => r.smsId).sort());
    expect(await rowsOf(cards)).toHaveLength(40);
  });

  it('messages the devices send are fed in once, with their card and tenant, and listed as received', async () => {
    const cards = await fresh(30, { prefix: '8986117200' });
    const testCards = await fresh(10, { state: CardState.Test, prefix: '8986117200' });
    const now = new Date();
    // the first run starts the feed at its own time; then the feed is put a day back (four 6-hour windows, each read in
    // chunks of 7 cards: the feed's windows and chunks, at a third of the work 3 days took)
    await runMoFeed(t.deps, Operator.ChinaTelecom, now);
    const from = new Date(Math.floor((now.getTime() - 86_400_000) / 60_000) * 60_000);
    await t.database.sql.query('update sms_mo_feeds set watermark = $2, window_to = null, cursor_iccid = null where operator_id = $1', [Operator.ChinaTelecom, from]);
    const run = await runMoFeed(t.deps, Operator.ChinaTelecom, now, 7);
    expect(run).toMatchObject({ ran: true, error: null });
    const to = new Date((await t.database.sql.query<{ watermark: Date }>('select watermark from sms_mo_feeds where operator_id = $1', [Operator.ChinaTelecom]))[0].watermark);
    const expected = simulateMo(Operator.ChinaTelecom, {
      cards: [...cards, ...testCards].map((iccid) => ({ iccid, msisdn: `1064${iccid.slice(-9)}`, test: testCards.includes(iccid) })), from, to,
    });
    expect(expected.length).toBeGreaterThan(0);
    const stored = (await rowsOf([...cards, ...testCards])).filter((r) => Number(r.direction) === SmsDirection.FromDevice);
    expect(stored.map((r) => r.message_id).sort()).toEqual(expected.map((m) => m.messageId).sort());
    expect(stored.every((r) => Number(r.source) === SmsSource.Device)).toBe(true);
    // the same window again stores nothing twice
    await t.database.sql.query('update sms_mo_feeds set watermark = $2 where operator_id = $1', [Operator.ChinaTelecom, from]);
    await runMoFeed(t.deps, Operator.ChinaTelecom, now);
    expect((await rowsOf([...cards, ...testCards])).filter((r) => Number(r.direction) === SmsDirection.FromDevice)).toHaveLength(expected.length);
    const received = (await t.call(LIST, { iccid: '8986117200', direction: SmsDirection.FromDevice, pageSize: 500 }, { token: enterprise })).body.data;
    expect(received.total).toBe(expected.length);
    expect((await t.call(LIST, { iccid: '8986117200', direction: SmsDirection.FromDevice }, { token: channel })).body.data.total).toBe(0);
  });

  it('refuses too long or empty text with the rule in both languages, and cards that cannot receive SMS', async () => {
    const [card] = await fresh(1);
    const body = (content: string) => ({ params: { type: BatchType.Sms, content }, sourceKind: 'paste', iccids: [card] });
    const zh = (await t.call(VALIDATE, body('中'.repeat(71)), { token: enterprise, lang: 'zh' })).body;
    expect(zh).toMatchObject({ success: false, errorCode: ErrorCode.SmsContentTooLong });
    expect(zh.msg).toBe('短信内容过长：按UCS-2（中文等）计 71 个字符，最多 70 个（含中文等非 GSM 字符时最多 70 个，否则最多 160 个；€ [ ] { } ~ ^ | \\ 各按 2 个计）');
    const en = (await t.call(VALIDATE, body('€'.repeat(81)), { token: enterprise, lang: 'en' })).body;
    expect(en.msg).toBe('The message is too long: 162 characters in GSM 7-bit, at most 160 (70 with Chinese or other non-GSM characters, otherwise 160; € [ ] { } ~ ^ | \\ count as 2 each)');
    expect((await t.call(VALIDATE, body('€'.repeat(80)), { token: enterprise })).body.success).toBe(true);
    expect((await t.call(VALIDATE, body('中'.repeat(70)), { token: enterprise })).body.success).toBe(true);
    expect((await t.call(VALIDATE, body('   '), { token: enterprise, lang: 'en' })).body).toMatchObject({ errorCode: ErrorCode.SmsContentEmpty, msg: 'Enter the message text' });
    await expect(sendSmsToCards(t.deps, [card], { content: 'a'.repeat(161) })).rejects.toBeInstanceOf(AppError);
    // a card not on the network: refused on the detail and invalid in a batch, with its state
    const [inventory] = await fresh(1, { state: CardState.Inventory });
    expect((await t.call(SEND, { iccid: inventory, content: 'hi' }, { token: enterprise })).body.errorCode).toBe(ErrorCode.SmsCardNotReachable);
    const v = (await t.call(VALIDATE, { params: { type: BatchType.Sms, content: 'hi' }, sourceKind: 'paste', iccids: [inventory] }, { token: enterprise, lang: 'en' })).body.data;
    expect(v).toMatchObject({ validCount: 0, invalidCount: 1 });
    const items = (await t.call(ITEMS, { batchId: v.batchId, verdict: BatchVerdict.Invalid }, { token: enterprise, lang: 'en' })).body.data;
    expect(items.list[0].reason).toBe('SMS can only be sent to cards in test or activated state (this card is "Inventory")');
    // the spec's limit: 10,000 cards
    const many = iccidsOf('8986117999', 0, 10_001);
    const tooMany = (await t.call(VALIDATE, { params: { type: BatchType.Sms, content: 'hi' }, sourceKind: 'paste', iccids: many }, { token: enterprise, lang: 'en' })).body;
    expect(tooMany).toMatchObject({ errorCode: ErrorCode.BatchTooMany, msg: 'Selection too large (10001 cards): at most 10000 cards per batch, narrow the filters' });
    // phones: a malformed number is refused before anything is sent
    await expect(sendSmsToPhones(t.deps, ['1380013800'], { content: 'x' })).rejects.toMatchObject({ code: ErrorCode.SmsPhoneInvalid });
  });

  it('a batch of many with a failing item: every valid card gets one message, the refused one is reported', async () => {
    const good = await fresh(60);
    const [refused] = await insertCards(t, iccidsOf(REFUSED, 1, 1), { state: CardState.Activated, owner: ent, operatorId: Operator.ChinaTelecom });
    const [deactivated] = await fresh(1, { state: CardState.Deactivated });
    const all = [...good, refused, deactivated];
    const v = (await t.call(VALIDATE, { params: { type: BatchType.Sms, content: 'REBOOT' }, sourceKind: 'selection', iccids: all }, { token: enterprise })).body;
    expect(v.success, v.msg).toBe(true);
    expect(v.data).toMatchObject({ type: BatchType.Sms, validCount: 61, invalidCount: 1, params: { content: 'REBOOT' } });
    expect((await t.call(CONFIRM, { batchId: v.data.batchId }, { token: enterprise })).body.success).toBe(true);
    const d = await waitFor(async () => {
      const r = (await t.call(BATCH_DETAIL, { batchId: v.data.batchId }, { token: enterprise })).body.data;
      return r?.state === BatchState.Done ? r : null;
    }, 90_000);
    expect(d).toMatchObject({ succeededCount: 60, failedCount: 1, processedCount: 61 });
    const failed = (await t.call(ITEMS, { batchId: v.data.batchId, status: BatchItemStatus.Failed }, { token: enterprise, lang: 'en' })).body.data;
    expect(failed.list.map((i: { iccid: string }) => i.iccid)).toEqual([refused]);
    expect(failed.list[0].error).toMatch(/^The operator refused the SMS: CARD_REJECTED/);
    const rows = await rowsOf(all);
    // one message per card that was sent to (the refused submission is kept as "submission failed"), none for the invalid card
    expect(rows).toHaveLength(61);
    expect(new Set(rows.map((r) => r.iccid)).size).toBe(61);
    expect(rows.every((r) => r.batch_id === v.data.batchId && Number(r.source) === SmsSource.Batch)).toBe(true);
    expect(rows.find((r) => r.iccid === refused)?.status).toBe(SmsStatus.SubmitFailed);
    await reported(all);
    const byBatch = (await t.call(LIST, { batchId: v.data.batchId, status: SmsStatus.Sent, pageSize: 100 }, { token: enterprise })).body.data;
    expect(byBatch.total).toBe(60);
  });

  it('tenancy: a customer sees and exports only its own cards\' messages; the page code is needed', async () => {
    const [mine] = await fresh(1);
    const [theirs] = await fresh(1, { owner: chan, prefix: '8986117300' });
    const [eastCard] = await fresh(1, { owner: east, prefix: '8986117400' });
    const [m] = await sendSmsToCards(t.deps, [mine], { content: 'mine' });
    const [o] = await sendSmsToCards(t.deps, [theirs], { content: 'theirs' });
    const [e] = await sendSmsToCards(t.deps, [eastCard], { content: 'east' });
    const total = async (token: string, iccid: string) => (await t.call(LIST, { iccid }, { token })).body.data.total;
    expect(await total(enterprise, mine)).toBe(1);
    expect(await total(enterprise, theirs)).toBe(0);
    expect(await total(enterprise, eastCard)).toBe(1);
    expect(await total(channel, mine)).toBe(0);
    expect(await total(channel, theirs)).toBe(1);
    expect(await total(sub, eastCard)).toBe(1);
    expect(await total(sub, mine)).toBe(0);
    expect(await total(admin, theirs)).toBe(1);
    expect((await t.call(DETAIL, { iccid: theirs, smsId: o.smsId }, { token: enterprise })).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await t.call(DETAIL, { iccid: mine, smsId: m.smsId }, { token: sub })).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await t.call(DETAIL, { iccid: eastCard, smsId: e.smsId }, { token: sub })).body.success).toBe(true);
    // sending to another customer's card looks like a card that does not exist
    expect((await t.call(SEND, { iccid: theirs, content: 'hi' }, { token: enterprise })).body.errorCode).toBe(ErrorCode.NotFound);
    // the export replays the list for its owner: the enterprise's file has its own card's message and not the channel's
    const exp = (await t.call(EXPORT, { iccid: '898611', format: 2 }, { token: enterprise, lang: 'en' })).body;
    expect(exp.success, exp.msg).toBe(true);
    expect(exp.data.direct).toBe(true);
    const file = await t.app.inject({ method: 'GET', url: `/api/cmp/core/downloadTask/download?taskId=${exp.data.taskId}&ts=1&lang=en`, headers: { authorization: enterprise } });
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain(mine);
    expect(file.body).toContain('Direction');
    expect(file.body).not.toContain(theirs);
    // without the page code
    const role = await t.call('system/role/saveRole', { roleCode: 'NOSMS', roleName: '无短信', roleType: RoleType.Manager, permissions: [2000000, 2010000] }, { token: admin });
    expect(role.body.success).toBe(true);
    expect((await t.call('core/account/account/saveAccount', { loginName: 'nosms', userName: '无短信', roleId: role.body.data.roleId, password: 'NoSms#2026pass' }, { token: admin })).body.success).toBe(true);
    const viewer = await t.login('nosms', 'NoSms#2026pass');
    for (const [e2, b] of [[LIST, {}], [DETAIL, { iccid: mine, smsId: m.smsId }], [EXPORT, {}], [SEND, { iccid: mine, content: 'x' }]] as const) {
      expect((await t.call(e2, b, { token: viewer })).body.errorCode, e2).toBe(ErrorCode.PermissionDenied);
    }
    expect((await t.call(VALIDATE, { params: { type: BatchType.Sms, content: 'x' }, sourceKind: 'paste', iccids: [mine] }, { token: viewer })).body.errorCode).toBe(ErrorCode.PermissionDenied);
  });

  it('exports past the list\'s count cap by key: every message once, newest first, ties on the time split across pages', async () => {
    // 10,050 messages: more than the count cap (10,000), so the export is a download task; three share each second,
    // so ties on the time fall on the 500-row page boundaries
    const N = 10_050;
    await t.database.sql.query(
      `insert into card_sms (iccid, msisdn, direction, content, status, cust_id, root_cust_id, source, created_at)
       select '8986117600' || lpad(g::text, 10, '0'), '1064' || lpad(g::text, 9, '0'), 1, 'bulk ' || g, 3, $1, $2, 1,
         date_trunc('second', now()) - make_interval(secs => g / 3)
       from generate_series(1, $3::int) g`, [ent.cust_id, ent.root_cust_id, N]);
    const list = (await t.call(LIST, { iccid: '8986117600' }, { token: enterprise })).body.data;
    expect(list).toMatchObject({ total: 10_000, totalCapped: true });
    const exp = (await t.call(EXPORT, { iccid: '8986117600', format: 2 }, { token: enterprise, lang: 'en' })).body;
    expect(exp.success, exp.msg).toBe(true);
    expect(exp.data.direct).toBe(false);
    const task = await waitFor(async () => (await t.database.sql.query<{ state: number; row_count: number | null; error: string | null }>(
      'select state, row_count, error from download_tasks where task_id = $1 and state <> 1', [exp.data.taskId]))[0], 120_000);
    expect(task.error).toBeNull();
    expect(Number(task.row_count)).toBe(N);
    const file = await t.app.inject({ method: 'GET', url: `/api/cmp/core/downloadTask/download?taskId=${exp.data.taskId}&ts=1&lang=en`, headers: { authorization: enterprise } });
    expect(file.statusCode).toBe(200);
    const iccids = file.body.split(/\r?\n/).slice(1).filter(Boolean).map((l) => /8986117600\d{10}/.exec(l)?.[0]);
    const expected = await t.database.sql.query<{ iccid: string }>(
      `select iccid from card_sms where iccid like '8986117600%' order by created_at desc, sms_id desc`);
    expect(iccids).toHaveLength(N);
    expect(iccids).toEqual(expected.map((r) => r.iccid));
  });

  it('phones through the system channel: delivered, unreachable, each recorded once per reference', async () => {
    const r = await sendSmsToPhones(t.deps, ['13800138000', '13900000000'], { content: '告警：卡流量超过 80%', ref: 'rule:1:phones' });
    expect(r.map((x) => x.status)).toEqual([SmsStatus.Sent, SmsStatus.SendFailed]);
    const again = await sendSmsToPhones(t.deps, ['13800138000', '13900000000'], { content: '告警：卡流量超过 80%', ref: 'rule:1:phones' });
    expect(again.map((x) => x.smsId)).toEqual(r.map((x) => x.smsId));
    expect(Number((await t.database.sql.query<{ n: string }>(`select count(*) n from sms_phone_messages where ref = 'rule:1:phones'`))[0].n)).toBe(2);
    // a sentence longer than one part is cut to fit, marked
    expect(fitSmsPart('中'.repeat(100))).toBe(`${'中'.repeat(69)}…`);
    expect(fitSmsPart('a'.repeat(200))).toBe(`${'a'.repeat(157)}...`);
    expect(fitSmsPart('short')).toBe('short');
  });
});

describe.each(backends)('a batch SMS interrupted by a restart on %s', (backend) => {
  it('goes on after the restart: every card gets exactly one message', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-sms-'));
    // the first start from the migrated and seeded image (PGlite: loaded into the new data directory; PostgreSQL: a copy
    // of the template), so the test pays for the restart only, not for a first start's migrations and seed
    const url = process.env.TEST_DATABASE_URL!;
    const pg = backend === 'postgres' ? await createScratchDatabase(url, 'lynx_t', await postgresTemplate(url, DEMO_PASSWORD)) : null;
    const open = () => startTestApp(backend, {}, { dataDir, databaseUrl: pg?.url, fromImage: true });
    let t = await open();
    try {
      const admin = await t.login('admin');
      await accessConfig(t, admin, Operator.ChinaTelecom, 'LYNXKEYSMS0RESTA');
      const token = await t.login('enterprise');
      const ent = await ownerOf(t, 'enterprise');
      const N = backend === 'postgres' ? 2000 : 600;
      const cards = await insertCards(t, iccidsOf('8986117500', 0, N), { state: CardState.Activated, owner: ent, operatorId: Operator.ChinaTelecom });
      const v = await t.call(VALIDATE, { params: { type: BatchType.Sms, content: 'FW UPDATE 2.4.1' }, sourceKind: 'selection', iccids: cards }, { token });
      expect(v.body.data.validCount).toBe(N);
      const batchId = v.body.data.batchId;
      await t.call(CONFIRM, { batchId }, { token });
      const processed = async () => Number((await t.database.sql.query<{ n: string }>('select count(*) n from card_batch_items where batch_id = $1 and status <> $2', [batchId, BatchItemStatus.Pending]))[0].n);
      await waitFor(async () => (await processed()) > 0, 60_000, 20);
      await t.stop();
      t = await open();
      const before = await processed();
      expect(before).toBeGreaterThan(0);
      expect(before).toBeLessThan(N);
      const again = await t.login('enterprise');
      const d = await waitFor(async () => {
        const r = (await t.call(BATCH_DETAIL, { batchId }, { token: again })).body.data;
        return r?.state === BatchState.Done ? r : null;
      }, 180_000);
      expect(d).toMatchObject({ succeededCount: N, failedCount: 0, processedCount: N });
      const counts = await t.database.sql.query<{ iccid: string; n: string }>(
        'select iccid, count(*) n from card_sms where iccid = any($1) group by iccid having count(*) <> 1', [cards]);
      expect(counts).toHaveLength(0);
      const [{ n, ids }] = await t.database.sql.query<{ n: string; ids: string }>(
        'select count(*) n, count(distinct message_id) ids from card_sms where iccid = any($1) and batch_id = $2', [cards, batchId]);
      expect([Number(n), Number(ids)]).toEqual([N, N]);
    } finally {
      await t.stop();
      await pg?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
