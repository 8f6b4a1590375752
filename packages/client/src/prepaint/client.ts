/**
 * The browser's side of the server's drawing of a list's first rows (decision 0018, `./server.tsx`):
 * the query cache the drawing was made from, which the app starts with, and the drawing's removal
 * once the app shows the same screen itself. The drawing is laid over the app's root, so the app
 * renders underneath it as it always does, and the user sees one picture throughout.
 */
import { DEVICE_SETTINGS_COOKIE, PRERENDER_MOUNT_ID, STATE_SCRIPT_ID } from '@ninefold/model';
import { type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useLayoutEffect } from 'react';

/** The queries a drawing was made from: each one's key, data, and when the server had it. */
export type DrawnQueries = readonly { readonly key: QueryKey; readonly data: unknown; readonly at: number }[];

/**
 * Puts the queries the server drew the page from into the app's cache, as if the app had asked
 * for them at the time the server did; answers whether the page came with a drawing.
 */
export function startFromDrawing(client: QueryClient): boolean {
  const element = document.getElementById(STATE_SCRIPT_ID);
  if (element?.textContent == null || element.textContent === '') return false;
  let queries: DrawnQueries;
  try {
    queries = JSON.parse(element.textContent) as DrawnQueries;
  } catch {
    return false; // the app then asks for what it needs, as it does without a drawing
  }
  for (const { key, data, at } of queries) client.setQueryData(key, data, { updatedAt: at });
  return true;
}

/** Removes the drawing: the app shows the screen now, or another one. */
export function releaseDrawing(): void {
  document.getElementById(PRERENDER_MOUNT_ID)?.remove();
}

/**
 * Removes the drawing in the commit that puts the app's own version of the screen on the page, so
 * that no frame shows neither (a layout effect runs before the browser paints).
 */
export function ReleaseDrawing(): null {
  useLayoutEffect(releaseDrawing, []);
  return null;
}

/** Mantine's key for the colour scheme the user chose (`localStorageColorSchemeManager`). */
const COLOR_SCHEME_KEY = 'mantine-color-scheme-value';

/**
 * Tells the server whether this browser shows screens otherwise than the spec does: columns hidden
 * on a list, a colour scheme other than the product's. The server cannot see those settings (they
 * live in localStorage), so it draws no screen for such a browser rather than one the app would
 * then redraw differently.
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
