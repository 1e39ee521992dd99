import '@testing-library/jest-dom/vitest';

// antd reads these browser APIs that jsdom lacks
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({ matches: false, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false }) as MediaQueryList;
}
if (!('ResizeObserver' in window)) {
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

// the tab strip scrolls the active tab into view
if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = function scrollIntoView() {};

// Testing Library cleans up automatically only with vitest globals: do it here
import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
afterEach(() => cleanup());

// findBy*/waitFor wait up to 1 s by default; on a busy 2-core CI machine antd's first renders take longer
import { configure } from '@testing-library/react';
configure({ asyncUtilTimeout: 5_000 });
