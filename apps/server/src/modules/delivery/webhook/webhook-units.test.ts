import crypto from 'node:crypto';
import { describe, it, expect } from 'vitest';
import { WebhookAttemptOutcome, WebhookEventType } from '@lynx/contract';
import { retryDelayMs, webhookSettingsFrom } from './settings.ts';
import { attemptErrorText, INTERRUPTED, NO_ADDRESS, NO_SECRET } from './attempt-text.ts';
import { signWebhook } from './signing.ts';
import { eventBody } from './worker.ts';

// The pure parts of webhook delivery (docs/webhooks.md): the retry schedule, its settings, the signature against a
// reference written here, the body, and the attempt's failure in both languages.

describe('retry schedule', () => {
  it('defaults to 30 s, 2 min, 10 min, 1 h, 6 h, 12 h, 24 h, then the dead letter, each ± 20 %', () => {
    const s = webhookSettingsFrom({});
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelayMs(s, n, 0.5))).toEqual([30, 120, 600, 3600, 21_600, 43_200, 86_400].map((x) => x * 1000));
    expect(retryDelayMs(s, 8, 0.5)).toBeNull();
    expect(retryDelayMs(s, 9, 0.5)).toBeNull();
    expect(retryDelayMs(s, 1, 0)).toBe(24_000);
    expect(retryDelayMs(s, 1, 0.9999999)).toBe(36_000);
    expect(s).toMatchObject({ timeoutMs: 10_000, concurrency: 16, pollMs: 500, retentionDays: 30 });
  });

  it('takes its settings from the environment and refuses bad values naming the variable', () => {
    const s = webhookSettingsFrom({ CMP_WEBHOOK_RETRY_SECONDS: '0.2, 0.5', CMP_WEBHOOK_TIMEOUT_SECONDS: '2.5', CMP_WEBHOOK_CONCURRENCY: '4' });
    expect(s).toMatchObject({ retryDelaysSeconds: [0.2, 0.5], timeoutMs: 2500, concurrency: 4 });
    expect(retryDelayMs(s, 2, 0.5)).toBe(500);
    expect(retryDelayMs(s, 3, 0.5)).toBeNull();
    for (const [k, v] of [['CMP_WEBHOOK_RETRY_SECONDS', '30;60'], ['CMP_WEBHOOK_RETRY_SECONDS', '30,0'], ['CMP_WEBHOOK_TIMEOUT_SECONDS', '0'],
      ['CMP_WEBHOOK_CONCURRENCY', '1.5'], ['CMP_WEBHOOK_POLL_MS', 'soon'], ['CMP_WEBHOOK_RETENTION_DAYS', '-1']]) {
      expect(() => webhookSettingsFrom({ [k]: v }), `${k}=${v}`).toThrow(k);
    }
  });
});

describe('signature and body', () => {
  it('signs hex HMAC-SHA256 over `timestamp.body`, as a receiver computes it by hand', () => {
    const secret = 'whsec_test';
    const body = '{"id":"x","data":{"a":"中文"}}';
    const ts = '1764309600';
    // the reference: HMAC by its definition, H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ m)) with SHA-256's 64-byte block
    const key = Buffer.alloc(64);
    Buffer.from(secret, 'utf8').copy(key);
    const pad = (b: number) => Buffer.from(key.map((x) => x ^ b));
    const inner = crypto.createHash('sha256').update(pad(0x36)).update(`${ts}.${body}`, 'utf8').digest();
    const want = crypto.createHash('sha256').update(pad(0x5c)).update(inner).digest('hex');
    expect(signWebhook(secret, ts, body)).toBe(want);
    expect(signWebhook(secret, '1764309601', body)).not.toBe(want);
    expect(signWebhook('whsec_other', ts, body)).not.toBe(want);
  });

  it('writes the body as {id, type, version, createdAt, data} with the wire name of the type', () => {
    const body = JSON.parse(eventBody({ eventId: 'e1', type: WebhookEventType.BillPublished, version: 1, createdAt: '2026-11-28T06:00:00+08:00', data: '{"billNo":"B1"}' }));
    expect(body).toEqual({ id: 'e1', type: 'bill.published', version: 1, createdAt: '2026-11-27T22:00:00.000Z', data: { billNo: 'B1' } });
  });
});

describe('an attempt\'s failure in the reader\'s language', () => {
  const cases: [number | null, string | null, string | null, string | null][] = [
    [WebhookAttemptOutcome.Success, null, null, null],
    [WebhookAttemptOutcome.HttpError, 'HTTP 503', '接收方返回 HTTP 503', 'The receiver answered HTTP 503'],
    [WebhookAttemptOutcome.Timeout, 'TIMEOUT 10000', '10 秒内无应答', 'No answer within 10 s'],
    [WebhookAttemptOutcome.NetworkError, 'ECONNREFUSED', '连接被拒绝', 'Connection refused'],
    [WebhookAttemptOutcome.NetworkError, 'ECONNRESET', '连接被接收方重置或关闭', 'Connection reset or closed by the receiver'],
    [WebhookAttemptOutcome.NetworkError, 'BAD_URL Invalid URL', '回调地址无效', 'The callback address is not valid'],
    [WebhookAttemptOutcome.NetworkError, 'EWHATEVER', '网络错误（EWHATEVER）', 'Network error (EWHATEVER)'],
    [WebhookAttemptOutcome.NetworkError, NO_SECRET, '签名密钥无法解密，请在 API 管理中轮换签名密钥', 'The signing secret cannot be opened; rotate it in the API manager'],
    [WebhookAttemptOutcome.NoAddress, NO_ADDRESS, '该客户没有接收此事件的回调地址', 'The customer has no callback address for this event'],
    [WebhookAttemptOutcome.Interrupted, INTERRUPTED, '发送进程在记录应答前停止（可能已送达）', 'The sending process stopped before recording the answer (it may have arrived)'],
    [null, null, null, null],
  ];
  it.each(cases)('outcome %s note %s', (outcome, note, zh, en) => {
    expect(attemptErrorText(outcome, note, 'zh')).toBe(zh);
    expect(attemptErrorText(outcome, note, 'en')).toBe(en);
  });
});
