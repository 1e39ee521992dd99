import type { ComponentType } from 'react';

type Load = () => Promise<{ default: ComponentType }>;
const loaded = new Map<Load, ComponentType>();

/**
 * Starts a chunk (a page, the shell) and notes its component when it is in, so LazyPage can render it at once instead
 * of through React.lazy, which suspends on its first render even when the chunk is already there: a page that shows
 * its spinner for a moment is then revealed only up to 300 ms after that spinner (React throttles Suspense reveals),
 * which made the card list from the menu take ~520 ms with its data there after ~110 ms.
 */
export function preloadPage(load: Load): Promise<void> {
  return load().then((m) => {
    loaded.set(load, m.default);
  });
}

/** The component of a chunk that preloadPage (or an earlier render) has seen loaded. */
export const loadedPage = (load: Load): ComponentType | undefined => loaded.get(load);
