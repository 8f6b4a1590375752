/**
 * The app's page: the built `index.html` with the model, the product's name, language and theme
 * colour written in (no round trip before the first render), and — for a prerendered navigation —
 * the prerender of its screen laid over the app's root, with the queries it was made from.
 */
import type { Prerender } from '@ninefold/client/prerender';
import {
  MODEL_SCRIPT_ID,
  type Model,
  PRERENDER_MOUNT_ID,
  STATE_SCRIPT_ID,
  directionOf,
} from '@ninefold/model';
import { publicModel, signedOutModel } from '@ninefold/server';
import { type BuildManifest, assetsOf } from './build-manifest.js';
import { escapeHtml, scriptJson } from './html.js';
import { themeColor } from './manifest.js';

/** The id of the element the prerender stands in, which the app removes (`@ninefold/client`'s prerender/client.ts). */

/**
 * The page with the model, the product's name and theme colour written in: the whole model for a
 * signed-in user, only its signed-out part otherwise (decision 0027). `<` is escaped in the JSON so
 * that no spec text can close the script element.
 *
 * @example renderIndex(readFileSync('dist/index.html', 'utf8'), model, { signedOut: true })
 */
export function renderIndex(template: string, model: Model, options: { signedOut?: boolean } = {}): string {
  const json = scriptJson(options.signedOut === true ? signedOutModel(model) : publicModel(model));
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
 * The page with a prerender of its screen laid over the app's root, which the app removes once it
 * shows the same screen itself, and the queries it was made from, for the app to start with
 * (`@ninefold/client`'s prerender/client.ts). The page is cut into its fixed parts once; a
 * prerender is then written between them.
 *
 * @example const withPrerender = prerenderedPage(page, 'auto', manifest); reply.send(withPrerender(prerendered));
 */
export function prerenderedPage(
  page: string,
  colorScheme: Model['product']['theme']['colorScheme'],
  manifest: BuildManifest | null,
): (prerender: Prerender) => string {
  // every style the first paint needs asked for first, before the app's code: a browser has a
  // few connections to a server, and the app's code only needs to arrive by the time it runs
  const own = (page.match(STYLESHEET) ?? []).join('');
  // the model, which only the app's code reads, after the prerender: the browser can show the
  // prerender before it has read the model's text, rather than after
  const model = MODEL_SCRIPT.exec(page)?.[0] ?? '';
  // rendered in the spec's scheme, the light one where it follows the system's (the page's CSS
  // hides the prerender under a dark system scheme then); the app sets the scheme itself as it starts
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
  // the styles and code of each set of prerendered modules, worked out once
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
        sheets: own + styles.map(tag('stylesheet')).join('') + PRERENDER_STYLE,
        preloads: scripts.map(tag('modulepreload')).join(''),
      };
      links.set(key, found);
    }
    return found;
  };
  return (prerender) => {
    const { sheets, preloads } = linksOf(prerender.modules);
    return (
      head +
      sheets +
      afterSheets +
      preloads +
      afterPreloads +
      `<script id="${STATE_SCRIPT_ID}" type="application/json"${cursorAttribute(prerender.eventCursor)}>${scriptJson(prerender.state)}</script>` +
      `<div id="${PRERENDER_MOUNT_ID}" inert aria-hidden="true" data-scheme="${colorScheme}" lang="${escapeHtml(prerender.locale)}" dir="${directionOf(prerender.locale)}">${prerender.html}</div>` +
      end
    );
  };
}

/** The live stream's cursor of the prerender's reads, on its state's script (only digits and a dot). */
function cursorAttribute(cursor: string | null | undefined): string {
  return typeof cursor === 'string' && /^\d+\.\d+$/.test(cursor) ? ` data-event-cursor="${cursor}"` : '';
}

/** Where `prerenderedPage` cuts the page: a character no page of ours contains. */
const CUT = '\u0000';
/** The model written into the page (`renderIndex`). */
const MODEL_SCRIPT = new RegExp(`<script id="${MODEL_SCRIPT_ID}" type="application/json">.*?</script>`, 's');
/** The page's own stylesheets, in their order. */
const STYLESHEET = /<link rel="stylesheet"[^>]*>/g;

/**
 * Where the prerender stands: laid over the app's root until the app shows the same screen itself.
 * Shown only once the whole of it is in the document (the root after it is): a browser paints a
 * page as it arrives, and a table painted before its last rows came would widen its columns as
 * they come. Not on phones (the prerender is the wide table, a phone shows cards), nor under a dark
 * system scheme where the product follows the system's (the prerender is the light one). In the
 * page, not the app's styles, so that it holds from the prerender's first byte on.
 */
const PRERENDER_STYLE =
  `<style>#${PRERENDER_MOUNT_ID}{position:absolute;inset:0 0 auto;z-index:150;background:var(--mantine-color-body);` +
  `visibility:hidden}#${PRERENDER_MOUNT_ID}:has(~#root){visibility:visible}` +
  `@media (max-width:47.99em){#${PRERENDER_MOUNT_ID}{display:none}}` +
  `@media (prefers-color-scheme:dark){#${PRERENDER_MOUNT_ID}[data-scheme='auto']{display:none}}</style>`;

/** The page's policy: only this origin's scripts, styles and connections; inline JSON is data. */
export const CONTENT_SECURITY_POLICY = [
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
