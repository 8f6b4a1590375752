/**
 * Whether the browser says it is online, as a hook: it learns of a lost connection before any
 * request fails, so a control that needs the network (a file's upload) can say so at once.
 */
import { useSyncExternalStore } from 'react';

function subscribe(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

const onlineNow = () => navigator.onLine;

/**
 * True while the browser is online (and while rendering on the server).
 *
 * @example const online = useOnline(); if (!online) return <Text>Files need the network.</Text>;
 */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, onlineNow, () => true);
}
