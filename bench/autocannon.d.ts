// Minimal types for the parts of autocannon 8 the benchmarks use (the package ships none).
declare module 'autocannon' {
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p0_001: number;
    p0_01: number;
    p0_1: number;
    p1: number;
    p2_5: number;
    p10: number;
    p25: number;
    p50: number;
    p75: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
    p99_99: number;
    p99_999: number;
    sent?: number;
    totalCount?: number;
  }

  export interface Result {
    title?: string;
    url: string;
    connections: number;
    pipelining: number;
    duration: number;
    start: string | Date;
    finish: string | Date;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    resets: number;
    '1xx': number;
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram;
    requests: Histogram;
    throughput: Histogram;
  }

  export interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    timeout?: number;
    expectBody?: string;
    title?: string;
  }

  export interface Tracker {
    stop(): void;
    /** one completed response: the client, status code, bytes and response time in ms (a float) */
    on(event: 'response', fn: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void): Tracker;
    on(event: string, fn: (...args: any[]) => void): Tracker;
  }

  function autocannon(opts: Options): Promise<Result> & Tracker;
  export default autocannon;
}
