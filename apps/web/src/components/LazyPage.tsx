import { Component, lazy, Suspense, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { Button, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PageModule } from '../routes/types.ts';
import { loadedPage, preloadPage } from '../routes/loaded.ts';

export const CHUNK_TIMEOUT_MS = 120_000;

export class ChunkLoadError extends Error {
  override name = 'ChunkLoadError';
}

/** A page chunk that has not loaded within 120 s is reported as a chunk load error (spec §8). */
export function withTimeout(load: () => Promise<PageModule>, ms = CHUNK_TIMEOUT_MS): () => Promise<PageModule> {
  return () =>
    new Promise<PageModule>((resolve, reject) => {
      const timer = setTimeout(() => reject(new ChunkLoadError(`chunk load timed out after ${ms} ms`)), ms);
      load().then(
        (m) => {
          clearTimeout(timer);
          resolve(m);
        },
        (e) => {
          clearTimeout(timer);
          reject(new ChunkLoadError(String(e?.message ?? e)));
        },
      );
    });
}

const cache = new Map<() => Promise<PageModule>, ComponentType>();
function lazyOf(load: () => Promise<PageModule>, attempt: number): ComponentType {
  if (attempt === 0 && cache.has(load)) return cache.get(load)!;
  const C = lazy(withTimeout(() => preloadPage(load).then(load)));
  cache.set(load, C);
  return C;
}

class Boundary extends Component<{ fallback: (error: Error, retry: () => void) => ReactNode; onRetry: () => void; children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    if (this.state.error) {
      return this.props.fallback(this.state.error, () => {
        this.setState({ error: null });
        this.props.onRetry();
      });
    }
    return this.props.children;
  }
}

function ErrorResult({ error, retry }: { error: Error; retry: () => void }) {
  const { t } = useTranslation();
  const chunk = error instanceof ChunkLoadError;
  return (
    <Result
      status={chunk ? 'warning' : 'error'}
      title={chunk ? t('common.chunkLoadError') : t('common.pageError')}
      subTitle={chunk ? undefined : error.message}
      extra={<Button type="primary" onClick={retry}>{t('common.retry')}</Button>}
    />
  );
}

/** Loads a page chunk with a spinner, the 120 s timeout and a retry on failure. */
export function LazyPage({ load }: { load: () => Promise<PageModule> }) {
  const [attempt, setAttempt] = useState(0);
  // a chunk already in renders at once (no suspension, no spinner); chosen once per attempt, so a page is never
  // remounted by switching from the lazy to the loaded component
  const Page = useMemo(() => (attempt === 0 && loadedPage(load)) || lazyOf(load, attempt), [load, attempt]);
  return (
    <Boundary key={attempt} onRetry={() => setAttempt((a) => a + 1)} fallback={(error, retry) => <ErrorResult error={error} retry={retry} />}>
      <Suspense fallback={<div style={{ padding: 64, textAlign: 'center' }}><Spin /></div>}>
        <Page />
      </Suspense>
    </Boundary>
  );
}
