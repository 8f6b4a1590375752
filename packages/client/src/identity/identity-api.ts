/**
 * Identity over HTTP (decision 0035's routes, decision 0040's pages): one-time links, sign-up,
 * password reset, the signed-in user's password, sessions and API tokens, and the invitations and
 * audit trail of those who look after users. The server decides everything; these only ask. Every
 * answer that signs someone in sets the session as signing in with a password does.
 */
import {
  API_PATHS,
  type AuthEventKind,
  type InvitationAnswer,
  type MfaChallengeAnswer,
  type NewTokenAnswer,
  type SessionAnswer,
  type WireAuthEvent,
  type WireInvitation,
  type WireLink,
  type WireSession,
  type WireToken,
} from '@ninefold/model';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SESSION_KEY } from '../auth/session';
import { useHttp } from '../runtime/runtime';

/** The query keys of identity, under one root so that a change refreshes all of it. */
export const identityKeys = {
  all: ['identity'] as const,
  sessions: ['identity', 'sessions'] as const,
  tokens: ['identity', 'tokens'] as const,
  invitations: ['identity', 'invitations'] as const,
  authEvents: (kind: AuthEventKind | null) => ['identity', 'auth-events', kind ?? 'all'] as const,
};

/** The most rows a list of identity asks for. */
export const IDENTITY_LIST_LIMIT = 200;

/** Someone was just signed in: nothing of anyone else stays cached, and the session is theirs. */
function signedIn(client: QueryClient, answer: SessionAnswer): void {
  client.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
  client.setQueryData(SESSION_KEY, answer.user);
}

const path = (base: string, id: string) => `${base}/${encodeURIComponent(id)}`;

/**
 * What a one-time link is for, asked once per token; a used, expired or unknown link fails with
 * its catalogue error (E_LINK_USED, E_LINK_EXPIRED, E_LINK_INVALID).
 *
 * @example const link = useInspectLink(token); link.data?.purpose // 'invitation'
 */
export function useInspectLink(token: string | null) {
  const http = useHttp();
  return useQuery({
    queryKey: ['identity', 'link', token],
    queryFn: ({ signal }) => http.request<WireLink>('POST', API_PATHS.links, { body: { token }, signal }),
    enabled: token !== null,
    retry: false,
    staleTime: Infinity,
  });
}

/** The route that uses a link of each purpose, relative to the API's base path. */
const LINK_ROUTES = {
  invitation: `${API_PATHS.invitations}/accept`,
  'sign-up': `${API_PATHS.signUps}/verify`,
  'password-reset': `${API_PATHS.passwordResets}/complete`,
} as const;

/**
 * Uses a one-time link: sets the invitee's password, confirms a sign-up's address, or sets a new
 * password after a reset; each signs the person in, or answers the second step's challenge
 * (a user with two-step sign-in on, or whom the spec requires to turn it on), and no session yet.
 *
 * @example useLink().mutate({ purpose: 'invitation', token, password })
 */
export function useLink() {
  const http = useHttp();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { purpose: keyof typeof LINK_ROUTES; token: string; password?: string }) =>
      http.request<SessionAnswer | MfaChallengeAnswer>('POST', LINK_ROUTES[input.purpose], {
        body:
          input.password === undefined
            ? { token: input.token }
            : { token: input.token, password: input.password },
      }),
    onSuccess: (answer) => {
      if ('user' in answer) signedIn(client, answer);
    },
  });
}

/**
 * Asks for an account; the server answers 202 whatever the address, and mails a link to check it.
 *
 * @example useSignUp().mutate({ name, email, password })
 */
export function useSignUp() {
  const http = useHttp();
  return useMutation({
    mutationFn: (input: { name: string; email: string; password: string }) =>
      http.request<unknown>('POST', API_PATHS.signUps, { body: input }),
  });
}

/**
 * Asks for a password reset link; the server answers 202 whatever the address.
 *
 * @example useRequestPasswordReset().mutate({ email })
 */
export function useRequestPasswordReset() {
  const http = useHttp();
  return useMutation({
    mutationFn: (input: { email: string }) =>
      http.request<unknown>('POST', API_PATHS.passwordResets, { body: input }),
  });
}

/**
 * Changes the signed-in user's password; their sessions elsewhere end, so the list refreshes.
 *
 * @example useChangePassword().mutate({ currentPassword, password })
 */
export function useChangePassword() {
  const http = useHttp();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { currentPassword: string; password: string }) =>
      http.request<unknown>('PUT', API_PATHS.password, { body: input }),
    onSettled: () => client.invalidateQueries({ queryKey: identityKeys.sessions }),
  });
}

/**
 * The signed-in user's sessions, this one marked `current`.
 *
 * @example const { data: sessions } = useSessions();
 */
