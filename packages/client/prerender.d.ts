/**
 * The types of `@ninefold/client/prerender`: the client's own components rendering a list's first
 * rows outside the browser (decision 0018). Its code is `src/prerender/server.tsx`, built by
 * `vite build --ssr` into `dist-ssr/server.js` (package.json's exports); this declaration is its
 * contract with the packages that import the build (`@ninefold/web`), and the source is held to it
 * (`server.tsx` implements these types).
 */
import { type Model } from '@ninefold/model';

export interface PrerenderRequest {
  readonly model: Model;
  /** The address navigated to: path and query string. */
  readonly url: string;
  /** Answers the app's API requests as the user who navigated (the server's own routes, in process). */
  readonly fetch: typeof fetch;
  /** Gives up rendering after this long (default 2,000 ms): the page is then sent without the prerender. */
  readonly timeoutMs?: number;
  /**
   * The languages the browser asks for (its `Accept-Language`, best first): the prerender is in the
   * language saved on the account, else the first of these the product offers, else its default.
   */
  readonly languages?: readonly string[];
}

/** The queries a prerender was made from: each one's key, data, and when the server had it. */
export type PrerenderedQueries = readonly {
  readonly key: readonly unknown[];
  readonly data: unknown;
  readonly at: number;
}[];

export interface Prerender {
  /** The screen as the app renders it: the markup of its root element's children. */
  readonly html: string;
  /** The locale its texts are in: the app drops a prerender in a language other than its own. */
  readonly locale: string;
  /**
   * The modules whose code and styles the prerender is made of beyond the app's first chunk, as
   * the client's build manifest names them: the page links their styles, without which the
   * prerender would show unstyled, and preloads their code, which the app is about to ask for.
   */
  readonly modules: readonly string[];
  /** The queries the prerender was made from, for the app to start with. */
  readonly state: PrerenderedQueries;
  /**
   * The live stream's cursor of the oldest of those reads (`Ninefold-Event-Cursor`), null when
   * they had none: the app opens its stream from it, so it need not read them again.
   */
  readonly eventCursor: string | null;
}

/**
 * Renders the list screen `url` names, or answers null when there is nothing to prerender before
 * the app starts: not a list screen, nobody signed in, a query string (filters and searches are
 * the app's), or an API request that did not succeed.
 *
 * @example const prerendered = await prerender({ model, url: '/claims', fetch: asUser(request) });
 */
export declare function prerender(request: PrerenderRequest): Promise<Prerender | null>;
