import type { FastifyInstance } from 'fastify';
import { fenToMoney, formatDateTime, formatMoney, parseLang, type Lang } from '@lynx/contract';
import type { PaymentSimulator } from '../../../payments/simulator.ts';

/** The payment simulator's cashier page: where the payer of an online top-up pays (or fails) in the simulator. */
export const CASHIER_PATH = '/api/sim/pay/cashier';
export const cashierUrl = (payOrderNo: string, lang: Lang) => `${CASHIER_PATH}/${encodeURIComponent(payOrderNo)}?lang=${lang}`;

const T = {
  title: { zh: '支付模拟器 · 收银台', en: 'Payment simulator · cashier' },
  hint: {
    zh: '这是内置的支付模拟器，不会产生真实扣款。选择“支付”或“支付失败”后，平台会收到签名的支付通知。',
    en: 'This is the built-in payment simulator: no real money moves. Choosing "Pay" or "Fail" sends the platform a signed payment notification.',
  },
  order: { zh: '支付订单号', en: 'Payment order' },
  subject: { zh: '商品', en: 'Item' },
  amount: { zh: '金额（元）', en: 'Amount (CNY)' },
  expires: { zh: '订单有效期至', en: 'Open until' },
  pay: { zh: '支付', en: 'Pay' },
  fail: { zh: '支付失败', en: 'Fail' },
  unknown: { zh: '支付订单不存在或已失效。', en: 'This payment order does not exist or is no longer valid.' },
  paid: { zh: '支付成功。可以关闭本页，回到控制台查看余额。', en: 'Payment succeeded. You can close this page and see the balance in the console.' },
  failed: { zh: '支付失败。可以关闭本页，回到控制台重新充值。', en: 'The payment failed. You can close this page and top up again in the console.' },
  closed: { zh: '订单已关闭，不能再支付。', en: 'The order is closed and can no longer be paid.' },
  delivered: { zh: '平台已确认收到通知。', en: 'The platform acknowledged the notification.' },
  undelivered: { zh: '平台暂未确认通知（会在订单到期对账时确认）。', en: 'The platform has not acknowledged the notification yet (the order is reconciled when it expires).' },
} as const;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(lang: Lang, body: string): string {
  const t = (k: keyof typeof T) => esc(T[k][lang]);
  return `<!doctype html>
<html lang="${lang === 'zh' ? 'zh-CN' : 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t('title')}</title>
<style>
body{font-family:-apple-system,"Segoe UI","PingFang SC","Microsoft YaHei",sans-serif;background:#f5f5f5;margin:0;padding:40px 16px;color:#1f1f1f}
main{max-width:440px;margin:0 auto;background:#fff;border-radius:8px;padding:24px 28px;box-shadow:0 1px 4px rgba(0,0,0,.08)}
h1{font-size:20px;margin:0 0 8px}p.hint{color:#666;font-size:13px;line-height:1.6}dl{display:grid;grid-template-columns:auto 1fr;gap:8px 16px;margin:20px 0}
dt{color:#666}dd{margin:0;word-break:break-all}.amount{font-size:24px;font-weight:600;color:#d4380d}.actions{display:flex;gap:12px}
button{font-size:15px;padding:8px 24px;border-radius:6px;border:1px solid #d9d9d9;background:#fff;cursor:pointer}
button.primary{background:#1677ff;border-color:#1677ff;color:#fff}p.result{font-size:16px}
</style></head><body><main><h1>${t('title')}</h1><p class="hint">${t('hint')}</p>${body}</main></body></html>`;
}

/** Serves GET (the order and two buttons) and POST (the payer's choice) of the cashier page. */
export function cashierRoutes(app: FastifyInstance, sim: PaymentSimulator) {
  app.register(async (scope) => {
    // the cashier's two forms post application/x-www-form-urlencoded: parsed here only, not by the API
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    const langOf = (q: unknown, accept: string | undefined): Lang => {
      const v = (q as Record<string, unknown> | undefined)?.lang;
      return parseLang(typeof v === 'string' ? v : accept);
    };
    const html = (reply: import('fastify').FastifyReply, status: number, text: string) =>
      reply.status(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(text);

    scope.get<{ Params: { payOrderNo: string } }>(`${CASHIER_PATH}/:payOrderNo`, async (req, reply) => {
      const lang = langOf(req.query, req.headers['accept-language']);
      const t = (k: keyof typeof T) => esc(T[k][lang]);
      const o = await sim.find(req.params.payOrderNo);
      if (!o) return html(reply, 404, page(lang, `<p class="result">${t('unknown')}</p>`));
      if (o.state !== 'unpaid') return html(reply, 200, page(lang, `<p class="result">${t(o.state === 'paid' ? 'paid' : o.state === 'failed' ? 'failed' : 'closed')}</p>`));
      const action = `${CASHIER_PATH}/${encodeURIComponent(o.payOrderNo)}?lang=${lang}`;
      return html(reply, 200, page(lang, `<dl>
<dt>${t('order')}</dt><dd id="pay-order-no">${esc(o.payOrderNo)}</dd>
<dt>${t('subject')}</dt><dd>${esc(o.subject)}</dd>
<dt>${t('amount')}</dt><dd class="amount" id="pay-amount">${esc(formatMoney(fenToMoney(o.amountFen)))}</dd>
<dt>${t('expires')}</dt><dd>${esc(formatDateTime(o.expiresAt))}</dd></dl>
<div class="actions">
<form method="post" action="${esc(action)}"><input type="hidden" name="action" value="pay"><button class="primary" type="submit" id="sim-pay">${t('pay')}</button></form>
<form method="post" action="${esc(action)}"><input type="hidden" name="action" value="fail"><button type="submit" id="sim-fail">${t('fail')}</button></form>
</div>`));
    });

    scope.post<{ Params: { payOrderNo: string } }>(`${CASHIER_PATH}/:payOrderNo`, async (req, reply) => {
      const lang = langOf(req.query, req.headers['accept-language']);
      const t = (k: keyof typeof T) => esc(T[k][lang]);
      const o = await sim.find(req.params.payOrderNo);
      if (!o) return html(reply, 404, page(lang, `<p class="result">${t('unknown')}</p>`));
      if (o.state !== 'unpaid') return html(reply, 409, page(lang, `<p class="result">${t(o.state === 'paid' ? 'paid' : o.state === 'failed' ? 'failed' : 'closed')}</p>`));
      const choice = (req.body as Record<string, unknown> | undefined)?.action;
      const sent = choice === 'fail' ? await sim.fail(o.payOrderNo) : await sim.pay(o.payOrderNo);
      // what the order is now: the other button may have won a race (then nothing was sent for this one)
      const now = (await sim.find(o.payOrderNo))?.state ?? o.state;
      const result = t(now === 'paid' ? 'paid' : now === 'failed' ? 'failed' : 'closed');
      if (sent === null) return html(reply, 409, page(lang, `<p class="result" id="sim-result">${result}</p>`));
      const acked = sent.status === 200;
      return html(reply, 200, page(lang, `<p class="result" id="sim-result">${result}</p><p class="hint">${t(acked ? 'delivered' : 'undelivered')}</p>`));
    });
  });
}
