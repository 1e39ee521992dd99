import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { batch } from '@lynx/contract';
import { chargesDowntime, downtimeRule, parseIccids, scopeFor, tabFilter, typesFor, type DowntimeFeePlan } from './scope.ts';
import { paramsOf } from './OperationFields.tsx';
import { batchFilters } from './BatchList.tsx';

const { BatchType, BatchPerm, BatchItemStatus, BatchVerdict } = batch;

describe('batch screens (pure)', () => {
  it('reads pasted ICCIDs split by lines, spaces, commas and semicolons, each once', () => {
    expect(parseIccids('89860000000000000001\n 89860000000000000002, 89860000000000000003；89860000000000000001\r\n\n')).toEqual([
      '89860000000000000001', '89860000000000000002', '89860000000000000003',
    ]);
    expect(parseIccids('   ')).toEqual([]);
  });

  it('sends only the parameters of the chosen type', () => {
    expect(paramsOf({ type: BatchType.StatusChange, action: 'deactivate', goodsReleaseId: 3, reason: '  ' })).toEqual({ type: 1, action: 'deactivate' });
    expect(paramsOf({ type: BatchType.Zone, zoneOp: 'block', targetKind: 'zone', zoneId: 7, networkType: 2, zonePlanId: 1 })).toEqual({
      type: 3, zoneOp: 'block', targetKind: 'zone', targetId: 7,
    });
    expect(paramsOf({ type: BatchType.Zone, zoneOp: 'permit', targetKind: 'network', zoneId: 7, networkType: 2 })).toMatchObject({ targetKind: 'network', targetId: 2 });
    expect(paramsOf({ type: BatchType.Labels, labelOp: 'replace' })).toEqual({ type: 4, labelOp: 'replace', labelIds: [] });
    expect(paramsOf({ type: BatchType.DataRecovery, action: 'activate', reason: ' 恢复 ' })).toEqual({ type: 5, reason: '恢复' });
    expect(paramsOf({ type: BatchType.Sms, content: 'REBOOT', action: 'activate', reason: ' ' })).toEqual({ type: 9, content: 'REBOOT' });
  });

  it('turns the list search into filters', () => {
    expect(batchFilters({ type: 2, state: 3, created: [dayjs('2026-11-01T08:00:00'), dayjs('2026-11-03T22:00:00')] })).toEqual({
      types: [2], state: 3, createdFrom: '2026-11-01', createdTo: '2026-11-03',
    });
    expect(batchFilters({ created: null })).toEqual({});
  });

  it('maps the detail route state to item filters', () => {
    expect(tabFilter('failed')).toEqual({ status: BatchItemStatus.Failed });
    expect(tabFilter('invalid')).toEqual({ verdict: BatchVerdict.Invalid });
    expect(tabFilter('all')).toEqual({});
  });

  it('offers the types the user holds a code for, and opens a batch where the user can see it', () => {
    const only = (...codes: number[]) => (p: number) => codes.includes(p);
    expect(typesFor('card', only(BatchPerm.CardBatch))).toEqual([BatchType.StatusChange, BatchType.Labels, BatchType.DataRecovery, BatchType.StandardCard]);
    expect(typesFor('card', only(BatchPerm.CardBatch, BatchPerm.ZoneChange, BatchPerm.BatchOrder))).toHaveLength(6);
    expect(typesFor('status', only(BatchPerm.BatchStatus))).toEqual([BatchType.StatusChange]);
    // batch SMS with its own button code (2030003, docs/sms.md)
    expect(typesFor('card', only(BatchPerm.CardBatch, BatchPerm.BatchSms))).toContain(BatchType.Sms);
    expect(typesFor('card', only(BatchPerm.CardBatch))).not.toContain(BatchType.Sms);
    expect(typesFor('recovery', only(BatchPerm.BatchStatus))).toEqual([]);
    expect(scopeFor(BatchType.DataRecovery, only(BatchPerm.DataRecovery))).toBe('recovery');
    expect(scopeFor(BatchType.DataRecovery, only(BatchPerm.CardBatch, BatchPerm.DataRecovery))).toBe('card');
  });

  it('picks the wording of the downtime rule from the plans that charge', () => {
    const plan = (downtimeFee: string, freeMonths: number): DowntimeFeePlan => ({ goodsReleaseId: 1, planName: 'p', cards: 1, downtimeFee, freeMonths, monthlyTotal: downtimeFee });
    expect(chargesDowntime(plan('0.01', 0))).toBe(true);
    expect(chargesDowntime(plan('0.00', 3))).toBe(false);
    expect(downtimeRule([])).toEqual({ key: 'none', n: 0 });
    // free plans say nothing about the rule, whatever their free months
    expect(downtimeRule([plan('0.00', 3), plan('0.00', 0)])).toEqual({ key: 'none', n: 0 });
    expect(downtimeRule([plan('3.00', 2), plan('1.10', 2), plan('0.00', 6)])).toEqual({ key: 'rule', n: 2 });
    expect(downtimeRule([plan('3.00', 1)])).toEqual({ key: 'ruleOne', n: 1 });
    expect(downtimeRule([plan('3.00', 0), plan('0.00', 1)])).toEqual({ key: 'ruleNoFree', n: 0 });
    expect(downtimeRule([plan('3.00', 0), plan('2.00', 1)])).toEqual({ key: 'ruleMixed', n: 0 });
  });
});
