/**
 * The server's drawing of a list's first rows (decision 0018): the client's own components, built
 * for Node (`packages/client/dist-ssr/server.js`), render the list screen a signed-in navigation
 * names, their API requests answered in process by this server's routes as that user, so that the
 * page arrives with the rows the user may read, masked as every answer is, already drawn.
 */
import { CSRF_HEADER, CSRF_HEADER_VALUE, DEVICE_SETTINGS_COOKIE, type Model } from '@ninefold/model';
import { type FastifyInstance, type FastifyRequest } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** What the client's server build exports (`packages/client/src/prepaint/server.tsx`). */
export interface PrepaintModule {
  prepaint(request: {
    model: Model;
    url: string;
    fetch: typeof fetch;
    timeoutMs?: number;
  }): Promise<Drawing | null>;
}

/** A screen drawn by the client's code: its markup, its query cache, the modules it is made of. */
export interface Drawing {
  readonly html: string;
  readonly state: unknown;
  readonly modules: readonly string[];
}

/** How long a drawing may take before the page goes without it (a navigation waits for it). */
const PREPAINT_TIMEOUT_MS = 1500;

/**
 * The client's server build beside its browser build (`dist` → `dist-ssr/server.js`), or null when
 * it was not built: the page is then sent without drawings.
 */
export async function loadPrepaint(clientDir: string): Promise<PrepaintModule | null> {
  const file = join(clientDir, '..', 'dist-ssr', 'server.js');
  if (!existsSync(file)) return null;
  const module = (await import(pathToFileURL(file).href)) as Partial<PrepaintModule>;
  return typeof module.prepaint === 'function' ? (module as PrepaintModule) : null;
}

/**
 * Draws the screen `request` navigates to, or answers null: no session cookie, a device whose
 * settings the server cannot see, nothing to draw (see the client's `prepaint`), or a failure —
 * the page then comes without the drawing, as it always could.
 */
export async function drawFor(
  app: FastifyInstance,
  module: PrepaintModule,
  model: Model,
  request: FastifyRequest,
): Promise<Drawing | null> {
  const cookie = request.headers.cookie;
  if (cookie === undefined || cookie === '') return null;
  if (request.cookies[DEVICE_SETTINGS_COOKIE] !== undefined) return null;
  const asUser: typeof fetch = async (input) => {
    const target = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const address = new URL(target, 'http://app.invalid');
    const answer = await app.inject({
      method: 'GET',
      url: address.pathname + address.search,
      headers: { cookie, accept: 'application/json', [CSRF_HEADER]: CSRF_HEADER_VALUE },
      remoteAddress: request.ip,
    });
    return new Response(answer.payload === '' ? null : answer.payload, {
      status: answer.statusCode,
      headers: { 'content-type': String(answer.headers['content-type'] ?? 'application/json') },
    });
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  // however long the API takes to answer it, the page does not wait longer for its drawing
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), PREPAINT_TIMEOUT_MS)));
  try {
    return await Promise.race([
      module.prepaint({ model, url: request.url, fetch: asUser, timeoutMs: PREPAINT_TIMEOUT_MS }),
      late,
    ]);
  } catch (error) {
    request.log.warn({ err: error }, 'The first rows could not be drawn; the page goes without them.');
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/** Vite's build manifest (`dist/.vite/manifest.json`): each module's chunk, styles and static imports. */
export type BuildManifest = Readonly<
  Record<
    string,
    { readonly file: string; readonly css?: readonly string[]; readonly imports?: readonly string[] }
  >
>;

/** The build manifest beside the built client, or null when the build wrote none. */
export function readManifest(clientDir: string): BuildManifest | null {
  const file = join(clientDir, '.vite', 'manifest.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as BuildManifest) : null;
}

/**
 * The styles and code of `modules` and of everything they import statically, less what the page
 * itself already links (the entry's, `index.html`), as paths under the site's root.
 *
 * @example assetsOf(manifest, ['src/screens/list/ListScreen.tsx']) // { styles: ['/assets/ListScreen-….css', …], scripts: […] }
 */
export function assetsOf(
  manifest: BuildManifest,
  modules: readonly string[],
): { styles: string[]; scripts: string[] } {
  // depth first, a module after what it imports: the order Vite links a chunk's styles in, which
  // the cascade depends on (the list's own rules come after Mantine's table's)
  const closure = (roots: readonly string[]) => {
    const order: string[] = [];
    const seen = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (seen.has(key) || chunk === undefined) return;
      seen.add(key);
      for (const next of chunk.imports ?? []) visit(next);
      order.push(key);
    };
    roots.forEach(visit);
    return order;
  };
  const linked = new Set(closure(['index.html']));
  const styles = new Set<string>();
  const scripts = new Set<string>();
  for (const key of closure(modules)) {
    const chunk = manifest[key];
    if (linked.has(key) || chunk === undefined) continue;
    scripts.add(`/${chunk.file}`);
    for (const css of chunk.css ?? []) styles.add(`/${css}`);
  }
  return { styles: [...styles], scripts: [...scripts] };
}
