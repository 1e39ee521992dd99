import { describe, it, expect, vi } from 'vitest';
import { ChunkLoadError, CHUNK_TIMEOUT_MS, withTimeout } from './LazyPage.tsx';

describe('page chunk loading', () => {
  it('gives up after 120 s with a chunk load error', async () => {
    expect(CHUNK_TIMEOUT_MS).toBe(120_000);
    vi.useFakeTimers();
    const never = withTimeout(() => new Promise(() => {}));
    const result = never().catch((e) => e);
    await vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS);
    const err = await result;
    expect(err).toBeInstanceOf(ChunkLoadError);
    vi.useRealTimers();
  });

  it('reports a failed import as a chunk load error and passes a loaded one through', async () => {
    const failed = await withTimeout(() => Promise.reject(new Error('Failed to fetch dynamically imported module')))().catch((e) => e);
    expect(failed).toBeInstanceOf(ChunkLoadError);
    const Page = () => null;
    await expect(withTimeout(() => Promise.resolve({ default: Page }))()).resolves.toEqual({ default: Page });
  });
});
