// Sizes of a built Vite app: every JS and CSS file under its folder, raw and gzipped (zlib level 6, a
// server's usual), and the initial load — what index.html pulls before any lazy chunk: its scripts,
// module preloads and stylesheets, and the static imports of those scripts, followed to the end.
// The service worker (sw.js, workbox-*.js) is not part of the page and is counted on its own.
// A language other than English also fetches its `first` catalogue chunk before the first render
// (packages/client/src/i18n/catalogue.ts): those chunks are found through the build manifest and
// counted beside the initial load, one figure per language.
import { init, parse } from 'es-module-lexer';
import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, posix, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

const isServiceWorker = (file) => /^(sw|workbox-[^/]*)\.js$/.test(basename(file));

function sizeOf(file) {
  const bytes = readFileSync(file);
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 6 }).length };
}

function sum(sizes) {
  return sizes.reduce((a, s) => ({ raw: a.raw + s.raw, gzip: a.gzip + s.gzip }), { raw: 0, gzip: 0 });
}

/** A language's first catalogue in the build manifest: `src/i18n/catalogues/fr/first.json`. */
const FIRST_CATALOGUE = /(?:^|\/)i18n\/catalogues\/([^/]+)\/first\.json$/;

/** The build manifest Vite writes with `build.manifest` (`{}` when there is none, e.g. the anchors). */
function manifestOf(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, '.vite/manifest.json'), 'utf8'));
  } catch {
    return {};
  }
}

/** `files` and their static imports, followed to the end, leaving out those in `known`. */
function staticClosure(files, known = new Set()) {
  const found = new Set();
  const pending = [...files];
  while (pending.length > 0) {
    const file = pending.pop();
    if (found.has(file) || known.has(file)) continue;
    found.add(file);
    if (!file.endsWith('.js')) continue;
    const [imports] = parse(readFileSync(file, 'utf8'));
    // d === -1: a static import or re-export; dynamic imports (d >= 0) are lazy chunks
    for (const i of imports)
      if (i.d === -1 && i.n !== undefined && i.n.startsWith('.')) pending.push(join(dirname(file), i.n));
  }
  return found;
}

/**
 * The sizes of the app built into `dir`, whose pages live at URL `base` (`/` or `/anchor/list/`);
 * `firstCatalogues`: per language, what its `first` catalogue chunk adds to the initial load.
 *
 * @example const sizes = await measureBundle('packages/client/dist', '/');
 */
export async function measureBundle(dir, base = '/') {
  await init;
  const all = filesUnder(dir).filter((f) => /\.(js|css)$/.test(f));
  const page = all.filter((f) => !isServiceWorker(f));
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const fromUrl = (url) => join(dir, url.startsWith(base) ? url.slice(base.length) : url);
  const pending = [];
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const src = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
    if (src === undefined || !/\.(js|css)$/.test(src)) continue;
    if (tag.startsWith('<link') && !/rel="(stylesheet|modulepreload)"/.test(tag)) continue;
    pending.push(fromUrl(src));
  }
  const initial = staticClosure(pending);
  const part = (files) => ({
    js: sum(files.filter((f) => f.endsWith('.js')).map(sizeOf)),
    css: sum(files.filter((f) => f.endsWith('.css')).map(sizeOf)),
    files: files.length,
  });
  const withTotal = (p) => ({ ...p, all: sum([p.js, p.css]) });
  // per language, what its first render fetches beyond the initial load
  const firstCatalogues = Object.entries(manifestOf(dir))
    .map(([src, chunk]) => ({ language: FIRST_CATALOGUE.exec(src)?.[1], chunk }))
    .filter((c) => c.language !== undefined)
    .map(({ language, chunk }) => {
      const files = [...staticClosure([join(dir, chunk.file)], initial)];
      return { language, files: files.map((f) => relative(dir, f)), ...sum(files.map(sizeOf)) };
    })
    .sort((a, b) => a.language.localeCompare(b.language));
  return {
    total: withTotal(part(page)),
    initial: withTotal(part([...initial])),
    firstCatalogues,
    serviceWorker: sum(all.filter(isServiceWorker).map(sizeOf)),
    initialFiles: [...initial].map((f) => posix.normalize(relative(dir, f))),
    files: page.map((f) => ({ file: relative(dir, f), ...sizeOf(f), initial: initial.has(f) })),
  };
}

/** The package a source of a source map belongs to: `react-dom`, `@mantine/core`, `packages/engine`. */
export function packageOf(source) {
  const at = source.lastIndexOf('node_modules/');
  if (at !== -1) {
    const parts = source.slice(at + 13).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const ours = /packages\/([^/]+)\//.exec(source);
  return ours === null ? '(other)' : `packages/${ours[1]}`;
}

/**
 * Minified bytes of `files` (JS, with their `.map` beside them) per package of origin, largest first:
 * each mapped segment of the output counts for the source it maps to, up to the next segment.
 */
export async function bytesByPackage(dir, files) {
  const { SourceMapConsumer } = await import('source-map-js');
  const bytes = new Map();
  for (const file of files.filter((f) => f.endsWith('.js'))) {
    let map;
    try {
      map = JSON.parse(readFileSync(join(dir, `${file}.map`), 'utf8'));
    } catch {
      continue; // no source map: not attributed
    }
    const lines = readFileSync(join(dir, file), 'utf8').split('\n');
    const consumer = new SourceMapConsumer(map);
    const segments = [];
    consumer.eachMapping((m) => segments.push(m));
    segments.sort((a, b) => a.generatedLine - b.generatedLine || a.generatedColumn - b.generatedColumn);
    segments.forEach((m, i) => {
      const next = segments[i + 1];
      const end =
        next !== undefined && next.generatedLine === m.generatedLine
          ? next.generatedColumn
          : (lines[m.generatedLine - 1]?.length ?? m.generatedColumn);
      const key = m.source == null ? '(unmapped)' : packageOf(resolve(dirname(join(dir, file)), m.source));
      bytes.set(key, (bytes.get(key) ?? 0) + Math.max(0, end - m.generatedColumn));
    });
  }
  return [...bytes].sort((a, b) => b[1] - a[1]);
}
