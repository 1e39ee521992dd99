import { describe, it, expect, beforeAll, afterAll, inject } from 'vitest';
import type { Browser } from 'playwright-core';
import { AutoRuleAction, AutoRuleChannel, AutoRuleDeliveryState, AutoRuleType, CardState, WebhookDeliveryState, WebhookEventType } from '@lynx/contract';
import { POLL, api, apiLogin, dialog, expectText, launch, login, newPage, row, shot, visible } from './support.ts';
import type { Received } from './receivers.ts';

/**
 * Issue 15, a usage rule from the crossing to what its notifications did (docs/automation.md, docs/webhooks.md,
 * docs/operator-gateway.md "Generated traffic"): a customer's "data usage >= N %" rule with an e-mail and a webhook; operator
 * staff make one of the customer's cards use data on the network simulator (card detail › Generate usage), so the next
 * usage feed window carries it over N %; the check after that window records it. The webhook goes to a receiver that
 * answers 503 and ends in the dead letter; the e-mail arrives at the SMTP server. The customer sees the card in the
 * trigger record and the attempts (time, HTTP status, latency, error), replays after the receiver is fixed and watches
 * it arrive (en); the same screens in Chinese. The receiver and the SMTP server are global-setup's (receivers.ts); setup
 * goes through the API, the browser is what the users do.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const NAME = 'E2E webhook delivery';
const receivers = () => inject('receivers');
const received = async (): Promise<Received> => (await fetch(`${receivers()}/_received`)).json() as Promise<Received>;
const answer = (status: number) => fetch(`${receivers()}/_answer`, { method: 'POST', body: JSON.stringify({ status }) });

/** The text part of a raw message (nodemailer writes UTF-8 text as quoted-printable or base64). */
function mailText(raw: string): string {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  if (/content-transfer-encoding:\s*base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => `%${h}`);
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
  }
  return body;
}

type Records = { list: { channel: number; state: number; webhook: { deliveryId: number; state: number } | null }[] };

