import { describe, expect, it } from 'vitest';
import { Operator } from './system.ts';
import { PlanOperationMode, testQuotaMaxKb, UNICOM_STANDARD_TEST_QUOTA_KB_MAX } from './plan.ts';

describe('testQuotaMaxKb (spec §9: standard-version China Unicom test plan limit 1024 KB)', () => {
  it.each([
    [Operator.ChinaUnicom, PlanOperationMode.Standard, 1024],
    [Operator.ChinaUnicom, PlanOperationMode.Professional, null],
    [Operator.ChinaTelecom, PlanOperationMode.Standard, null],
    [Operator.ChinaMobile, PlanOperationMode.Standard, null],
    [undefined, PlanOperationMode.Standard, null],
    [Operator.ChinaUnicom, null, null],
  ])('operator %s, mode %s → %s', (operatorId, mode, max) => {
    expect(testQuotaMaxKb(operatorId, mode)).toBe(max);
  });

  it('is 1024 KB', () => {
    expect(UNICOM_STANDARD_TEST_QUOTA_KB_MAX).toBe(1024);
  });
});
