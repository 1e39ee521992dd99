import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * What the shared e2e server delivers to, started by global-setup in the runner's process (the server reads its SMTP
 * settings once, at start, so a spec cannot bring its own mail server):
 *
 * - an SMTP server (no sign-in, no TLS) that keeps every message it is handed;
 * - one HTTP server that is both a webhook receiver (`POST /hook`, answering the status a spec set) and the specs'
 *   window onto both (specs run in worker processes and reach them by URL, `inject('receivers')`):
 *   `GET /_received` → `{ hooks: [{ at, eventId, attempt, body }], mails: [{ at, from, to, raw }] }`,
 *   `POST /_answer` `{ "status": 503 }` → what `/hook` answers from now on (200 at start).
 */
export interface Received {
  hooks: { at: string; eventId: string | null; attempt: number; body: string }[];
  mails: { at: string; from: string; to: string[]; raw: string }[];
}

export async function startReceivers(): Promise<{ smtpPort: number; url: string; close: () => Promise<void> }> {
  const received: Received = { hooks: [], mails: [] };
  let status = 200;

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.mails.push({
          at: new Date().toISOString(), from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8'),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));

  const web = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const json = (code: number, v: unknown) => res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(v));
      if (req.method === 'POST' && req.url === '/hook') {
        received.hooks.push({
          at: new Date().toISOString(), eventId: (req.headers['x-lynx-event-id'] as string | undefined) ?? null,
          attempt: Number(req.headers['x-lynx-attempt'] ?? 0), body,
        });
        return res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'receiver down for maintenance');
      }
      if (req.method === 'GET' && req.url === '/_received') return json(200, received);
      if (req.method === 'POST' && req.url === '/_answer') {
        status = Number((JSON.parse(body || '{}') as { status?: number }).status ?? 200);
        return json(200, { status });
      }
      json(404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));

  return {
    smtpPort: (smtp.server.address() as AddressInfo).port,
    url: `http://127.0.0.1:${(web.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((r) => smtp.close(() => r()));
      web.closeAllConnections();
      await new Promise<void>((r) => web.close(() => r()));
    },
  };
}
