/**
 * The pages' side of the live bus (decision 0060): a component hears each burst of live news while
 * it is mounted. Apart from the bus so that the stream's chunk does not import React Query's hooks.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { type LiveListener, listenLive } from './live-bus';

/**
 * Calls `listener` with each burst of live news while the component is mounted.
 *
 * @example useLiveNews((news) => { if (news.resync) setHeld(new Set()); });
 */
export function useLiveNews(listener: LiveListener): void {
  const client = useQueryClient();
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => listenLive(client, (news) => latest.current(news)), [client]);
}
