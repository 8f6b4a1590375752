/**
 * Signing in and out. Apart from `session.ts`, which every page needs, so that TanStack Query's
 * mutation code loads with the sign-in page and the account menu, not with the first page.
 */
import { API_PATHS, type MfaChallengeAnswer, type SessionAnswer } from '@ninefold/model';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { useHttp } from '../runtime/runtime';
import { SESSION_KEY } from './session';
import { flushAll } from '../feedback/held-deletes';

/**
 * Signs in with a password. The answer is the session, or, for a user with two-step sign-in on, a
 * challenge for the second step (`SecondStep`), and no session yet.
 */
export function useSignIn() {
  const http = useHttp();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (credentials: { email: string; password: string }) =>
      http.request<SessionAnswer | MfaChallengeAnswer>('POST', API_PATHS.session, { body: credentials }),
    onSuccess: (answer) => {
      if ('user' in answer) signedIn(client, answer);
    },
  });
}

/**
 * Makes a session the app's: nothing another user's session cached stays.
 *
 * @example onSuccess: (answer) => signedIn(client, answer)
 */
export function signedIn(client: QueryClient, { user }: SessionAnswer): void {
  client.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
  client.setQueryData(SESSION_KEY, user);
}

export function useSignOut() {
  const http = useHttp();
  const client = useQueryClient();
  return useMutation({
    // a delete held for its Undo is sent while the session still stands
    mutationFn: async () => {
      await flushAll();
      return http.request<void>('DELETE', API_PATHS.session);
    },
    onSettled: () => {
      // nothing of one user's data stays in memory for the next
      client.clear();
      client.setQueryData(SESSION_KEY, null);
    },
  });
}
