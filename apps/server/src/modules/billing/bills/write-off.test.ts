import { describe, it, expect } from 'vitest';
import { payableFen, splitWriteOff } from './write-off.ts';

describe('write-off arithmetic (spec §5)', () => {
  it.each([
    // [pre-deposit, grants, payable] in fen: only the part of pre-deposit above zero counts; credit never does
    [8000n, 3000n, 11000n],
    [0n, 3000n, 3000n],
    [-5000n, 3000n, 3000n],
    [-5000n, 0n, 0n],
    [1n, 0n, 1n],
  ])('pre-deposit %s + grants %s → payable %s', (preDeposit, grants, payable) => {
    expect(payableFen({ preDeposit, grants })).toBe(payable);
  });

  it.each([
    // [amount, grants, from grants, from pre-deposit]: grants first, the rest from pre-deposit
    [5000n, 3000n, 3000n, 2000n],
    [3000n, 3000n, 3000n, 0n],
    [2999n, 3000n, 2999n, 0n],
    [1n, 0n, 0n, 1n],
    [10000n, 0n, 0n, 10000n],
  ])('%s with grants %s → %s from grants, %s from pre-deposit', (fen, grants, fromGrants, fromPreDeposit) => {
    expect(splitWriteOff(fen, grants)).toEqual({ fromGrants, fromPreDeposit });
  });
});
