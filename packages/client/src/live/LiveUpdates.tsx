/**
 * The signed-in app's one subscription to the live stream (decision 0060): mounted by the shell
 * while someone is signed in and the spec streams (`calls.realtime`), in a chunk of its own loaded
 * after the first paint. It opens the stream, hands its changes to the query cache, reads again
 * what is shown when the browser comes back online (the stream may have missed anything), and
 * closes the stream when unmounted: at sign-out, or when another user signs in.
 */
import { API_PATHS } from '@ninefold/model';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useRuntime } from '../runtime/runtime';
import { liveCache } from './live-cache';
import { browserEventSource, followStream } from './stream';

export default function LiveUpdates() {
  const { http, eventSource } = useRuntime();
  const client = useQueryClient();
  useEffect(() => {
    const open = eventSource ?? browserEventSource;
    if (open === null) return;
    const live = liveCache(client);
    const stream = followStream(open, http.url(API_PATHS.events), live);
    const online = () => live.resync();
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('online', online);
      stream.close();
      live.close();
    };
  }, [client, http, eventSource]);
  return null;
}
