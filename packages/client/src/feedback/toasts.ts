/**
 * The app's toasts: the short messages that confirm a write ("Claim created", "Claim moved to
 * Approved") with a link to its record, and offer Undo where the write can be reversed (decision
 * 0066). One store per app, held by the shell; any screen below it shows a toast through
 * `useToasts()`, and a toast outlives the component that showed it (a list row that left its list).
 */
import { createContext, useContext, useSyncExternalStore } from 'react';

/** What a toast offers to undo: its button's label, and the work, which says how it went. */
export interface ToastUndo {
  readonly label: string;
  /** Runs the reverse; resolves to what the toast says then, or rejects with what went wrong. */
  run(): Promise<string>;
}

export interface Toast {
  readonly id: number;
  /** One sentence: what happened. */
  readonly message: string;
  /** A second sentence, added later (the row left the list). */
  readonly note?: string | undefined;
  /** The record's page, named by the record's title. */
  readonly link?: { readonly to: string; readonly label: string } | undefined;
  readonly undo?: ToastUndo | undefined;
  readonly tone: 'success' | 'error';
}

export type NewToast = Omit<Toast, 'id' | 'tone'> & { readonly tone?: Toast['tone'] };

/** A toast once shown: what its author may still change about it. */
export interface ToastHandle {
  readonly id: number;
  update(changes: Partial<Omit<Toast, 'id'>>): void;
  dismiss(): void;
}

export interface ToastStore {
  show(toast: NewToast): ToastHandle;
  /** The handle of a toast shown before (a no-op once it is gone). */
  handle(id: number): ToastHandle;
  current(): readonly Toast[];
  subscribe(listener: () => void): () => void;
}

/**
 * How long a toast stays: long enough to read it and reach its Undo ("a few seconds"); a held
 * delete's Undo window too (`held-deletes.ts`).
 */
export const TOAST_MS = 8000;

/** At most this many toasts at once: a burst of writes keeps the newest. */
const MOST = 4;

/**
 * A store of toasts, newest last.
 *
 * @example const store = createToastStore(); store.show({ message: 'Claim created' });
 */
export function createToastStore(): ToastStore {
  let toasts: readonly Toast[] = [];
  let next = 1;
  const listeners = new Set<() => void>();
  const set = (value: readonly Toast[]) => {
    toasts = value;
    for (const listener of listeners) listener();
  };
  const handle = (id: number): ToastHandle => ({
    id,
    update: (changes) => set(toasts.map((t) => (t.id === id ? { ...t, ...changes } : t))),
    dismiss: () => set(toasts.filter((t) => t.id !== id)),
  });
  return {
    show(toast) {
      const id = next++;
      const added: Toast = { tone: 'success', ...toast, id };
      set([...toasts, added].slice(-MOST));
      return handle(id);
    },
    handle,
    current: () => toasts,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Outside a shell (a bare component in a test, the prerender) toasts go nowhere. */
const NOWHERE = createToastStore();

export const ToastContext = createContext<ToastStore>(NOWHERE);

/** The store the shell holds, to show a toast. */
export function useToasts(): ToastStore {
  return useContext(ToastContext);
}

/** The toasts shown now, for the toaster. */
export function useShownToasts(store: ToastStore): readonly Toast[] {
  return useSyncExternalStore(store.subscribe, store.current, store.current);
}
