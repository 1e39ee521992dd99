// Demo money: what a newcomer finds on Business › Top-ups and Withdrawals after the first start of an empty database
// (not under NODE_ENV=test, whose tests start from the demo balances). Everything is made through the real services,
// as the channel customer 华电 would make it, so every rule, journal, audit record and the simulator's own records
// are what use would have left: an online top-up paid at the simulator's cashier, a bank transfer waiting for
// finance's review (it lights the reviewers' header badge) and a withdrawal waiting for review. 智行物流 (the
// enterprise login) keeps the demo balances untouched.
import zlib from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { businessDay } from '@lynx/contract';
import type { AppDeps } from '../app.ts';
import type { SessionContext } from '../platform/context.ts';
import { accounts } from '../modules/account/tables.ts';
import { paymentsOf } from '../modules/money/recharge/recharge-routes.ts';
import { WithdrawService } from '../modules/money/withdraw/withdraw-service.ts';

const LOGIN = 'channel';

export async function seedDemoMoney(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const [account] = await deps.db.select({ accountId: accounts.accountId }).from(accounts).where(eq(accounts.loginName, LOGIN));
  const actor = account ? await deps.sessions.actorOf(account.accountId) : null;
  if (!actor) return;
  const ctx = (endpoint: string): SessionContext => ({ actor, lang: 'zh', ip: '127.0.0.1', endpoint, tokenHash: null, audited: false });
  const { service, simulator } = paymentsOf(app);

  // an online top-up, paid at the cashier: the simulator's signed notification credits it
  const online = await service.createOnline({ amount: '3000', note: '季度流量费预存' }, ctx('core/finance/refund/saveRecharge'));
  await simulator.pay(online.payOrderNo);

  // a bank transfer entered with its certificate, waiting for finance (due in two working days)
  const proof = await deps.db.transaction((tx) =>
    deps.files.save(tx, 'paymentProof', { filename: 'bank-receipt.png', mimeType: 'image/png', buffer: receiptImage() }, actor, { custId: actor.custId, rootCustId: actor.rootCustId }),
  );
  const today = businessDay(Date.now());
  await service.createPublic(
    { amount: '20000', serialNo: `HD${today.replaceAll('-', '')}0001`, transferDate: today, proofFileId: proof.fileId, note: '年度服务费对公转账' },
    ctx('core/finance/refund/offlinePay'),
  );

  // a withdrawal: the amount is held at once and waits for finance's review and the payout run on the 10th
  await new WithdrawService(deps.db).apply({ amount: '5000', remark: '项目结余退回' }, ctx('core/finance/withdraw/apply'));
}

/** A real PNG (a grey bank slip with a stamp-red corner), so the certificate downloads and opens like an upload. */
export function receiptImage(width = 480, height = 280): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3, 0xff);
    for (let x = 0; x < width; x++) {
      const border = x < 4 || y < 4 || x >= width - 4 || y >= height - 4;
      const line = y > 40 && y % 36 === 0 && x > 24 && x < width - 24;
      const stamp = (x - (width - 90)) ** 2 + (y - (height - 80)) ** 2 < 50 ** 2 && (x - (width - 90)) ** 2 + (y - (height - 80)) ** 2 > 44 ** 2;
      const [r, g, b] = stamp ? [0xd0, 0x30, 0x30] : border ? [0x9a, 0xa5, 0xb1] : line ? [0xc8, 0xce, 0xd6] : [0xfa, 0xfb, 0xfc];
      row.writeUInt8(r, 1 + x * 3);
      row.writeUInt8(g, 2 + x * 3);
      row.writeUInt8(b, 3 + x * 3);
    }
    row.writeUInt8(0, 0);
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
