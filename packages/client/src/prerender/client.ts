/**
 * The browser's side of the prerender of a list's first rows (decision 0018, `./server.tsx`):
 * the query cache the prerender was made from, which the app starts with, and the prerender's
 * removal once the app shows the same screen itself. The prerender is laid over the app's root, so
 * the app renders underneath it as it always does, and the user sees one picture throughout.
 */
import { DEVICE_SETTINGS_COOKIE, PRERENDER_MOUNT_ID, STATE_SCRIPT_ID } from '@ninefold/model';
import { type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useLayoutEffect } from 'react';
import type { EventCursors } from '../api/event-cursors';

/** The queries a prerender was made from: each one's key, data, and when the server had it. */
export type PrerenderedQueries = readonly {
  readonly key: QueryKey;
  readonly data: unknown;
  readonly at: number;
}[];

/**
 * Puts the queries the page was prerendered from into the app's cache, as if the app had asked
 * for them at the time the server did, and their live stream's cursor among the app's; answers
 * whether the page came with a prerender.
 */
export function startFromPrerender(client: QueryClient, cursors: EventCursors): boolean {
  const element = document.getElementById(STATE_SCRIPT_ID);
  if (element?.textContent == null || element.textContent === '') return false;
  let queries: PrerenderedQueries;
  try {
    queries = JSON.parse(element.textContent) as PrerenderedQueries;
  } catch {
    return false; // the app then asks for what it needs, as it does without a prerender
  }
  for (const { key, data, at } of queries) client.setQueryData(key, data, { updatedAt: at });
  // held as if the app had read it: from the cursor the server read it at, or from a moment unknown
  const cursor = element.dataset['eventCursor'];
  if (cursor === undefined) cursors.holdUnknown();
  else cursors.reading()(cursor);
  return true;
}

/** Removes the prerender: the app shows the screen now, or another one. */
export function releasePrerender(): void {
  document.getElementById(PRERENDER_MOUNT_ID)?.remove();
}

/**
 * Removes the prerender at once when it is in a language other than the app's `locale` (the server
 * knew the account's saved language and the browser's `Accept-Language`, not this browser's own
 * choice): the reader sees the app's first frame rather than one picture in two languages.
 */
export function releasePrerenderUnlessIn(locale: string): void {
  const mount = document.getElementById(PRERENDER_MOUNT_ID);
  if (mount !== null && mount.lang !== locale) mount.remove();
}

/**
 * Removes the prerender in the commit that puts the app's own version of the screen on the page, so
 * that no frame shows neither (a layout effect runs before the browser paints).
 */
export function ReleasePrerender(): null {
  useLayoutEffect(releasePrerender, []);
  return null;
}

/** Mantine's key for the colour scheme the user chose (`localStorageColorSchemeManager`). */
const COLOR_SCHEME_KEY = 'mantine-color-scheme-value';

/**
 * Tells the server whether this browser shows screens otherwise than the spec does: columns hidden
 * on a list, a colour scheme other than the product's. The server cannot see those settings (they
 * live in localStorage), so it prerenders no screen for such a browser rather than one the app
 * would then render differently.
 *
 * @example syncDeviceSettings(model.product.name, model.product.theme.colorScheme);
 */
export function syncDeviceSettings(product: string, colorScheme: string): void {
  try {
    const scheme = localStorage.getItem(COLOR_SCHEME_KEY);
    let own = scheme !== null && scheme !== colorScheme;
    for (let i = 0; !own && i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith(`ninefold:${product}:`) === true && key.endsWith(':hidden-columns'))
        own = (localStorage.getItem(key) ?? '[]') !== '[]';
    }
    document.cookie = own
      ? `${DEVICE_SETTINGS_COOKIE}=1; path=/; max-age=31536000; samesite=lax`
      : `${DEVICE_SETTINGS_COOKIE}=; path=/; max-age=0; samesite=lax`;
  } catch {
    // no storage (a private window may refuse it): no settings of its own either
  }
}
