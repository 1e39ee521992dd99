import { describe, expect, it } from 'vitest';
import { isNonPublicAddress, privateOutboundAllowed, PRIVATE_ADDRESS, resolvePublic } from './outbound.ts';
import { postWebhook } from '../modules/delivery/webhook/sender.ts';
import { attemptErrorText } from '../modules/delivery/webhook/attempt-text.ts';
import { connectError } from '../modules/delivery/datapush/datapush-sftp.ts';
import { ErrorCode, WebhookAttemptOutcome } from '@lynx/contract';

describe('outbound addresses a customer gives (SSRF guard)', () => {
  it('tells public addresses from loopback, private, link-local, CGNAT, reserved and mapped ones', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
      '224.0.0.1', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not-an-ip']) {
      expect(isNonPublicAddress(ip), ip).toBe(true);
    }
    for (const ip of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '1.1.1.1', '2001:4860:4860::8888', '::ffff:8.8.8.8']) {
      expect(isNonPublicAddress(ip), ip).toBe(false);
    }
  });

  it('is on in production unless allowed, off elsewhere unless refused', () => {
    expect(privateOutboundAllowed({ NODE_ENV: 'production' })).toBe(false);
    expect(privateOutboundAllowed({ NODE_ENV: 'production', CMP_OUTBOUND_ALLOW_PRIVATE: 'on' })).toBe(true);
    expect(privateOutboundAllowed({ NODE_ENV: 'test' })).toBe(true);
    expect(privateOutboundAllowed({ NODE_ENV: 'test', CMP_OUTBOUND_ALLOW_PRIVATE: 'off' })).toBe(false);
  });

  it('refuses a literal or resolved private address, answers a public one', async () => {
    await expect(resolvePublic('127.0.0.1', false)).rejects.toMatchObject({ code: PRIVATE_ADDRESS, address: '127.0.0.1' });
    await expect(resolvePublic('[::1]', false)).rejects.toMatchObject({ code: PRIVATE_ADDRESS });
    await expect(resolvePublic('localhost', false)).rejects.toMatchObject({ code: PRIVATE_ADDRESS });
    await expect(resolvePublic('8.8.8.8', false)).resolves.toBe('8.8.8.8');
    await expect(resolvePublic('127.0.0.1', true)).resolves.toBe('127.0.0.1');
  });

  it('a webhook to a private address is not sent, with the reason in both languages', async () => {
    const prev = process.env.CMP_OUTBOUND_ALLOW_PRIVATE;
    process.env.CMP_OUTBOUND_ALLOW_PRIVATE = 'off';
    try {
      const r = await postWebhook('http://127.0.0.1:9/hook', '{}', {}, 2000);
      expect(r).toMatchObject({ outcome: WebhookAttemptOutcome.NetworkError, httpStatus: null, error: PRIVATE_ADDRESS });
      expect(attemptErrorText(r.outcome, r.error, 'en')).toMatch(/private or reserved/);
      expect(attemptErrorText(r.outcome, r.error, 'zh')).toMatch(/内网/);
    } finally {
      if (prev === undefined) delete process.env.CMP_OUTBOUND_ALLOW_PRIVATE;
      else process.env.CMP_OUTBOUND_ALLOW_PRIVATE = prev;
    }
  });

  it('an SFTP push server at a private address is refused in words', async () => {
    const err = await resolvePublic('10.0.0.5', false).catch((e: unknown) => e);
    const app = connectError(err, { host: '10.0.0.5', port: 22, account: 'push' });
    expect(app.code).toBe(ErrorCode.DataPushAddressPrivate);
    expect(app.params).toMatchObject({ host: '10.0.0.5', address: '10.0.0.5' });
  });
});
