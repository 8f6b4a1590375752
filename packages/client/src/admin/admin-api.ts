/**
 * The admin area's data over HTTP, cached by TanStack Query: the jobs (by state), the webhook
 * deliveries and the development mail outbox, and the two things an admin may do — retry a dead
 * job, send a delivery again. The server decides who is an admin; these only ask.
 */
import { API_PATHS, type JobState, type WireDelivery, type WireJob, type WireMail } from '@ninefold/model';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useHttp } from '../runtime/runtime';

/** The most rows a page of the admin area asks for. */
export const ADMIN_LIST_LIMIT = 200;

/** The query keys of the admin area, under one root so that a change refreshes all of it. */
export const adminKeys = {
  all: ['admin'] as const,
  jobs: (state: JobState | null) => ['admin', 'jobs', state ?? 'all'] as const,
  deliveries: ['admin', 'deliveries'] as const,
  mail: ['admin', 'mail'] as const,
};

/**
 * The jobs, newest first, of one state or of all.
 *
 * @example const { data: jobs } = useJobs('dead');
 */
export function useJobs(state: JobState | null) {
  const http = useHttp();
  return useQuery({
    queryKey: adminKeys.jobs(state),
    queryFn: ({ signal }) =>
      http
        .get<{ data: WireJob[] }>(API_PATHS.jobs, {
          signal,
          query: { limit: String(ADMIN_LIST_LIMIT), ...(state === null ? {} : { state }) },
        })
        .then((page) => page.data),
  });
}

/**
 * Gives a dead job its attempts back; the lists refresh after.
 *
 * @example const retry = useRetryJob(); retry.mutate(job.id);
 */
export function useRetryJob() {
  const http = useHttp();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      http.request<WireJob>('POST', `${API_PATHS.jobs}/${encodeURIComponent(id)}/retry`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/**
 * The webhook deliveries, newest first.
 *
 * @example const { data: deliveries } = useDeliveries();
 */
export function useDeliveries() {
  const http = useHttp();
  return useQuery({
    queryKey: adminKeys.deliveries,
    queryFn: ({ signal }) =>
      http
        .get<{ data: WireDelivery[] }>(API_PATHS.webhookDeliveries, {
          signal,
          query: { limit: String(ADMIN_LIST_LIMIT) },
        })
        .then((page) => page.data),
  });
}

/**
 * Sends a delivery again; the lists refresh after.
 *
 * @example const resend = useResendDelivery(); resend.mutate(delivery.id);
 */
export function useResendDelivery() {
  const http = useHttp();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      http.request<unknown>('POST', `${API_PATHS.webhookDeliveries}/${encodeURIComponent(id)}/resend`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/**
 * The mail kept in the development outbox, newest first.
 *
 * @example const { data: mail } = useMailOutbox();
 */
export function useMailOutbox() {
  const http = useHttp();
  return useQuery({
    queryKey: adminKeys.mail,
    queryFn: ({ signal }) =>
      http
        .get<{ data: WireMail[] }>(API_PATHS.mailOutbox, {
          signal,
          query: { limit: String(ADMIN_LIST_LIMIT) },
        })
        .then((page) => page.data),
  });
}
