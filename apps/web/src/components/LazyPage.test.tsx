import { describe, it, expect, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { ChunkLoadError, CHUNK_TIMEOUT_MS, LazyPage, withTimeout } from './LazyPage.tsx';
import { preloadPage } from '../routes/loaded.ts';

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

describe('a page whose chunk is already in', () => {
  it('renders in the first commit, without a spinner (a suspended page is revealed up to 300 ms late)', async () => {
    const Ready = () => <p>rows</p>;
    const load = () => Promise.resolve({ default: Ready });
    await preloadPage(load);
    const { container } = render(<LazyPage load={load} />);
    // synchronously after render: no act() flush, no waiting
    expect(screen.getByText('rows')).toBeInTheDocument();
    expect(container.querySelector('.ant-spin')).toBeNull();
  });

  it('shows the spinner for a chunk not loaded yet, then the page', async () => {
    const Later = () => <p>later</p>;
    const { container } = render(<LazyPage load={() => Promise.resolve({ default: Later })} />);
    expect(container.querySelector('.ant-spin')).not.toBeNull();
    expect(await screen.findByText('later')).toBeInTheDocument();
  });
});
