/**
 * Sequential HTTP client child for the benches (started by startSeqClient in bench/common.ts): on { id, url, headers, body, n } it sends n POSTs one after
 * another and answers every response time (float ms, request sent → body read). Lives in its own process so the
 * client's work does not share the measured server's event loop.
 */
export interface SeqRequest {
  id: number;
  url: string;
  headers: Record<string, string>;
  body: string;
  n: number;
}
export type SeqReply = { ready: true } | { id: number; ok: true; ms: number[]; total: number | null } | { id: number; ok: false; error: string };

if (!process.send) {
  console.error('bench/seq-client.ts is started by a bench (startSeqClient), not on its own');
  process.exit(2);
}

process.on('message', async (m: SeqRequest) => {
  try {
    const ms: number[] = [];
    let total: number | null = null;
    for (let i = 0; i < m.n; i++) {
      const t0 = performance.now();
      const res = await fetch(m.url, { method: 'POST', headers: m.headers, body: m.body });
      const text = await res.text();
      ms.push(performance.now() - t0);
      if (i === 0) {
        const json = JSON.parse(text) as { success: boolean; msg: string; data?: { total?: number } };
        if (!json.success) throw new Error(json.msg);
        total = json.data?.total ?? null;
      }
    }
    process.send!({ id: m.id, ok: true, ms, total } satisfies SeqReply);
  } catch (e) {
    process.send!({ id: m.id, ok: false, error: e instanceof Error ? e.message : String(e) } satisfies SeqReply);
  }
});
process.send({ ready: true } satisfies SeqReply);
process.on('disconnect', () => process.exit(0));
