import { describe, it, expect } from 'vitest';
import { apnProblem, canAddZone, fieldPath, usedElsewhere, zoneServicesProblem, zonesProblem, type ServiceOption } from './zones.ts';

const svc = (commservId: number, over: Partial<ServiceOption> = {}): ServiceOption => ({ commservId, name: `S${commservId}`, qosCount: 1, whitelistCount: 0, ...over });
const services = new Map([svc(1), svc(2), svc(3, { qosCount: 0, name: '无QoS' }), svc(4, { whitelistCount: 33, name: 'Wide' })].map((s) => [s.commservId, s]));
const many = Array.from({ length: 41 }, (_, i) => svc(100 + i));
const big = new Map([...services, ...many.map((s) => [s.commservId, s] as const)]);

describe('zone rules of the basic plan form', () => {
  it('allows ten zones and refuses the eleventh', () => {
    expect(canAddZone(new Array(9).fill({}))).toBe(true);
    expect(canAddZone(new Array(10).fill({}))).toBe(false);
    expect(zonesProblem(new Array(10).fill({}), 'en')).toBeNull();
    expect(zonesProblem(new Array(11).fill({}), 'en')).toBe('Zones: a plan has at most 10 zones');
  });

  it('allows four APNs and refuses the fifth', () => {
    expect(apnProblem([1, 2, 3, 4], 'en')).toBeNull();
    expect(apnProblem([1, 2, 3, 4, 5], 'zh')).toBe('APN：每个套餐最多选择 4 个 APN');
  });

  it('allows forty services in a zone and refuses the forty-first', () => {
    const ids = many.map((s) => s.commservId);
    expect(zoneServicesProblem([{ zoneName: 'A', commservIds: ids.slice(0, 40) }], 0, big, 'en')).toBeNull();
    expect(zoneServicesProblem([{ zoneName: 'A', commservIds: ids }], 0, big, 'en')).toBe('Zone "A": at most 40 communication services per zone');
  });

  it('refuses a service repeated in the zone or used by another zone', () => {
    const zones = [{ zoneName: 'A', commservIds: [1] }, { zoneName: 'B', commservIds: [2, 1] }];
    expect(zoneServicesProblem(zones, 1, services, 'zh')).toBe('区域“B”：请勿选择相同的通信服务（S1）');
    expect(zoneServicesProblem(zones, 0, services, 'en')).toBe('Zone "A": do not select the same communication service (S1)');
    expect(zoneServicesProblem([{ zoneName: 'C', commservIds: [2, 2] }], 0, services, 'en')).toContain('do not select the same communication service');
    expect(usedElsewhere(zones, 1)).toEqual(new Map([[1, 0]]));
  });

  it('refuses a service without QoS, an unknown one, and one with more than 32 addresses', () => {
    expect(zoneServicesProblem([{ zoneName: 'A', commservIds: [3] }], 0, services, 'en')).toBe('Zone "A": communication service "无QoS" has no QoS configured, select again');
    expect(zoneServicesProblem([{ zoneName: 'A', commservIds: [99] }], 0, services, 'en')).toBe('Zone "A": no such communication service (99)');
    expect(zoneServicesProblem([{ zoneName: 'A', commservIds: [4] }], 0, services, 'en')).toContain('more than 32');
    expect(zoneServicesProblem([{ zoneName: '', commservIds: [1, 2] }], 0, services, 'en')).toBeNull();
  });

  it('maps server field paths to form name paths', () => {
    expect(fieldPath('zones.1.commservIds')).toEqual(['zones', 1, 'commservIds']);
    expect(fieldPath('salePrice')).toEqual(['salePrice']);
  });
});
