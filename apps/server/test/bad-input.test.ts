import { describe, it, expect } from 'vitest';
import { endpoints } from '@lynx/contract';
import { badInputSuite } from './bad-input-run.ts';

// the first half of the bad-input walk (bad-input-run.ts) and the bounds of the contract's request schemas
describe('request schemas of the contract', () => {
  it('bound every string, array, integer and number, so no input outgrows its column', () => {
    const unbounded: string[] = [];
    const walk = (s: Record<string, unknown>, path: string, e: string) => {
      if (s.type === 'string' && s.maxLength === undefined && s.pattern === undefined && s.format === undefined && s.const === undefined && !s.enum) unbounded.push(`${e} ${path}: string`);
      if (s.type === 'array' && s.maxItems === undefined) unbounded.push(`${e} ${path}: array`);
      if ((s.type === 'integer' || s.type === 'number') && (s.maximum === undefined || s.minimum === undefined)) unbounded.push(`${e} ${path}: ${s.type}`);
      for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, Record<string, unknown>>)) walk(v, `${path}.${k}`, e);
      for (const v of (s.anyOf ?? []) as Record<string, unknown>[]) walk(v, path, e);
      if (s.items) walk(s.items as Record<string, unknown>, `${path}[]`, e);
      for (const v of Object.values((s.patternProperties ?? {}) as Record<string, Record<string, unknown>>)) walk(v, `${path}{}`, e);
    };
    for (const e of endpoints) walk(e.body as unknown as Record<string, unknown>, '', e.name);
    expect(unbounded).toEqual([]);
  });
});

badInputSuite(0);
