/**
 * The signed-in user: who they are, their roles, and their User record as rules see it. A 401 on
 * any request empties the session, and the app goes back to sign-in.
 */
import { API_PATHS, type SessionAnswer, type SessionUser } from '@ninefold/model';
import { useQuery } from '@tanstack/react-query';
import { ApiError, type Http } from '../api/http';
import { useHttp } from '../runtime/runtime';

export const SESSION_KEY = ['session'] as const;

/** Who is signed in: the user, or `null` when nobody is (a 401 is an answer, not a failure). */
export async function fetchSession(http: Http, signal?: AbortSignal): Promise<SessionUser | null> {
  try {
    const body = await http.get<SessionAnswer>(API_PATHS.session, signal === undefined ? {} : { signal });
    return body.user;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** The session, `null` when nobody is signed in; `undefined` while it loads. */
export function useSession() {
  const http = useHttp();
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: ({ signal }) => fetchSession(http, signal),
    staleTime: 60_000,
  });
}

/** The signed-in user; only inside the signed-in part of the app. */
export function useUser(): SessionUser {
  const { data } = useSession();
  if (data === undefined || data === null) throw new Error('useUser() needs a signed-in user.');
  return data;
}