export function useSessions() {
  const http = useHttp();
  return useQuery({
    queryKey: identityKeys.sessions,
    queryFn: ({ signal }) =>
      http.get<{ data: WireSession[] }>(API_PATHS.sessions, { signal }).then((page) => page.data),
  });
}

/**
 * Ends one of the signed-in user's sessions (`id`), or every one but this (`others`).
 *
 * @example useEndSessions().mutate({ id: session.id }); useEndSessions().mutate('others')
 */
export function useEndSessions() {
  const http = useHttp();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (which: { readonly id: string } | 'others') =>
      http.request<void>(
        'DELETE',
        which === 'others' ? API_PATHS.sessions : path(API_PATHS.sessions, which.id),
      ),
    onSettled: () => client.invalidateQueries({ queryKey: identityKeys.sessions }),
  });
}

/**
 * Proves a factor again on this session (decision 0042): the password, or a code when two-step
 * sign-in is on. The changes that answered E_REAUTH_REQUIRED may then be made for ten minutes.
 *
 * @example useConfirmSession().mutate({ password })
 */
export function useConfirmSession() {
  const http = useHttp();
  return useMutation({
    mutationFn: (proof: { password: string } | { code: string }) =>
      http.request<void>('POST', API_PATHS.sessionConfirm, { body: proof }),
  });
}

/**
 * Changes the signed-in user's e-mail address; the session (which shows it) is read again.
 *
 * @example useChangeEmail().mutate({ email })
 */
export function useChangeEmail() {
  const http = useHttp();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string }) =>
      http.request<void>('PUT', API_PATHS.accountEmail, { body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: SESSION_KEY }),
  });
}

/**
 * The signed-in user's API tokens, never the tokens themselves.
 *
 * @example const { data: tokens } = useTokens();
 */
export function useTokens() {
  const http = useHttp();
  return useQuery({
    queryKey: identityKeys.tokens,
    queryFn: ({ signal }) =>
      http.get<{ data: WireToken[] }>(API_PATHS.tokens, { signal }).then((page) => page.data),
  });
}

/**
 * Makes an API token; its answer carries the token, this once.
 *
 * @example useCreateToken().mutate({ name: 'Nightly export', roles: ['integration'], expiresAt })
 */
export function useCreateToken() {
  const http = useHttp();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; roles: readonly string[]; expiresAt: string }) =>
      http.request<NewTokenAnswer>('POST', API_PATHS.tokens, { body: input }),
    onSettled: () => client.invalidateQueries({ queryKey: identityKeys.tokens }),
  });
}

/**
 * Revokes one of the signed-in user's API tokens.
 *
 * @example useRevokeToken().mutate(token.id)
 */
export function useRevokeToken() {
  const http = useHttp();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => http.request<void>('DELETE', path(API_PATHS.tokens, id)),
    onSettled: () => client.invalidateQueries({ queryKey: identityKeys.tokens }),
  });
}

/**
 * The invitations, newest first (for those who may create users).
 *
 * @example const { data: invitations } = useInvitations();
 */
export function useInvitations() {
  const http = useHttp();
  return useQuery({
    queryKey: identityKeys.invitations,
    queryFn: ({ signal }) =>
      http
        .get<{ data: WireInvitation[] }>(API_PATHS.invitations, {
          signal,
          query: { limit: String(IDENTITY_LIST_LIMIT) },
        })
        .then((page) => page.data),
  });
}

/**
 * Invites a user again: a new link, mailed or answered once; the earlier link stops working.
 *
 * @example useResendInvitation().mutate(invitation.user)
 */
export function useResendInvitation() {
  const http = useHttp();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (user: string) =>
      http.request<InvitationAnswer>('POST', API_PATHS.invitations, { body: { user } }),
    onSettled: () => client.invalidateQueries({ queryKey: identityKeys.invitations }),
  });
}

/**
 * Revokes an invitation: its link stops working.
 *
 * @example useRevokeInvitation().mutate(invitation.id)
 */
export function useRevokeInvitation() {
  const http = useHttp();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => http.request<void>('DELETE', path(API_PATHS.invitations, id)),
    onSettled: () => client.invalidateQueries({ queryKey: identityKeys.invitations }),
  });
}

/**
 * The identity audit trail, newest first, of one kind of event or of all (admins).
 *
 * @example const { data: events } = useAuthEvents('sign-in-failed');
 */
export function useAuthEvents(kind: AuthEventKind | null) {
  const http = useHttp();
  return useQuery({
    queryKey: identityKeys.authEvents(kind),
    queryFn: ({ signal }) =>
      http
        .get<{ data: WireAuthEvent[] }>(API_PATHS.authEvents, {
          signal,
          query: { limit: String(IDENTITY_LIST_LIMIT), ...(kind === null ? {} : { kind }) },
        })
        .then((page) => page.data),
  });
}
