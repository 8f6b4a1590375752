/**
 * The signed-in user's two-step sign-in over HTTP (decision 0041): its state, and the changes —
 * start an enrolment, confirm it with a code, new recovery codes, turn it off. Each change but the
 * confirmation carries the current password; the server checks everything, these only ask.
 */
import { API_PATHS, type MfaEnrolment, type MfaStatus, type RecoveryCodesAnswer } from '@ninefold/model';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useHttp } from '../runtime/runtime';

/** The query key of the user's two-step state, per user: another's never shows. */
export const twoStepKey = (userId: string) => ['account', userId, 'two-step'] as const;

/**
 * Whether two-step sign-in is on, and how many recovery codes are left.
 *
 * @example const { data } = useTwoStep(user.id); data?.enabled
 */
export function useTwoStep(userId: string) {
  const http = useHttp();
  return useQuery({
    queryKey: twoStepKey(userId),
    queryFn: ({ signal }) => http.get<MfaStatus>(API_PATHS.mfa, { signal }),
  });
}

/**
 * The changes, each refreshing the state when done.
 *
 * @example const { enrol } = useTwoStepChanges(user.id); enrol.mutate({ currentPassword });
 */
export function useTwoStepChanges(userId: string) {
  const http = useHttp();
  const client = useQueryClient();
  const onSettled = () => client.invalidateQueries({ queryKey: twoStepKey(userId) });
  return {
    enrol: useMutation({
      mutationFn: (body: { currentPassword: string }) =>
        http.request<MfaEnrolment>('POST', API_PATHS.mfa, { body }),
    }),
    confirm: useMutation({
      mutationFn: (body: { code: string; endOtherSessions: boolean }) =>
        http.request<RecoveryCodesAnswer>('POST', API_PATHS.mfaConfirm, { body }),
      onSettled,
    }),
    replaceCodes: useMutation({
      mutationFn: (body: { currentPassword: string }) =>
        http.request<RecoveryCodesAnswer>('POST', API_PATHS.recoveryCodes, { body }),
      onSettled,
    }),
    disable: useMutation({
      mutationFn: (body: { currentPassword: string; endOtherSessions: boolean }) =>
        http.request<void>('DELETE', API_PATHS.mfa, { body }),
      onSettled,
    }),
  };
}
