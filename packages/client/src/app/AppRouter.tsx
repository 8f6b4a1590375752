/**
 * The declarative router over the app's own history (decision 0013): React Router's `<Router>` fed by
 * a history the app can hold navigations in, which is what `useNavigationBlocker` needs and what
 * the data router's `useBlocker` would otherwise bring with the whole data router.
 */
import {
  type ReactNode,
  createContext,
  startTransition,
  use,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { type Location, Router } from 'react-router';
import { releasePrerender } from '../prerender/client';
import { type GuardedHistory } from './history';

const HistoryContext = createContext<GuardedHistory | null>(null);

/** Renders the routes at the history's location, as React Router's `BrowserRouter` does. */
export function AppRouter({ history, children }: { history: GuardedHistory; children: ReactNode }) {
  const [state, setStateNow] = useState({ action: history.action, location: history.location });
  // navigations render in a transition, as React Router's own routers render them
  const setState = useCallback((next: typeof state) => startTransition(() => setStateNow(next)), []);
  useLayoutEffect(
    () =>
      history.listen((update) => {
        releasePrerender(); // the server drew the page the app opened on, not the next one
        setState(update);
      }),
    [history, setState],
  );
  return (
    <HistoryContext value={history}>
      <Router location={state.location} navigationType={state.action} navigator={history}>
        {children}
      </Router>
    </HistoryContext>
  );
}

export interface NavigationBlocker {
  /** Whether a navigation is waiting for `proceed` or `reset`. */
  readonly blocked: boolean;
  /** Carries out the waiting navigation. */
  proceed(): void;
  /** Drops the waiting navigation: the user stays. */
  reset(): void;
}

/**
 * Holds in-app navigations (links, `navigate()`, back and forward) that `shouldBlock` refuses until
 * the user decides, like the data router's `useBlocker`.
 *
 * @example const blocker = useNavigationBlocker((next) => dirty && next.pathname !== here.pathname);
 */
export function useNavigationBlocker(shouldBlock: (next: Location) => boolean): NavigationBlocker {
  const history = use(HistoryContext);
  const [retry, setRetry] = useState<(() => void) | null>(null);
  const check = useRef(shouldBlock);
  useLayoutEffect(() => {
    check.current = shouldBlock;
  });
  useEffect(
    () =>
      history?.block({
        shouldBlock: (next) => check.current(next),
        blocked: (navigate) => setRetry(() => navigate),
      }),
    [history],
  );
  return {
    blocked: retry !== null,
    proceed() {
      setRetry(null);
      retry?.();
    },
    reset: () => setRetry(null),
  };
}
