/**
 * Recent authentication in the app (decision 0042): a change the server refuses with
 * E_REAUTH_REQUIRED opens the "Confirm it's you" dialog, and once the user has confirmed, the same
 * change is made again. The dialog is its own chunk: it loads only when a change asks for it.
 */
import { type ReactNode, Suspense, useCallback, useState } from 'react';
import { ApiError } from '../api/http';
import { lazyComponent } from '../runtime/lazy';

const ConfirmIdentity = lazyComponent(() => import('./ConfirmIdentity').then((module) => module.default));

/**
 * Whether an error asks for the user to confirm who they are before the change is made.
 *
 * @example if (needsConfirmation(end.error)) … // no error alert: the dialog asks instead
 */
export function needsConfirmation(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'E_REAUTH_REQUIRED';
}

/**
 * The dialog and the way to ask for it: `retryAfterConfirmation(error, retry)` opens the dialog
 * when `error` is E_REAUTH_REQUIRED (true), and runs `retry` once the user has confirmed.
 *
 * @example
 * const confirm = useConfirmIdentity();
 * end.mutate(which, { onError: (error) => confirm.retryAfterConfirmation(error, () => end.mutate(which)) });
 * return <>{confirm.dialog}…</>;
 */
export function useConfirmIdentity(): {
  retryAfterConfirmation: (error: unknown, retry: () => void) => boolean;
  dialog: ReactNode;
} {
  const [retry, setRetry] = useState<(() => void) | null>(null);
  const retryAfterConfirmation = useCallback((error: unknown, again: () => void) => {
    if (!needsConfirmation(error)) return false;
    setRetry(() => again);
    return true;
  }, []);
  const dialog =
    retry === null ? null : (
      <Suspense fallback={null}>
        <ConfirmIdentity
          onConfirmed={() => {
            setRetry(null);
            retry();
          }}
          onCancel={() => setRetry(null)}
        />
      </Suspense>
    );
  return { retryAfterConfirmation, dialog };
}
