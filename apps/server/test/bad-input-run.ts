import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { endpoints, pathOf, type Endpoint } from '@lynx/contract';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { FormatRegistry } from '@sinclair/typebox';
import { backends, multipart, startTestApp, type TestApp } from './harness.ts';
import { badBodies, badQueries, baseline, brokenRequests, type BadRequest } from './bad-input-cases.ts';

/*
 * Generated from the contract: every endpoint gets malformed bodies and queries (missing and extra fields,
 * wrong types, nulls, huge numbers and strings, deep nesting, wrong content types, broken multipart). None
 * may answer 5xx, every answer is the envelope with success false, and none writes a row. The endpoints are dealt
 * to PARTS test files (bad-input.test.ts, bad-input-2.test.ts), so the two test workers share the work.
 */

// the same formats the server's validator knows, so a body TypeBox calls valid is valid on the wire too
if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (v) => /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/i.test(v) && !Number.isNaN(Date.parse(v)));
if (!FormatRegistry.Has('uuid')) FormatRegistry.Set('uuid', (v) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v));

export const PARTS = 2;

interface Finding {
  endpoint: string;
  case: string;
  problem: string;
}

/** Row count and newest row version of every table but the API request log (which records every call by design). */
async function fingerprint(t: TestApp, tables: string[]): Promise<string> {
  const parts = tables.map((n) => `select '${n}' t, count(*)::int n, coalesce(max(xmin::text::bigint), 0)::text x from "${n}"`);
  const rows = await t.database.sql.query<{ t: string; n: number; x: string }>(`${parts.join(' union all ')} order by 1`);
  return JSON.stringify(rows);
}

/** The bad-input walk over the endpoints of part `part` (0-based) of PARTS. */
export const badInputSuite = (part: number) => describe.each(backends)(`bad input over every endpoint of the contract, part ${part + 1} of ${PARTS} (%s)`, (backend) => {
  const mine = endpoints.filter((_, i) => i % PARTS === part);
  let t: TestApp;
  let token: string;
  let tables: string[];
  beforeAll(async () => {
    t = await startTestApp(backend, { rateLimitPerToken: 1_000_000_000, rateLimitPerIp: 1_000_000_000 }, { jobs: false });
    token = await t.login('admin');
    const rows = await t.database.sql.query<{ n: string }>(
      `select c.relname n from pg_class c join pg_namespace s on s.oid = c.relnamespace
       where s.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition and c.relname <> 'api_log' order by 1`,
    );
    tables = rows.map((r) => r.n);
  });
  afterAll(() => t?.stop());

  const send = async (e: Endpoint, r: BadRequest) => {
    const query = new URLSearchParams({ ts: String(Date.now()), lang: r.lang ?? 'en', ...(r.query ?? {}) });
    const headers: Record<string, string> = { authorization: token, ...(r.headers ?? {}) };
    return t.app.inject({ method: r.method ?? e.method, url: `${pathOf(e)}?${r.rawQuery ?? query.toString()}`, payload: r.payload, headers });
  };

  it('answers every malformed request with a 4xx (or a business refusal) in the envelope and writes nothing', async () => {
    const findings: Finding[] = [];
    let requests = 0;
    for (const e of mine) {
      const before = await fingerprint(t, tables);
      const schema = e.body as TSchema;
      const cases: BadRequest[] = [...badQueries(e), ...brokenRequests(e, multipart)];
      if (e.method === 'POST' && !e.multipart) {
        for (const c of badBodies(schema, baseline(schema))) {
          // a body the schema accepts is not bad input (it may rightly write), unless it is a number the schema must bound
          if (Value.Check(schema, c.body) && !c.mustBeRefused) continue;
          cases.push({ name: c.name, payload: JSON.stringify(c.body), headers: { 'content-type': 'application/json' }, mustBeRefused: c.mustBeRefused });
        }
      }
      for (const c of cases) {
        requests++;
        const res = await send(e, c);
        const problem = (p: string) => findings.push({ endpoint: e.name, case: c.name, problem: `${p} (HTTP ${res.statusCode}: ${res.body.slice(0, 160)})` });
        if (res.statusCode >= 500) {
          problem('server error');
          continue;
        }
        let body: { success?: unknown; msg?: unknown; errorCode?: unknown; data?: unknown };
        try {
          body = res.json();
        } catch {
          problem('not JSON');
          continue;
        }
        if (typeof body.success !== 'boolean' || typeof body.msg !== 'string' || !('errorCode' in body) || !('data' in body)) problem('not the envelope');
        else if (body.success !== false) problem('accepted');
        else if (typeof body.errorCode !== 'number' || !body.msg) problem('no error code or message');
        else if (c.lang === 'zh' && !/[\u4e00-\u9fff]/.test(body.msg)) problem('message not in Chinese');
      }
      const after = await fingerprint(t, tables);
      if (after !== before) {
        const was = new Map((JSON.parse(before) as { t: string }[]).map((r) => [r.t, JSON.stringify(r)]));
        const changed = (JSON.parse(after) as { t: string }[]).filter((r) => was.get(r.t) !== JSON.stringify(r)).map((r) => r.t);
        findings.push({ endpoint: e.name, case: '(all)', problem: `rows written in ${changed.join(', ')}` });
      }
      // a request that signed the session out would make every later one a session refusal
      if (!(await t.call('core/account/account/getIsResetPassword', {}, { token })).body.success) {
        findings.push({ endpoint: e.name, case: '(all)', problem: 'the session ended' });
        token = await t.login('admin');
      }
    }
    console.info(`bad input (${backend}, part ${part + 1}): ${mine.length} endpoints x ${requests} malformed requests in all, ${findings.length} findings`);
    expect(findings).toEqual([]);
  }, 900_000);
});
