/**
 * Code loaded on demand: every chunk the app asks for after its first one goes through here. What it
 * buys is a smaller first chunk — the first page loads the shell and the screen it opens on, not the
 * engine's CEL evaluator, the ICU compiler, the other screens, the menus or the icons' paths — and,
 * for what start-up asks for early (a screen's code, the sign-in page, the decisions), no second wait
 * once it is here: it is read at once instead of through a suspended render.
 *
 * - `onDemand`: a module (or a value from it), loaded once; asked for again after a failure, so that
 *   a retry can succeed; readable synchronously once here, also by React's `use()`.
 * - `onDemandComponent`: a component from such a module that renders at once once its code is here
 *   (a `React.lazy` component suspends on its first render even then, and the fallback's frame and
 *   React's throttling of revealed content delay it by as much as a few hundred ms).
 * - `lazyComponent`: `React.lazy` itself, for what comes after the first frame on purpose (menus,
 *   choosers, help): it always shows its fallback first.
 */
import { type ComponentType, type FunctionComponent, createElement, lazy } from 'react';

/** A promise marked as React's `use()` reads it: once fulfilled, read at once, without suspending. */
type Tracked<T> = Promise<T> & { status?: 'fulfilled'; value?: T };

/** Code loaded once, on demand. */
export interface OnDemand<T> {
  /** Starts loading (once; again after a failure); settles when the code is here. */
  load(): Promise<T>;
  /** What was loaded, or null until it is here. */
  current(): T | null;
}

/**
 * Code loaded once, when first asked for.
 *
 * @example const decisions = onDemand(() => import('./decisions')); use(decisions.load())
 */
export function onDemand<T>(load: () => Promise<T>): OnDemand<T> {
  let loading: Tracked<T> | undefined;
  return {
    load() {
      if (loading === undefined) {
        const promise: Tracked<T> = load().catch((error: unknown) => {
          loading = undefined;
          throw error;
        });
        void promise.then(
          (value) => Object.assign(promise, { status: 'fulfilled', value }),
          () => undefined,
        );
        loading = promise;
      }
      return loading;
    },
    current: () => (loading?.status === 'fulfilled' ? (loading.value as T) : null),
  };
}

/** A component whose code loads on demand, and renders at once once it is here. */
export interface OnDemandComponent<P extends object> extends OnDemand<ComponentType<P>> {
  /** The component: suspends while its code loads (the first time), renders it directly after. */
  readonly View: FunctionComponent<P>;
}

/**
 * A component loaded on demand that, once its code is here (asked for ahead by `load`), renders
 * without suspending.
 *
 * @example const screen = onDemandComponent(() => import('./list/ListScreen').then((m) => m.default));
 * screen.load(); <screen.View screen={s} />
 */
export function onDemandComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
): OnDemandComponent<P> {
  const code = onDemand(load);
  const Lazy = lazy(() => code.load().then((component) => ({ default: component })));
  return {
    ...code,
    View(props: P) {
      return createElement(code.current() ?? Lazy, props);
    },
  };
}

/**
 * A component that comes after the first frame: React's `lazy`, shown by its Suspense fallback
 * first even when its code is already here.
 *
 * @example const UserMenu = lazyComponent(() => import('./UserMenu').then((m) => m.default));
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  return lazy(() => load().then((component) => ({ default: component })));
}
