// Preloaded into the server child of bench/card-export.ts: reports the process's memory to the parent every
// 100 ms over the IPC channel, and runs a full garbage collection when asked (without a channel it does nothing).
if (process.send) {
  const report = () => {
    const m = process.memoryUsage();
    process.send?.({ mem: { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers, at: Date.now() } });
  };
  setInterval(report, 100).unref();
  // the benchmark asks for a full collection before it takes the baseline (the child runs with --expose-gc)
  process.on('message', (m: { gc?: boolean }) => {
    if (m?.gc) (globalThis as { gc?: () => void }).gc?.();
  });
}
export {};
