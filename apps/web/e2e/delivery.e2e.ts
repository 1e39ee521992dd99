import { describe, it, expect, beforeAll, afterAll, inject } from 'vitest';
import type { Browser } from 'playwright-core';
import { AutoRuleAction, AutoRuleChannel, AutoRuleDeliveryState, AutoRuleType, CardState, WebhookDeliveryState, WebhookEventType } from '@lynx/contract';
import { POLL, api, apiLogin, dialog, expectText, launch, login, newPage, row, shot, visible } from './support.ts';
import type { Received } from './receivers.ts';

/**
 * Issue 15, what a rule's notifications did (docs/webhooks.md, docs/automation.md): a customer's state-change rule
 * fires for one of its cards; its webhook goes to a receiver that answers 503 and ends in the dead letter; its e-mail
 * arrives at the SMTP server. The user sees the attempts (time, HTTP status, latency, error) in the trigger record,
 * replays after the receiver is fixed and watches it arrive (en); the same screen in Chinese. The receiver and the SMTP
 * server are global-setup's (receivers.ts); setup goes through the API, the browser is only what the user does.
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
  it('a webhook to a refusing receiver is dead-lettered, shown with its attempts, replayed once fixed; the e-mail arrives', { timeout: 240_000 }, async () => {
    const token = await apiLogin('enterprise');
    const custId = (await api<{ custId: number }>('base/oauth/user/login', { loginName: 'enterprise', password: 'Demo@2026pass' })).data.custId;
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
      const rule = await api<{ ruleId: number }>('core/alarm/rule/saveRule', {
        name: NAME, ruleType: AutoRuleType.StateChanged, states: [CardState.Deactivated], level: 2, action: AutoRuleAction.NotifyOnly,
        channels: [AutoRuleChannel.Email, AutoRuleChannel.Webhook], emails: mailbox,
      }, token);
      expect(rule.success, rule.msg).toBe(true);
      ruleId = rule.data.ruleId;
      expect((await api('core/alarm/rule/publishRule', { ruleId }, token)).success).toBe(true);

      // one of its own active cards is deactivated: the check after the next usage window (every minute) records it
      const cards = (await api<{ list: { iccid: string }[] }>('core/sim/simQuery/getSimListPage', { states: [CardState.Activated], custId, pageSize: 10 }, token)).data.list;
      for (const c of cards) {
        if ((await api('core/sim/singleCard/changeStatus', { iccid: c.iccid, action: 'deactivate', reason: 'e2e delivery' }, token)).success) {
          iccid = c.iccid;
          break;
        }
      }
      expect(iccid).not.toBe('');
      let alarmId = 0;
      await expect.poll(async () => {
        alarmId = (await api<{ list: { alarmId: number }[] }>('core/alarm/alarm/getAlarmListPage', { ruleId }, token)).data.list[0]?.alarmId ?? 0;
        return alarmId;
      }, { timeout: 130_000, interval: 1_000 }).toBeGreaterThan(0);
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
      await shot(page, 'delivery-attempts-zh');
      await page.context().close();
    } finally {
      await answer(200);
      if (ruleId) await api('core/alarm/rule/deleteRule', { ruleId }, token);
      if (iccid) await api('core/sim/singleCard/changeStatus', { iccid, action: 'activate', reason: 'e2e delivery' }, token);
      await api('openapi/subscribe/save', { callbackUrl: before.callbackUrl, eventTypes: before.eventTypes }, token);
    }
  });
});
