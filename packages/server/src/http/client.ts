/**
 * Serves the built React client next to the API, on one port: hashed assets cached for good, the
 * page itself never cached and carrying the model inline (no round trip before the first render),
 * the product's web app manifest and icon, and the page for every other GET a browser navigates to
 * (the client's router decides what it shows).
 */
import fastifyStatic from '@fastify/static';
import {
  MODEL_SCRIPT_ID,
  type Model,
  PRERENDERED_HEADER,
  PRERENDER_MOUNT_ID,
  SERVER_PATHS,
  STATE_SCRIPT_ID,
} from '@ninefold/model';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import {
  type BuildManifest,
  type Drawing,
  type PrepaintModule,
  assetsOf,
  drawFor,
  loadPrepaint,
  readManifest,
} from './prepaint.js';
import { publicModel } from './public-model.js';

/**
 * The page with the model, the product's name and theme colour written in. `<` is escaped in the
 * JSON so that no spec text can close the script element.
 *
 * @example renderIndex(readFileSync('dist/index.html', 'utf8'), model)
 */
export function renderIndex(template: string, model: Model): string {
  const json = scriptJson(publicModel(model));
  const head =
    `<script id="${MODEL_SCRIPT_ID}" type="application/json">${json}</script>` +
    `<meta name="description" content="${escapeHtml(model.product.summary)}">`;
  return template
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(model.product.name)}</title>`)
    .replace(
      /<meta name="theme-color" content="[^"]*"/,
      `<meta name="theme-color" content="${escapeHtml(themeColor(model))}"`,
    )
    .replace(/<html lang="[^"]*"/, `<html lang="${escapeHtml(model.product.locale)}"`)
    .replace('<!--ninefold:head-->', () => head);
}

/**
 * JSON to write inside a `<script>` element: `<` escaped so that no text in it can close the
 * element, and the two line separators JavaScript once refused in strings.
 */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028|\u2029/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}

/**
 * The page with the server's drawing of its screen laid over the app's root, which the app removes
 * once it shows the same screen itself, and the queries it was drawn from, for the app to start
 * with (`packages/client/src/prepaint/client.ts`). The page is cut into its fixed parts once; a
 * drawing is then written between them.
 *
 * @example const draw = drawnPage(page, 'auto', manifest); reply.send(draw(drawing));
 */
export function drawnPage(
  page: string,
  colorScheme: Model['product']['theme']['colorScheme'],
  manifest: BuildManifest | null,
): (drawing: Drawing) => string {
  // every style the first paint needs asked for first, before the app's code: a browser has a
  // few connections to a server, and the app's code only needs to arrive by the time it runs
  const own = (page.match(STYLESHEET) ?? []).join('');
  // the model, which only the app's code reads, after the drawing: the browser can show the drawing
  // before it has read the model's text, rather than after
  const model = MODEL_SCRIPT.exec(page)?.[0] ?? '';
  // drawn in the spec's scheme, the light one where it follows the system's (the page's CSS hides
  // the drawing under a dark system scheme then); the app sets the scheme itself as it starts
  const scheme = colorScheme === 'dark' ? 'dark' : 'light';
  const [head = '', afterSheets = '', afterPreloads = '', end = ''] = page
    .replace(MODEL_SCRIPT, '')
    .replace(STYLESHEET, '')
    .replace(/<html lang="([^"]*)"/, (tag) => `${tag} data-mantine-color-scheme="${scheme}"`)
    // after the charset, which must come first
    .replace(/<head>(\s*<meta charset="[^"]*" ?\/?>)?/, (start) => `${start}${CUT}`)
    .replace('</head>', () => `${CUT}</head>`)
    .replace('<div id="root"></div>', () => `${CUT}<div id="root"></div>${model}`)
    .split(CUT);
  // the styles and code of each set of drawn modules, worked out once
  const links = new Map<string, { sheets: string; preloads: string }>();
  const linksOf = (modules: readonly string[]) => {
    const key = modules.join('\n');
    let found = links.get(key);
    if (found === undefined) {
      const { styles, scripts } =
        manifest === null ? { styles: [], scripts: [] } : assetsOf(manifest, modules);
      const tag = (rel: string) => (href: string) =>
        `<link rel="${rel}" crossorigin href="${escapeHtml(href)}">`;
      found = {
        sheets: own + styles.map(tag('stylesheet')).join('') + DRAWING_STYLE,
        preloads: scripts.map(tag('modulepreload')).join(''),
      };
      links.set(key, found);
    }
    return found;
  };
  return (drawing) => {
    const { sheets, preloads } = linksOf(drawing.modules);
    return (
      head +
      sheets +
      afterSheets +
      preloads +
      afterPreloads +
      `<script id="${STATE_SCRIPT_ID}" type="application/json">${scriptJson(drawing.state)}</script>` +
      `<div id="${PRERENDER_MOUNT_ID}" inert aria-hidden="true" data-scheme="${colorScheme}">${drawing.html}</div>` +
      end
    );
  };
}

/** Where `drawnPage` cuts the page: a character no page of ours contains. */
const CUT = '\u0000';
/** The model written into the page (`renderIndex`). */
const MODEL_SCRIPT = new RegExp(`<script id="${MODEL_SCRIPT_ID}" type="application/json">.*?</script>`, 's');
/** The page's own stylesheets, in their order. */
const STYLESHEET = /<link rel="stylesheet"[^>]*>/g;

/**
 * Where the drawing stands: laid over the app's root until the app shows the same screen itself.
 * Shown only once the whole of it is in the document (the root after it is): a browser paints a
 * page as it arrives, and a table drawn before its last rows came would widen its columns as they
 * come. Not on phones (the server draws the wide table, a phone shows cards), nor under a dark
 * system scheme where the product follows the system's (the server draws the light one). In the
 * page, not the app's styles, so that it holds from the first byte of the drawing on.
 */
const DRAWING_STYLE =
  `<style>#${PRERENDER_MOUNT_ID}{position:absolute;inset:0 0 auto;z-index:150;background:var(--mantine-color-body);` +
  `visibility:hidden}#${PRERENDER_MOUNT_ID}:has(~#root){visibility:visible}` +
  `@media (max-width:47.99em){#${PRERENDER_MOUNT_ID}{display:none}}` +
  `@media (prefers-color-scheme:dark){#${PRERENDER_MOUNT_ID}[data-scheme='auto']{display:none}}</style>`;

