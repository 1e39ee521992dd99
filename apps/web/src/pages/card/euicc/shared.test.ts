import { describe, it, expect } from 'vitest';
import { EuiccAction, EuiccProfileState as S } from '@lynx/contract';
import { actionsFor, iccidLines, parsePairs, type EuiccProfileRow } from './shared.tsx';

const profile = (state: number, pendingAction: number | null = null) => ({ iccid: '89860000000000000001', state, pendingAction }) as EuiccProfileRow;

describe('eUICC screen helpers', () => {
  it('reads "ICCID,EID" lines and refuses a line that is not a pair', () => {
    expect(parsePairs('a,b\n\nc\td\n')).toEqual([{ iccid: 'a', eid: 'b' }, { iccid: 'c', eid: 'd' }]);
    expect(parsePairs('a,b\nc')).toBeNull();
    expect(iccidLines('1 2,2\n3')).toEqual(['1', '2', '3']);
  });

  it('offers only the actions the transition table allows, none while one is in flight', () => {
    expect(actionsFor(profile(S.Bound))).toEqual([EuiccAction.Download, EuiccAction.Delete]);
    expect(actionsFor(profile(S.Downloaded))).toEqual([EuiccAction.Enable, EuiccAction.Delete]);
    expect(actionsFor(profile(S.Enabled))).toEqual([EuiccAction.Disable]);
    expect(actionsFor(profile(S.Unbound))).toEqual([]);
    expect(actionsFor(profile(S.Downloaded, EuiccAction.Delete))).toEqual([]);
  });
});
