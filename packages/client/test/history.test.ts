import { type Location, UNSAFE_createBrowserHistory, UNSAFE_createMemoryHistory } from 'react-router';
import { describe, expect, it } from 'vitest';
import { type GuardedHistory, guardHistory } from '../src/app/history';

/** A history whose listener records what the router would render, and a blocker that holds all but `/free`. */
function guarded(history: GuardedHistory) {
  const rendered: string[] = [];
  history.listen(({ location }) => rendered.push(location.pathname));
  const waiting: (() => void)[] = [];
  const unblock = history.block({
    shouldBlock: (next: Location) => next.pathname !== '/free',
    blocked: (retry) => waiting.push(retry),
  });
  return { rendered, waiting, unblock };
}

const popped = () => new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));

describe('a guarded history', () => {
  it('holds a link or a redirect until the user goes on, and lets unblocked ones through', () => {
    const history = guardHistory(UNSAFE_createMemoryHistory({ initialEntries: ['/form'], v5Compat: true }));
    const { rendered, waiting, unblock } = guarded(history);

    history.push('/list');
    expect(rendered).toEqual([]);
    expect(history.location.pathname).toBe('/form');
    waiting.shift()?.();
    expect(rendered).toEqual(['/list']);

    history.replace('/other');
    history.push('/free');
    expect(rendered).toEqual(['/list', '/free']);
    expect(waiting).toHaveLength(1);

    unblock();
    history.push('/after');
    expect(rendered).toEqual(['/list', '/free', '/after']);
  });

  it('undoes back and forward while the question is asked, and redoes them if the user goes on', () => {
    const history = guardHistory(
      UNSAFE_createMemoryHistory({ initialEntries: ['/list', '/form'], v5Compat: true }),
    );
    const { rendered, waiting } = guarded(history);

    history.go(-1);
    expect(rendered).toEqual([]);
    expect(history.location.pathname).toBe('/form');
    // the user stays: nothing more happens
    waiting.shift();
    history.go(-1);
    expect(history.location.pathname).toBe('/form');
    waiting.shift()?.();
    expect(rendered).toEqual(['/list']);
    expect(history.location.pathname).toBe('/list');
    expect(waiting).toEqual([]);
  });

  it('does the same with the browser’s own back button', async () => {
    window.history.replaceState(null, '', '/list');
    const history = guardHistory(UNSAFE_createBrowserHistory({ v5Compat: true }));
    const { rendered, waiting, unblock } = guarded(history);
    history.push('/form');
    waiting.shift()?.();
    expect(rendered).toEqual(['/form']);

    window.history.back();
    await popped(); // the back button
    await popped(); // the guard going forward again
    expect(rendered).toEqual(['/form']);
    expect(window.location.pathname).toBe('/form');

    waiting.shift()?.();
    await popped();
    expect(rendered).toEqual(['/form', '/list']);
    expect(window.location.pathname).toBe('/list');
    unblock();
  });
});
