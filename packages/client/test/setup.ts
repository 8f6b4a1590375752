import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import { loadMessageFormat } from '../src/runtime/messages';

// Mantine reads these browser APIs that jsdom lacks
window.matchMedia ??= (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  }) as MediaQueryList;

class NoResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver ??= NoResizeObserver;
window.HTMLElement.prototype.scrollIntoView ??= function scrollIntoView() {};
// Mantine's autosizing Textarea listens for web fonts loading
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => undefined, removeEventListener: () => undefined },
  });
}

// a screen's first render loads its code and asks the server: give it time on a busy machine
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
});

// the app loads the ICU compiler right after its first render; components here render at once
beforeAll(() => loadMessageFormat());