describe('rule notifications', () => {
  it('a usage rule fires when staff drive a card over it on the simulator; its dead-lettered webhook is shown with its attempts and replayed once fixed; the e-mail arrives', { timeout: 480_000 }, async () => {
    const token = await apiLogin('enterprise');
    for (const r of (await api<{ list: { ruleId: number }[] }>('core/alarm/rule/getRuleListPage', { name: NAME }, token)).data.list) {
      await api('core/alarm/rule/deleteRule', { ruleId: r.ruleId }, token);
    }
    const before = (await api<{ callbackUrl: string | null; eventTypes: number[] }>('openapi/subscribe/query', {}, token)).data;
    const mailbox = `ops-${Date.now()}@example.com`;
    let ruleId = 0;
    let iccid = '';
    try {
      await answer(503);
      const sub = await api('openapi/subscribe/save', { callbackUrl: `${receivers()}/hook`, eventTypes: [WebhookEventType.AutomationAlarm] }, token);
      expect(sub.success, sub.msg).toBe(true);
      // the plan of the customer's most used card (in the rule's reach: the customer's whole tree) and a threshold above
      // every card of it now, so the first check records nothing and only the card driven over it is recorded
      type Listed = { iccid: string; custId: number | null; goodsReleaseId: number | null; poolId: number | null; cycleUsedKb: number; cycleQuotaKb: number | null; cycleUsedPercent: number | null };
      const listed = (body: object) => api<{ list: Listed[] }>('core/sim/simQuery/getSimListPage', {
        states: [CardState.Activated], sortField: 'cycleUsedPercent', sortOrder: 'descend', pageSize: 50, ...body,
      }, token);
      // a card of the customer itself: the rule's webhook goes to the customer that owns the rule, here also the card's
      // (docs/webhooks.md "Producers"), and only the customer itself subscribed here
      const custId = (await api<{ custId: number }>('base/oauth/user/login', { loginName: 'enterprise', password: 'Demo@2026pass' })).data.custId;
      const top = (await listed({ custId })).data.list.find((c) => c.cycleQuotaKb && c.poolId == null && c.goodsReleaseId != null && (c.cycleUsedPercent ?? 0) < 900)!;
      expect(top, 'an activated card with a quota').toBeDefined();
      const planId = top.goodsReleaseId!;
      // the server has just started: its usage feed first catches up with the demo's month (a plan is one operator's)
      await expect.poll(async () => {
        const fed = (await api<{ fedUntil: string | null }>('core/sim/simDetails/getUsage', { iccid: top.iccid }, token)).data.fedUntil;
        return fed != null && Date.now() - Date.parse(fed) < 3 * 60_000;
      }, { timeout: 240_000, interval: 2_000 }).toBe(true);
      const onPlan = (await listed({ goodsReleaseId: planId })).data.list;
      const threshold = Math.floor(Math.max(...onPlan.map((c) => c.cycleUsedPercent ?? 0))) + 2;
      const card = onPlan.find((c) => c.custId === custId && c.poolId == null && c.cycleQuotaKb)!;
      iccid = card.iccid;
      // enough for one point over the threshold: the generated session's bytes grow over a minute
      const needMb = Math.ceil(((threshold + 1) / 100 * card.cycleQuotaKb! - card.cycleUsedKb) / 1024);
      const rule = await api<{ ruleId: number }>('core/alarm/rule/saveRule', {
        name: NAME, ruleType: AutoRuleType.DataUsage, threshold, scopePlanId: planId, level: 2, action: AutoRuleAction.NotifyOnly,
        channels: [AutoRuleChannel.Email, AutoRuleChannel.Webhook], emails: mailbox,
      }, token);
      expect(rule.success, rule.msg).toBe(true);
      ruleId = rule.data.ruleId;
      expect((await api('core/alarm/rule/publishRule', { ruleId }, token)).success).toBe(true);

      // operator staff drive the card over the threshold on the network simulator (en), then look at the dialog in Chinese
      const staff = await newPage(browser, 'en');
      await login(staff, 'admin');
      await staff.goto(`/card/card-list/detail/${iccid}`);
      await visible(staff).getByTestId('action-simulateUsage').click();
      const generate = dialog(staff);
      await expectText(generate, 'Generate usage on the network simulator');
      await generate.getByRole('spinbutton').fill(String(needMb));
      await shot(staff, 'simulate-usage-en');
      await generate.getByRole('button', { name: 'Generate usage' }).click();
      await expectText(staff.locator('.ant-modal-confirm'), `Make card ${iccid} use ${needMb} MB now?`);
      await staff.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
      await expectText(staff.locator('.ant-message'), 'Operation success');
      await staff.getByTestId('lang-toggle').click();
      await visible(staff).getByTestId('action-simulateUsage').click();
      await expectText(dialog(staff), '在网络模拟器上生成流量');
      await shot(staff, 'simulate-usage-zh');
      await staff.context().close();

      // the check after the feed window that carried the usage records the card, with the % it had reached
      let alarmId = 0;
      let value = '';
      await expect.poll(async () => {
        for (const a of (await api<{ list: { alarmId: number }[] }>('core/alarm/alarm/getAlarmListPage', { ruleId }, token)).data.list) {
          const hit = (await api<{ list: { iccid: string; value: string }[] }>('core/alarm/alarm/getAlarmCardPage', { alarmId: a.alarmId, iccid }, token)).data.list[0];
          if (hit) [alarmId, value] = [a.alarmId, hit.value];
        }
        return alarmId;
      }, { timeout: 240_000, interval: 2_000 }).toBeGreaterThan(0);
      expect(Number(value)).toBeGreaterThanOrEqual(threshold);
      // the webhook tried twice (503) and gave up; the e-mail was handed to the SMTP server
      let deliveryId = 0;
      await expect.poll(async () => {
        const list = (await api<Records>('core/alarm/alarm/getActionRecords', { alarmId }, token)).data.list;
        const hook = list.find((r) => r.channel === AutoRuleChannel.Webhook);
        const mail = list.find((r) => r.channel === AutoRuleChannel.Email);
        deliveryId = hook?.webhook?.deliveryId ?? 0;
        return [hook?.webhook?.state, mail?.state];
      }, { timeout: 60_000, interval: 1_000 }).toEqual([WebhookDeliveryState.Dead, AutoRuleDeliveryState.Sent]);
      const mails = (await received()).mails.filter((m) => m.to.includes(mailbox));
      expect(mails).toHaveLength(1);
      expect(mailText(mails[0].raw)).toContain(`Automation rule "${NAME}" triggered for card ${iccid}`);
      const refused = (await received()).hooks.filter((h) => h.body.includes(iccid));
      expect(refused.map((h) => h.attempt)).toEqual([1, 2]);

      // the user finds the record, sees the attempts, replays once the receiver works again
      const page = await newPage(browser, 'en');
      await login(page, 'enterprise');
      await page.goto('/autorule/alarm-list/list');
      await row(page, NAME).first().getByRole('link', { name: 'Execution detail' }).click();
      const cell = visible(page).getByTestId(`webhook-cell-${deliveryId}`);
      await expectText(cell, 'Dead letter');
      await expectText(cell, 'HTTP 503');
      await visible(page).getByTestId(`webhook-open-${deliveryId}`).click();
      const drawer = dialog(page);
      const attempts = drawer.getByTestId('webhook-attempts').locator('tr.ant-table-row');
      await expect.poll(() => attempts.count(), POLL).toBe(2);
      await expectText(attempts.first(), 'Series 1 · #2');
      await expectText(attempts.first(), '503');
      await expectText(attempts.first(), 'receiver down for maintenance');
      await expect.poll(async () => /\d+ ms/.test(await attempts.first().innerText()), POLL).toBe(true);
      await shot(page, 'delivery-dead-en');

      await answer(200);
      await drawer.getByTestId('webhook-replay').click();
      await page.getByTestId('webhook-replay-ok').click();
      await expectText(page.locator('.ant-message'), 'Replayed: attempt series 2 has started');
      await expectText(drawer.getByTestId('webhook-state'), 'Delivered');
      await expect.poll(() => attempts.count(), POLL).toBe(3);
      await expectText(attempts.first(), 'Series 2 · #1');
      await expectText(attempts.first(), '200');
      await shot(page, 'delivery-replayed-en');
      await drawer.getByRole('button', { name: 'Close' }).click();
      await expectText(cell, 'Delivered');
      // the receiver got the same event again (same id: it dedupes by it)
      const all = (await received()).hooks.filter((h) => h.body.includes(iccid));
      expect(all).toHaveLength(3);
      expect(new Set(all.map((h) => h.eventId)).size).toBe(1);

      // in Chinese
      await page.getByTestId('lang-toggle').click();
      await expectText(visible(page).getByTestId(`webhook-cell-${deliveryId}`), '已送达');
      await visible(page).getByTestId(`webhook-open-${deliveryId}`).click();
      await expectText(dialog(page).getByTestId('webhook-attempts'), '第 2 轮 · 第 1 次');
      // the drawer has finished sliding in (it stays where it was between two looks) before the picture
      const panel = page.locator('.ant-drawer-content-wrapper').last();
      let lastX: number | undefined;
      await expect.poll(async () => {
        const x = (await panel.boundingBox())?.x;
        const settled = x !== undefined && x === lastX;
        lastX = x;
        return settled;
      }, POLL).toBe(true);
      await shot(page, 'delivery-attempts-zh');
      await page.context().close();
    } finally {
      await answer(200);
      if (ruleId) await api('core/alarm/rule/deleteRule', { ruleId }, token);
      await api('openapi/subscribe/save', { callbackUrl: before.callbackUrl, eventTypes: before.eventTypes }, token);
    }
  });
});
