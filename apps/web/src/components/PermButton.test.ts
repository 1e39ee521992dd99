import { describe, expect, it } from 'vitest';
import { holds } from './PermButton.tsx';

describe('holds', () => {
  const codes = new Set([1000002, 14040000]);
  it('needs nothing when no permission is given', () => {
    expect(holds(codes, undefined)).toBe(true);
    expect(holds(codes, null)).toBe(true);
  });
  it('checks a single code', () => {
    expect(holds(codes, 1000002)).toBe(true);
    expect(holds(codes, 1000003)).toBe(false);
  });
  it('accepts any code of an endpoint list, and refuses an empty list', () => {
    expect(holds(codes, [1000003, 1000002])).toBe(true);
    expect(holds(codes, [8020000, 1000003])).toBe(false);
    expect(holds(codes, [])).toBe(false);
  });
});