/** The web app manifest of the product: what a phone shows when it is installed. */
export function manifestOf(model: Model): Record<string, unknown> {
  const name = model.product.name;
  return {
    name,
    short_name: name.length <= 12 ? name : (name.split(/\s+/)[0] ?? name).slice(0, 12),
    description: model.product.summary,
    lang: model.product.locale,
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: themeColor(model),
    icons: [
      { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
      { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any maskable' },
    ],
  };
}

/** The product's icon: its initial on its theme colour. */
export function iconOf(model: Model): string {
  const initial = escapeHtml((model.product.name.trim().charAt(0) || 'N').toUpperCase());
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">` +
    `<rect width="512" height="512" rx="96" fill="${escapeHtml(themeColor(model))}"/>` +
    `<text x="256" y="256" dy=".35em" text-anchor="middle" font-family="system-ui,sans-serif" ` +
    `font-size="300" font-weight="700" fill="#fff">${initial}</text></svg>`
  );
}

/**
 * A square PNG of one colour: the raster icon installers ask for, with no image library. The SVG
 * icon carries the product's initial; this one only has to be the right colour and size.
 */
export function solidPng(size: number, hex: string): Buffer {
  let digits = hex.replace('#', '').slice(0, 6);
  if (digits.length === 3) digits = [...digits].map((d) => d + d).join('');
  const rgb = [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16) || 0);
  const row = Buffer.alloc(1 + size * 3);
  for (let x = 0; x < size; x++) row.set(rgb, 1 + x * 3);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function themeColor(model: Model): string {
  const color = model.product.theme.primaryColor;
  return /^#[0-9a-f]{3,8}$/i.test(color) ? color : '#228be6';
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface ClientOptions {
  /** The folder of the built client (`packages/client/dist`). */
  readonly dir: string;
  /**
   * The app whose API draws a list's first rows into the page (decision 0018); none: the page is
   * always sent as built. The drawing also needs the client's server build (`dist-ssr`).
   */
  readonly drawWith?: FastifyInstance;
  /** What draws them: the client's server build beside `dir` unless given; `false`, nothing. */
  readonly prepaint?: PrepaintModule | false;
}

/**
 * Registers the client's routes.
 *
 * @example registerClient(app, model, { dir: 'packages/client/dist' });
 */
export async function registerClient(
  app: FastifyInstance,
  model: Model,
  options: ClientOptions,
): Promise<NotFoundFallback> {
  const indexFile = join(options.dir, 'index.html');
  if (!existsSync(indexFile)) {
    throw new Error(`The client is not built: ${indexFile} is missing. Run \`npm run build\` first.`);
  }
  const page = renderIndex(readFileSync(indexFile, 'utf8'), model);
  const manifest = JSON.stringify(manifestOf(model));
  const icon = iconOf(model);
  const basePath = model.calls.basePath.replace(/\/+$/, '');
  const drawing =
    options.drawWith === undefined || options.prepaint === false
      ? null
      : (options.prepaint ?? (await loadPrepaint(options.dir)));
  const draw =
    drawing === null ? null : drawnPage(page, model.product.theme.colorScheme, readManifest(options.dir));

  const sendPage = (reply: FastifyReply, body = page) =>
    reply
      // a page with a drawing carries one user's records: never kept, by the browser or its worker
      .header('cache-control', body === page ? 'no-cache' : 'no-store')
      .header('content-security-policy', CSP)
      .header('referrer-policy', 'same-origin')
      .header('x-frame-options', 'DENY')
      .type('text/html; charset=utf-8')
      .send(body);
  const sendDrawn = async (request: FastifyRequest, reply: FastifyReply) => {
    const drawn =
      drawing === null || options.drawWith === undefined
        ? null
        : await drawFor(options.drawWith, drawing, model, request);
    if (drawn === null || draw === null) return sendPage(reply);
    return sendPage(reply.header(PRERENDERED_HEADER, '1'), draw(drawn));
  };

  await app.register(fastifyStatic, {
    root: options.dir,
    index: false,
    cacheControl: false,
    // content-hashed names under /assets never change; everything else is checked every time
    setHeaders: (res, path) => {
      res.setHeader(
        'cache-control',
        path.includes(`${join(options.dir, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  app.get('/', (_request, reply) => sendPage(reply));
  app.get('/index.html', (_request, reply) => sendPage(reply));
  app.get('/manifest.webmanifest', (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('application/manifest+json').send(manifest),
  );
  app.get('/icon.svg', (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('image/svg+xml').send(icon),
  );
  for (const size of [192, 512]) {
    const png = solidPng(size, themeColor(model));
    app.get(`/icon-${size}.png`, (_request, reply) =>
      reply.header('cache-control', 'no-cache').type('image/png').send(png),
    );
  }

  // every other GET a browser navigates to is a route of the client; the API keeps its own 404
  return (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const ownsPath =
      path === basePath ||
      path.startsWith(`${basePath}/`) ||
      SERVER_PATHS.some((p) => path === p || path.startsWith(`${p}/`));
    const isFile = /\.[a-z0-9]+$/i.test(path);
    if (ownsPath || isFile) return null;
    if (request.method === 'GET') return sendDrawn(request, reply);
    if (request.method === 'HEAD') return sendPage(reply);
    return null;
  };
}

/** Answers a request no route matched, or returns null to let it be a 404 problem. */
export type NotFoundFallback = (
  request: FastifyRequest,
  reply: FastifyReply,
) => FastifyReply | Promise<FastifyReply> | null;

/** The page's policy: only this origin's scripts, styles and connections; inline JSON is data. */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Mantine sets CSS variables through style attributes
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "worker-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');
