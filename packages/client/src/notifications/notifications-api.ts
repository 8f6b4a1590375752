/**
 * The signed-in user's notifications over HTTP, cached by TanStack Query: the newest page with the
 * unread count (polled while the tab is visible, refreshed on focus and after the user's own
 * writes), marking one or all read, and the user's settings of which notifications they get.
 */
import {
  API_PATHS,
  type NotificationPage,
  type NotificationSetting,
  type WireNotification,
} from '@ninefold/model';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useHttp } from '../runtime/runtime';

/** How often the bell asks for new notifications while the tab is visible. */
export const NOTIFICATION_POLL_MS = 30_000;

/** How many of the newest notifications the bell lists. */
export const NOTIFICATIONS_LISTED = 20;

/** The query keys of notifications, per user so that another user's never shows. */
export const notificationKeys = {
  all: ['notifications'] as const,
  newest: (userId: string) => ['notifications', userId, 'newest'] as const,
  settings: (userId: string) => ['notifications', userId, 'settings'] as const,
};

/**
 * The user's newest notifications and how many are unread: polled every 30 s while the tab is
 * visible (TanStack Query pauses the interval in a hidden tab), and again when the tab shows or the
 * window gets focus (TanStack Query hears only the tab's visibility; coming back from another window
 * of the same screen is a focus).
 *
 * @example const { data } = useNewestNotifications(user.id); data?.unread
 */
export function useNewestNotifications(userId: string) {
  const http = useHttp();
  const queryClient = useQueryClient();
  useEffect(() => {
    const refresh = () => void queryClient.invalidateQueries({ queryKey: notificationKeys.newest(userId) });
    window.addEventListener('focus', refresh);
    return () => window.removeEventListener('focus', refresh);
  }, [queryClient, userId]);
  return useQuery({
    queryKey: notificationKeys.newest(userId),
    queryFn: ({ signal }) =>
      http.get<NotificationPage>(API_PATHS.notifications, {
        signal,
        query: { limit: String(NOTIFICATIONS_LISTED) },
      }),
    refetchInterval: NOTIFICATION_POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: 'always',
    staleTime: 0,
  });
}

/**
 * Refreshes the notifications after each of the user's own writes that succeeded: a write may
 * notify its own author (a role they hold), and the timers it set may have fired already.
 */
export function useRefreshAfterWrites(): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((event) => {
        if (event.type !== 'updated' || event.action.type !== 'success') return;
        // marking read refreshes the list itself; anything else the user wrote may have told them
        if (event.mutation.options.meta?.['notifications'] === true) return;
        void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
      }),
    [queryClient],
  );
}

/**
 * Marks one notification read, at once in the cache and then on the server.
 *
 * @example const markRead = useMarkRead(user.id); markRead.mutate(item);
 */
export function useMarkRead(userId: string) {
  const http = useHttp();
  const queryClient = useQueryClient();
  const key = notificationKeys.newest(userId);
  return useMutation({
    meta: { notifications: true },
    mutationFn: (item: WireNotification) =>
      http.request<unknown>('POST', `${API_PATHS.notifications}/${encodeURIComponent(item.id)}/read`),
    onMutate: (item) => {
      queryClient.setQueryData<NotificationPage>(key, (page) =>
        page === undefined ? page : readOne(page, item.id, new Date().toISOString()),
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

/**
 * Marks every notification of the user read.
 *
 * @example const markAll = useMarkAllRead(user.id); markAll.mutate();
 */
export function useMarkAllRead(userId: string) {
  const http = useHttp();
  const queryClient = useQueryClient();
  const key = notificationKeys.newest(userId);
  return useMutation({
    meta: { notifications: true },
    mutationFn: () => http.request<unknown>('POST', `${API_PATHS.notifications}/read`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

/** The page with one notification read (if it was not already). */
function readOne(page: NotificationPage, id: string, at: string): NotificationPage {
  const target = page.items.find((item) => item.id === id);
  if (target === undefined || target.readAt !== null) return page;
  return {
    ...page,
    items: page.items.map((item) => (item.id === id ? { ...item, readAt: at } : item)),
    unread: Math.max(0, page.unread - 1),
  };
}

/**
 * The user's settings: each notification of the spec, on or off, and whether it is mandatory.
 *
 * @example const { data: settings } = useNotificationSettings(user.id);
 */
export function useNotificationSettings(userId: string) {
  const http = useHttp();
  return useQuery({
    queryKey: notificationKeys.settings(userId),
    queryFn: ({ signal }) => http.get<NotificationSetting[]>(API_PATHS.notificationSettings, { signal }),
  });
}

/**
 * Turns one notification on or off; the answer (the settings as the server keeps them) replaces the
 * cached ones.
 *
 * @example const change = useChangeSetting(user.id); change.mutate({ notification: 'x', enabled: false });
 */
export function useChangeSetting(userId: string) {
  const http = useHttp();
  const queryClient = useQueryClient();
  const key = notificationKeys.settings(userId);
  return useMutation({
    meta: { notifications: true },
    mutationFn: (change: { notification: string; enabled: boolean }) =>
      http.request<NotificationSetting[]>('PUT', API_PATHS.notificationSettings, { body: [change] }),
    onSuccess: (settings) => queryClient.setQueryData(key, settings),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
