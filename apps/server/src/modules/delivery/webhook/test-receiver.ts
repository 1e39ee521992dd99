// A real local webhook receiver (node:http on 127.0.0.1, port 0) for the tests and the benchmark: it verifies each
// request's signature with its own HMAC (node:crypto, written here independently of the sender), records every request,
// dedupes by event id, and answers as the test's `behave` says: a status, a dropped connection, or no answer at all.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ReceivedRequest {
  at: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  eventId: string | null;
  attempt: number;
  /** whether X-Lynx-Signature matched a HMAC-SHA256 over `${timestamp}.${body}` with the known secret */
  signatureOk: boolean | null;
}

/** 'drop': destroy the socket without answering; 'hang': never answer. */
export type Behaviour = { status: number; body?: string; delayMs?: number } | 'drop' | 'hang';

export class TestReceiver {
  readonly requests: ReceivedRequest[] = [];
  /** event id → times it arrived (2xx answers only count once towards `delivered`) */
  readonly seen = new Map<string, number>();
  readonly delivered = new Set<string>();
  /** requests being handled right now, per event id: two at once means two workers sent the same delivery */
  private inProgress = new Map<string, number>();
  maxConcurrentPerEvent = 0;
  /** secrets by key id, for checking signatures */
  readonly secrets = new Map<string, string>();
  behave: (req: ReceivedRequest) => Behaviour = () => ({ status: 200, body: 'ok' });
  private server: http.Server;
  private sockets = new Set<Socket>();
  url = '';

  constructor() {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => void this.handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** duplicates: arrivals of an event beyond the first */
  get duplicates(): number {
    let n = 0;
    for (const c of this.seen.values()) n += c - 1;
    return n;
  }

  private verify(headers: http.IncomingHttpHeaders, body: string): boolean | null {
    const keyId = String(headers['x-lynx-key-id'] ?? '');
    const secret = this.secrets.get(keyId);
    if (!secret) return null;
    const ts = String(headers['x-lynx-timestamp'] ?? '');
    const given = String(headers['x-lynx-signature'] ?? '');
    const mac = crypto.createHmac('sha256', Buffer.from(secret, 'utf8'));
    mac.update(Buffer.from(ts, 'utf8'));
    mac.update(Buffer.from('.', 'utf8'));
    mac.update(Buffer.from(body, 'utf8'));
    const want = mac.digest();
    const got = Buffer.from(given, 'hex');
    return got.length === want.length && crypto.timingSafeEqual(got, want);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse, body: string): Promise<void> {
    const eventId = (req.headers['x-lynx-event-id'] as string | undefined) ?? null;
    const r: ReceivedRequest = {
      at: Date.now(), headers: req.headers, body, eventId, attempt: Number(req.headers['x-lynx-attempt'] ?? 0), signatureOk: this.verify(req.headers, body),
    };
    this.requests.push(r);
    if (eventId) {
      const n = (this.inProgress.get(eventId) ?? 0) + 1;
      this.inProgress.set(eventId, n);
      this.maxConcurrentPerEvent = Math.max(this.maxConcurrentPerEvent, n);
    }
    const done = () => {
      if (eventId) this.inProgress.set(eventId, (this.inProgress.get(eventId) ?? 1) - 1);
    };
    const b = this.behave(r);
    if (b === 'hang') {
      req.socket.once('close', done);
      return;
    }
    if (b === 'drop') {
      done();
      req.socket.destroy();
      return;
    }
    if (b.delayMs) await new Promise((resolve) => setTimeout(resolve, b.delayMs));
    if (eventId && b.status >= 200 && b.status < 300) {
      this.seen.set(eventId, (this.seen.get(eventId) ?? 0) + 1);
      this.delivered.add(eventId);
    }
    done();
    res.writeHead(b.status, { 'content-type': 'text/plain' }).end(b.body ?? '');
  }
}
