/**
 * The app's history: React Router's own browser (or memory) history, with a way to hold a
 * navigation until the user has answered a question — what the data router's `useBlocker` does,
 * for the declarative `<Router>` the app renders (decision 0013). Links and `navigate()` go through
 * `push`/`replace`; the browser's back and forward buttons arrive as a POP, which is undone with
 * `go(-delta)` while the question is asked and redone if the user goes on.
 */
import { type Location, type Navigator, type To, type UNSAFE_createBrowserHistory } from 'react-router';

/** The history React Router's declarative routers use (`createBrowserHistory`, `createMemoryHistory`). */
export type History = ReturnType<typeof UNSAFE_createBrowserHistory>;
type Update = Parameters<Parameters<History['listen']>[0]>[0];

/** Decides whether a navigation to `next` must wait; `retry` carries it out later. */
export interface Blocker {
  shouldBlock(next: Location): boolean;
  blocked(retry: () => void): void;
}

export interface GuardedHistory extends Navigator {
  readonly action: History['action'];
  readonly location: Location;
  listen: History['listen'];
  /** Holds navigations the blocker refuses until it calls `retry`; returns the unblock function. */
  block(blocker: Blocker): () => void;
}

/**
 * Wraps a history so that navigations can be held.
 *
 * @example const history = guardHistory(UNSAFE_createBrowserHistory({ v5Compat: true }));
 */
export function guardHistory(inner: History): GuardedHistory {
  let blocker: Blocker | null = null;
  // the next update is one we caused: undoing a held POP, or carrying out one the user allowed
  let undoing = false;
  let allowed = false;

  const held = (next: Location): boolean => {
    if (allowed) {
      allowed = false;
      return false;
    }
    return blocker?.shouldBlock(next) ?? false;
  };
  const location = (to: To): Location => {
    const url = inner.createURL(to);
    return { pathname: url.pathname, search: url.search, hash: url.hash, state: null, key: '' };
  };

  return {
    get action() {
      return inner.action;
    },
    get location() {
      return inner.location;
    },
    createHref: (to) => inner.createHref(to),
    encodeLocation: (to) => inner.encodeLocation(to),
    go(delta) {
      // the POP this causes is checked when it arrives (see `listen`)
      inner.go(delta);
    },
    push(to, state) {
      const navigate = () => inner.push(to, state);
      if (held(location(to))) blocker?.blocked(navigate);
      else navigate();
    },
    replace(to, state) {
      const navigate = () => inner.replace(to, state);
      if (held(location(to))) blocker?.blocked(navigate);
      else navigate();
    },
    listen(listener) {
      return inner.listen((update: Update) => {
        if (undoing) {
          undoing = false;
          return;
        }
        // a POP of unknown distance (an entry from before the app) cannot be undone: it goes through
        if (update.action === 'POP' && update.delta !== null && update.delta !== 0 && held(update.location)) {
          const delta = update.delta;
          undoing = true;
          inner.go(-delta);
          blocker?.blocked(() => {
            allowed = true; // the POP this brings back goes through
            inner.go(delta);
          });
          return;
        }
        listener(update);
      });
    },
    block(next) {
      blocker = next;
      return () => {
        if (blocker === next) blocker = null;
      };
    },
  };
}
