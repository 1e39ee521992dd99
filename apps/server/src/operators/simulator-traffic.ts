/**
 * Generated traffic on the network simulator (docs/operator-gateway.md "Generated traffic"): a session that operator
 * staff asked a card's simulated device to make now (modules/network/simtraffic). The simulator otherwise derives all
 * usage from the ICCID and the day; generated sessions are the one thing it reads from the platform's database
 * (table simulator_traffic, migration 0051), through the source the server installs at start. Every server process on
 * the same database reads the same rows, so every answer stays the same for the same window, as with derived usage.
 */

/** One generated session: it starts at `at` and its bytes grow evenly over `seconds`. */
export interface GeneratedSession {
  trafficId: number;
  iccid: string;
  at: number;
  seconds: number;
  bytesUp: number;
  bytesDown: number;
}

/** The generated sessions of these cards that start in [from, to), by ICCID. */
export type TrafficSource = (iccids: string[], from: Date, to: Date) => Promise<GeneratedSession[]>;

let source: TrafficSource | null = null;

/** Installs (or with null removes) where the simulator reads generated sessions; answers a function that removes it again. */
export function setTrafficSource(next: TrafficSource | null): () => void {
  source = next;
  return () => {
    if (source === next) source = null;
  };
}

export type TrafficByCard = Map<string, GeneratedSession[]>;

/** The generated sessions starting in [from, to) of these cards (none without a source). */
export async function generatedTraffic(iccids: string[], from: Date, to: Date): Promise<TrafficByCard> {
  const out: TrafficByCard = new Map();
  if (!source || iccids.length === 0 || !(to > from)) return out;
  for (const s of await source(iccids, from, to)) {
    const list = out.get(s.iccid);
    if (list) list.push(s);
    else out.set(s.iccid, [s]);
  }
  return out;
}
