import { describe, it, expect } from 'vitest';
import { EuiccEvent, EuiccProfileState as S, euiccNext, isEuiccPending, EUICC_PENDING } from './euicc.ts';

/**
 * The eUICC profile state machine (spec §4), written out by hand: every (state, event) pair not listed here must be
 * refused. 12 states × 12 events = 144 cases, each its own test.
 */
const E = EuiccEvent;
const LEGAL: [event: number, from: number, to: number][] = [
  [E.Assign, S.Unbound, S.Bound],
  [E.Release, S.Bound, S.Occupied],
  [E.Download, S.Bound, S.Downloading],
  [E.Download, S.Occupied, S.Downloading],
  [E.Download, S.DownloadFailed, S.Downloading],
  [E.DownloadOk, S.Downloading, S.Downloaded],
  [E.DownloadFail, S.Downloading, S.DownloadFailed],
  [E.Enable, S.Downloaded, S.Enable],
  [E.Enable, S.Disabled, S.Enable],
  [E.Enable, S.EnableFailed, S.Enable],
  [E.EnableOk, S.Enable, S.Enabled],
  [E.EnableFail, S.Enable, S.EnableFailed],
  [E.Disable, S.Enabled, S.Disable],
  [E.Disable, S.DisableFailed, S.Disable],
  [E.DisableOk, S.Disable, S.Disabled],
  [E.DisableFail, S.Disable, S.DisableFailed],
  [E.Delete, S.Bound, S.Unbound],
  [E.Delete, S.Occupied, S.Unbound],
  [E.Delete, S.Downloaded, S.Unbound],
  [E.Delete, S.Disabled, S.Unbound],
  [E.Delete, S.DownloadFailed, S.Unbound],
  [E.Delete, S.EnableFailed, S.Unbound],
];

const cases = E.values.flatMap((event) => S.values.map((state) => {
  const legal = LEGAL.find(([e, from]) => e === event && from === state);
  return { event, state, to: legal ? legal[2] : null, name: `${E.label(event, 'en')} from ${S.label(state, 'en')}` };
}));

describe('eUICC profile state machine', () => {
  it('has the 12 states of spec §4 with labels in both languages', () => {
    expect(S.values).toHaveLength(12);
    for (const v of S.values) {
      expect(S.label(v, 'zh')).toMatch(/[\u4e00-\u9fff]/);
      expect(S.label(v, 'en')).toMatch(/^[A-Z][a-z ]+$/);
    }
  });

  it.each(cases.filter((c) => c.to !== null))('allows $name', ({ event, state, to }) => {
    expect(euiccNext(state, event as never)).toBe(to);
  });

  it.each(cases.filter((c) => c.to === null))('refuses $name', ({ event, state }) => {
    expect(euiccNext(state, event as never)).toBeNull();
  });

  it('counts every pair once', () => {
    expect(cases).toHaveLength(144);
    expect(cases.filter((c) => c.to !== null)).toHaveLength(LEGAL.length);
  });

  it('ends each pending state only through its own answer, and nothing else moves it', () => {
    for (const [pending, { ok, fail }] of Object.entries(EUICC_PENDING)) {
      const state = Number(pending);
      expect(isEuiccPending(state)).toBe(true);
      const moves = E.values.filter((e) => euiccNext(state, e) !== null);
      expect(moves.sort()).toEqual([ok, fail].sort());
    }
    expect(S.values.filter(isEuiccPending)).toEqual([S.Downloading, S.Enable, S.Disable]);
  });
});
