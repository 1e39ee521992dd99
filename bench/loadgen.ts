/**
 * Load generator child process for the benchmarks: runs autocannon when the parent asks over IPC and sends
 * the result back. It lives in its own process so the load it generates does not share an event loop (and,
 * on a 2-core machine, ideally not a core) with the servers being measured.
 */
import autocannon, { type Options, type Result } from 'autocannon';

export interface LoadRequest {
  id: number;
  opts: Options;
}

export type LoadReply =
  | { ready: true }
  | { id: number; ok: true; result: Result; latency: PreciseLatency; cpuUs: number }
  | { id: number; ok: false; error: string };

/** autocannon's histograms hold whole milliseconds; this keeps every response time as a float */
export interface PreciseLatency {
  count: number;
  mean: number;
  p50: number;
  p97_5: number;
  p99: number;
  max: number;
}

function precise(samples: Float64Array, n: number): PreciseLatency {
  const sorted = samples.subarray(0, n).sort();
  const at = (q: number) => (n ? sorted[Math.min(n - 1, Math.ceil(q * n) - 1)] : 0);
  let total = 0;
  for (let i = 0; i < n; i++) total += sorted[i];
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  return { count: n, mean: r3(n ? total / n : 0), p50: r3(at(0.5)), p97_5: r3(at(0.975)), p99: r3(at(0.99)), max: r3(n ? sorted[n - 1] : 0) };
}

if (!process.send) {
  console.error('bench/loadgen.ts is started by the benchmarks (bench/common.ts LoadGen), not on its own');
  process.exit(2);
}

let running: ReturnType<typeof autocannon> | null = null;

process.on('message', (msg: LoadRequest) => {
  const cpu0 = process.cpuUsage();
  const run = autocannon(msg.opts);
  running = run;
  let samples = new Float64Array(1 << 16);
  let n = 0;
  run.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
    if (n === samples.length) {
      const bigger = new Float64Array(samples.length * 2);
      bigger.set(samples);
      samples = bigger;
    }
    samples[n++] = ms;
  });
  run.then(
    (result) => {
      running = null;
      const cpu = process.cpuUsage(cpu0);
      process.send!({ id: msg.id, ok: true, result, latency: precise(samples, n), cpuUs: cpu.user + cpu.system } satisfies LoadReply);
    },
    (err: unknown) => {
      running = null;
      process.send!({ id: msg.id, ok: false, error: err instanceof Error ? err.message : String(err) } satisfies LoadReply);
    },
  );
});

// messages sent before this listener existed would be lost: tell the parent when it may send
process.send({ ready: true } satisfies LoadReply);

// the parent went away (finished or crashed): stop any run and leave
process.on('disconnect', () => {
  running?.stop();
  process.exit(0);
});
