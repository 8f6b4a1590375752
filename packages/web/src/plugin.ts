/**
 * The web app beside the API, on one port, as a Fastify plugin that the command line registers on
 * the API's app: hashed assets cached for good, the page itself never cached and carrying the model
 * inline, the product's manifest and icons, and the page for every other GET a browser navigates to
 * (the client's router decides what it shows) — prerendered with a list's first rows where it can.
 * What is the API's (`isApiPath`) it leaves to the API, whose unknown routes are 404 problems.
 */
import fastifyStatic from '@fastify/static';
import { PRERENDERED_HEADER } from '@ninefold/model';
import { isApiPath } from '@ninefold/server';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { readBuildManifest } from './build-manifest.js';
import { ICON_SIZES, iconOf, iconPng, manifestOf } from './manifest.js';
import { CONTENT_SECURITY_POLICY, prerenderedPage, renderIndex } from './page.js';
import { type PrerenderModule, loadPrerender, prerenderFor } from './prerender.js';
import { isSignedIn } from './signed-in.js';

export interface WebAppOptions {
  /** The folder of the built client; by default the installed `@ninefold/client`'s `dist`. */
  readonly dir?: string;
  /**
   * What prerenders a list's first rows into the page (decision 0018): by default the installed
   * client's own (`@ninefold/client/prerender`) when `dir` is that client's build and its server
   * build is there; `false`, never.
   */
  readonly prerender?: PrerenderModule | false;
  /**
   * How long a navigation waits for its prerender before the page goes without it (default
   * 1,500 ms). What it buys: the prerender is worth waiting for only while it comes sooner than the
   * app's own rows would (its code, then its requests); a slow API or a hung render then costs a
   * page at most this much, never the page itself.
   */
  readonly prerenderTimeoutMs?: number;
}

/** The default of {@link WebAppOptions.prerenderTimeoutMs}. */
export const PRERENDER_TIMEOUT_MS = 1500;

/**
 * Hosts the built client on the API's app.
 *
 * @example
 * const app = buildApp({ model, database });
 * await app.register(webApp, { dir: 'packages/client/dist' });
 */
export async function webApp(app: FastifyInstance, options: WebAppOptions): Promise<void> {
  const model = app.ninefold.model;
  const given = options.dir ?? installedClient();
  const dir = given === undefined ? undefined : resolve(given);
  const indexFile = dir === undefined ? 'the client’s dist/index.html' : join(dir, 'index.html');
  if (dir === undefined || !existsSync(indexFile)) {
    throw new Error(`The client is not built: ${indexFile} is missing. Run \`npm run build\` first.`);
  }
  const template = readFileSync(indexFile, 'utf8');
  // the page of a signed-in browser, with the whole model, and of everyone else (decision 0027)
  const page = renderIndex(template, model);
  const signedOutPage = renderIndex(template, model, { signedOut: true });
  const prerender =
    options.prerender === false
      ? null
      : (options.prerender ?? (sameDir(dir, installedClient()) ? await loadPrerender() : null));
  const withPrerender =
    prerender === null
      ? null
      : prerenderedPage(page, model.product.theme.colorScheme, readBuildManifest(dir));
  const timeoutMs = options.prerenderTimeoutMs ?? PRERENDER_TIMEOUT_MS;

  const sendPage = (reply: FastifyReply, body: string) => {
    for (const [name, value] of Object.entries(PAGE_HEADERS)) reply.header(name, value);
    return (
      reply
        // a prerendered page carries one user's records: never kept, by the browser or its worker;
        // the whole model is for signed-in browsers only, not for a cache they share
        .header('cache-control', cacheControlOf(body))
        .type('text/html; charset=utf-8')
        .send(body)
    );
  };
  const cacheControlOf = (body: string) =>
    body === signedOutPage ? 'no-cache' : body === page ? 'private, no-cache' : 'no-store';
  const sendPageFor = async (request: FastifyRequest, reply: FastifyReply) =>
    sendPage(reply, (await isSignedIn(app, request)) ? page : signedOutPage);
  const sendPrerendered = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!(await isSignedIn(app, request))) return sendPage(reply, signedOutPage);
    const prerendered = prerender === null ? null : await prerenderFor(app, prerender, request, timeoutMs);
    if (prerendered === null || withPrerender === null) return sendPage(reply, page);
    return sendPage(reply.header(PRERENDERED_HEADER, '1'), withPrerender(prerendered));
  };

  const assets = join(dir, 'assets') + sep;
  // the files of the build, sent by the route below (`reply.sendFile`), which decides first
  // whether a path is a file, the API's, or a page of the app
  await app.register(fastifyStatic, {
    root: dir,
    serve: false,
    index: false,
    cacheControl: false,
    // `.env`, `.git` and the like that a build folder may hold are nobody's business: a 404
    dotfiles: 'ignore',
    // content-hashed names under /assets never change; everything else is checked every time
    setHeaders: (res, path) => {
      res.setHeader(
        'cache-control',
        path.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
      // any other page of the build runs under the app page's policy
      if (/\.html?$/i.test(path))
        for (const [name, value] of Object.entries(PAGE_HEADERS)) res.setHeader(name, value);
    },
  });
  const manifest = JSON.stringify(manifestOf(model));
  const icon = iconOf(model);
  app.get('/', sendPageFor);
  app.get('/index.html', sendPageFor);
  app.get('/manifest.webmanifest', (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('application/manifest+json').send(manifest),
  );
  app.get('/icon.svg', (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('image/svg+xml').send(icon),
  );
  for (const size of ICON_SIZES) {
    let png: Buffer | undefined;
    app.get(`/icon-${size}.png`, (_request, reply) =>
      reply
        .header('cache-control', 'no-cache')
        .type('image/png')
        .send((png ??= iconPng(model, size))),
    );
  }
  // every other GET: a file of the build, the API's (its 404), or a route of the client
  app.get('/*', (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (isApiPath(model, path)) return reply.callNotFound();
    if (/\.[a-z0-9]+$/i.test(path)) {
      const file = decodedPath(path);
      return file === null ? reply.callNotFound() : reply.sendFile(file);
    }
    // a HEAD asks whether the page is there, not for one user's rows
    return request.method === 'GET' ? sendPrerendered(request, reply) : sendPageFor(request, reply);
  });
}

/** What every HTML page the web app sends carries: its policy, and no framing, no referrer elsewhere. */
const PAGE_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
} as const;

/** A URL's path as a file path (`%20` a space), or null when it does not decode. */
function decodedPath(path: string): string | null {
  try {
    return decodeURI(path);
  } catch {
    return null;
  }
}

/** The folder of the installed `@ninefold/client`'s browser build, when the package is installed. */
export function installedClient(): string | undefined {
  try {
    return join(dirname(createRequire(import.meta.url).resolve('@ninefold/client/package.json')), 'dist');
  } catch {
    return undefined;
  }
}

function sameDir(a: string, b: string | undefined): boolean {
  if (b === undefined) return false;
  const real = (path: string) => (existsSync(path) ? realpathSync(path) : resolve(path));
  return real(a) === real(b);
}
