import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { backends, startTestApp, type TestApp } from '../../../../test/harness.ts';
import { Mailer, MailState, mailDelivery } from './mailer.ts';
import { loadMailConfig, type MailConfig } from './mail-config.ts';

/**
 * Issue 15, e-mail through SMTP: messages go to a real SMTP server started in-process (smtp-server on port 0) and are
 * read back from what it received (envelope, headers, UTF-8 Chinese subject and body, the HTML part); every attempt has
 * a delivery record (sent with the message id, or failed with the reason: wrong sign-in, refused recipient, nothing
 * listening, no server configured, a bad address).
 */
interface Received {
  from: string;
  to: string[];
  raw: string;
}

const USER = 'mailer';
const PASS = 'Smtp-Pass-2026';

async function startSmtp() {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === USER && auth.password === PASS) return cb(null, { user: USER });
      cb(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, cb) {
      if (address.address.endsWith('@refused.test')) return cb(Object.assign(new Error('no such mailbox'), { responseCode: 550 }));
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { server, port, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** RFC 2047 encoded words (=?UTF-8?B?…?= / =?UTF-8?Q?…?=) of a header value, unfolded. */
function decodeHeader(v: string): string {
  return v.replace(/\r?\n[ \t]+/g, ' ').replace(/\?=\s+=\?/g, '?==?').replace(/=\?utf-8\?([BQ])\?([^?]*)\?=/gi, (_w, enc: string, text: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8'));
}

interface Part { headers: Record<string, string>; body: string }

function parsePart(raw: string): Part {
  const at = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, at).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const l of head.split('\r\n')) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
  }
  return { headers, body: raw.slice(at + 4) };
}

function decodeBody(p: Part): string {
  const enc = (p.headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  if (enc === 'base64') return Buffer.from(p.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable') {
    const bytes = p.body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return p.body;
}

/** The text/plain and text/html parts of a message (single part or multipart/alternative). */
function partsOf(msg: Part): Record<string, string> {
  const type = msg.headers['content-type'] ?? 'text/plain';
  if (!type.startsWith('multipart/')) return { [type.split(';')[0]]: decodeBody(msg) };
  const boundary = /boundary="?([^";]+)"?/.exec(type)![1];
  const out: Record<string, string> = {};
  for (const chunk of msg.body.split(`--${boundary}`).slice(1)) {
    if (chunk.startsWith('--')) break;
    const p = parsePart(chunk.replace(/^\r\n/, ''));
    out[(p.headers['content-type'] ?? 'text/plain').split(';')[0]] = decodeBody(p).replace(/\r\n$/, '');
  }
  return out;
}

const freePort = async () => {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
};

describe('mail configuration from the environment', () => {
  it('reads CMP_SMTP_* and refuses bad values with a message', () => {
    expect(loadMailConfig({})).toBeNull();
    expect(loadMailConfig({ CMP_SMTP_HOST: 'smtp.example.com' })).toMatchObject({ host: 'smtp.example.com', port: 587, secure: false, user: null, from: 'Lynx CMP <noreply@smtp.example.com>' });
    expect(loadMailConfig({ CMP_SMTP_HOST: 'smtp.example.com', CMP_SMTP_SECURE: 'on' })).toMatchObject({ port: 465, secure: true, tlsVerify: true });
    expect(loadMailConfig({ CMP_SMTP_HOST: 'h', CMP_SMTP_PORT: '2525', CMP_SMTP_USER: 'u', CMP_SMTP_PASSWORD: 'p', CMP_SMTP_FROM: 'a@b.c', CMP_SMTP_TLS_VERIFY: 'off' }))
      .toEqual({ host: 'h', port: 2525, secure: false, user: 'u', password: 'p', from: 'a@b.c', tlsVerify: false });
    expect(() => loadMailConfig({ CMP_SMTP_HOST: 'h', CMP_SMTP_PORT: '70000' })).toThrow(/CMP_SMTP_PORT/);
    expect(() => loadMailConfig({ CMP_SMTP_HOST: 'h', CMP_SMTP_USER: 'u' })).toThrow(/CMP_SMTP_USER and CMP_SMTP_PASSWORD/);
  });
});

describe.each(backends)('e-mail through a real SMTP server (%s)', (backend) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let config: MailConfig;
  const mailers: Mailer[] = [];
  const mailer = (c: MailConfig | null) => {
    const m = new Mailer(t.deps.db, c);
    mailers.push(m);
    return m;
  };

  beforeAll(async () => {
    t = await startTestApp(backend, {}, { jobs: false });
    smtp = await startSmtp();
    config = { host: '127.0.0.1', port: smtp.port, secure: false, user: USER, password: PASS, from: 'Lynx CMP <noreply@lynx.test>', tlsVerify: false };
  });
  afterAll(async () => {
    for (const m of mailers) m.close();
    await smtp?.close();
    await t?.stop();
  });

  it('delivers a message with a Chinese subject, text and HTML, and records it as sent with its message id', async () => {
    const subject = '告警：卡片 89860000000000000001 本月流量已用 95%';
    const text = '您好，\n规则「流量超 90%」已触发：卡片 89860000000000000001 已用 9.50 GB（配额 10.00 GB）。';
    const html = '<p>规则 <b>流量超 90%</b> 已触发</p>';
    const d = await mailer(config).sendMail({ to: ['ops@lynx.test', ' fleet@lynx.test '], subject, text, html, source: 'autorule:7:41', custId: 1001, rootCustId: 1001 });
    expect(d).toMatchObject({ state: MailState.Sent, error: null, accepted: ['ops@lynx.test', 'fleet@lynx.test'], rejected: [] });
    expect(d.messageId).toMatch(/^<.+@.+>$/);

    const got = smtp.received.at(-1)!;
    expect(got.from).toBe('noreply@lynx.test');
    expect(got.to).toEqual(['ops@lynx.test', 'fleet@lynx.test']);
    const msg = parsePart(got.raw);
    expect(decodeHeader(msg.headers.subject)).toBe(subject);
    expect(msg.headers.subject).toMatch(/=\?UTF-8\?/i);
    expect(msg.headers['message-id']).toBe(d.messageId);
    expect(decodeHeader(msg.headers.from)).toMatch(/^"?Lynx CMP"? <noreply@lynx\.test>$/);
    expect(msg.headers.to).toBe('ops@lynx.test, fleet@lynx.test');
    const parts = partsOf(msg);
    expect(parts['text/plain'].replace(/\r\n/g, '\n')).toBe(text);
    expect(parts['text/html']).toBe(html);

    const rec = await mailDelivery(t.deps.db, d.deliveryId);
    expect(rec).toMatchObject({ to: ['ops@lynx.test', 'fleet@lynx.test'], subject, state: MailState.Sent, error: null, messageId: d.messageId, source: 'autorule:7:41' });
    expect(rec!.finishedAt).not.toBeNull();
  });

  it('records a failure with the reason: wrong sign-in, refused recipients, nothing listening, no server, bad address', async () => {
    const before = smtp.received.length;
    const wrong = await mailer({ ...config, password: 'wrong' }).sendMail({ to: ['ops@lynx.test'], subject: 'x', text: 'x' });
    expect(wrong.state).toBe(MailState.Failed);
    expect(wrong.error).toMatch(/535|sign-in/i);

    // one of two refused: sent to the other, the refusal kept on the record
    const half = await mailer(config).sendMail({ to: ['ops@lynx.test', 'nobody@refused.test'], subject: 'half', text: 'half' });
    expect(half).toMatchObject({ state: MailState.Sent, accepted: ['ops@lynx.test'], rejected: ['nobody@refused.test'] });
    expect(half.error).toContain('nobody@refused.test');
    const none = await mailer(config).sendMail({ to: ['nobody@refused.test'], subject: 'none', text: 'none' });
    expect(none.state).toBe(MailState.Failed);
    expect(none.error).toMatch(/550|nobody@refused\.test/);

    const down = await mailer({ ...config, port: await freePort() }).sendMail({ to: ['ops@lynx.test'], subject: 'x', text: 'x' });
    expect(down).toMatchObject({ state: MailState.Failed, error: 'the mail server refused the connection' });

    const off = await mailer(null).sendMail({ to: ['ops@lynx.test'], subject: 'x', text: 'x' });
    expect(off).toMatchObject({ state: MailState.Failed, error: 'no mail server is configured (CMP_SMTP_HOST)' });
    const bad = await mailer(config).sendMail({ to: ['ops@lynx.test', 'not an address'], subject: 'x', text: 'x' });
    expect(bad).toMatchObject({ state: MailState.Failed, error: 'not an e-mail address: not an address' });
    const empty = await mailer(config).sendMail({ to: [' '], subject: 'x', text: 'x' });
    expect(empty).toMatchObject({ state: MailState.Failed, error: 'no recipient' });

    // only the half-refused message reached the server's mailbox
    expect(smtp.received.length - before).toBe(1);
    for (const d of [wrong, none, down, off, bad, empty]) {
      expect((await mailDelivery(t.deps.db, d.deliveryId))!.state).toBe(MailState.Failed);
    }
    expect(await mailer(config).verify()).toEqual({ ok: true, error: null });
    expect((await mailer({ ...config, password: 'wrong' }).verify()).ok).toBe(false);
  });
});
