import { describe, expect, it } from 'vitest';
import { ChannelBillState, formatSize } from '@lynx/contract';
import { isBusy, progressPercent, signedSize } from './shared.tsx';

describe('channel bill progress', () => {
  const at = (state: number, linesDone: number, totalLines: number) => progressPercent({ state, linesDone, totalLines });
  it('counts the stored lines up to 90 %, the reconciliation 95 %, done 100 %; none for a failed import', () => {
    expect(at(ChannelBillState.Importing, 0, 0)).toBe(0);
    expect(at(ChannelBillState.Importing, 500_000, 1_000_000)).toBe(45);
    expect(at(ChannelBillState.Importing, 1_000_000, 1_000_000)).toBe(90);
    expect(at(ChannelBillState.Reconciling, 1_000_000, 1_000_000)).toBe(95);
    expect(at(ChannelBillState.Reconciled, 1_000_000, 1_000_000)).toBe(100);
    expect(at(ChannelBillState.Failed, 0, 10)).toBeNull();
  });
  it('polls only while the job works on the bill', () => {
    expect([ChannelBillState.Importing, ChannelBillState.Reconciling, ChannelBillState.Reconciled, ChannelBillState.Failed].map((state) => isBusy({ state })))
      .toEqual([true, true, false, false]);
  });
  it('signs a difference, channel minus platform, in readable units', () => {
    expect(signedSize(1024 * 1024, formatSize)).toBe(`+${formatSize(1024 * 1024)}`);
    expect(signedSize(-2048, formatSize)).toBe(`-${formatSize(2048)}`);
    expect(signedSize(0, formatSize)).toBe('0');
    expect(signedSize(null, formatSize)).toBe('-');
  });
});
