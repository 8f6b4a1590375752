import { type Calls, type Product } from '@ninefold/model';
import { hasUiCatalogue, isLocale } from '@ninefold/model';
import { type YEntry } from '../source/yaml.js';
import { type CompileContext } from './context.js';
import { mapOf } from './reader.js';

export const PRODUCT_KEYS = [
  'name',
  'summary',
  'audience',
  'locale',
  'locales',
  'theme',
  'dashboard',
] as const;
export const THEME_KEYS = ['primaryColor', 'colorScheme'] as const;
export const CALLS_KEYS = ['basePath', 'timeoutMs', 'retries', 'offlineQueue', 'realtime'] as const;
const COLOR_SCHEMES = ['auto', 'light', 'dark'] as const;

export const DEFAULT_CALLS: Calls = {
  basePath: '/api',
  timeoutMs: 10_000,
  retries: 2,
  offlineQueue: true,
  realtime: true,
};

/**
 * Reads `product:`. Without a name the document's title names the product; without a summary the
 * first paragraph of section 1's prose summarises it.
 */
export function readProduct(
  ctx: CompileContext,
  entries: readonly YEntry[],
  title: string | null,
  prose: string,
): Product {
  const { reader, bag } = ctx;
  const m = reader.map(mapOf(entries), '`product`', PRODUCT_KEYS) ?? new Map<string, YEntry>();
  const str = (key: string) => {
    const e = m.get(key);
    return e ? reader.string(e.value, `\`product.${key}\``) : null;
  };
  const firstParagraph = (prose.split(/\n\s*\n/)[0] ?? '').trim().replace(/\s*\n\s*/g, ' ');
  const { locale, locales } = readLocales(ctx, m);
  let primaryColor = '#4c6ef5';
  let colorScheme: Product['theme']['colorScheme'] = 'auto';
  const theme = m.get('theme');
  if (theme) {
    const tm = reader.map(theme.value, '`product.theme`', THEME_KEYS);
    const pc = tm?.get('primaryColor');
    if (pc) {
      const c = reader.string(pc.value, '`product.theme.primaryColor`');
      if (c !== null && /^#(?:[0-9a-fA-F]{3}){1,2}$|^[a-z]+$/.test(c)) primaryColor = c;
      else if (c !== null)
        bag.report(
          'NF207',
          pc.value.span,
          `\`${c}\` is not a colour.`,
          'write a hex colour like `#1c7ed6` or a colour name like `teal`',
        );
    }
    const cs = tm?.get('colorScheme');
    if (cs) {
      const s = reader.string(cs.value, '`product.theme.colorScheme`');
      if (s !== null && (COLOR_SCHEMES as readonly string[]).includes(s))
        colorScheme = s as typeof colorScheme;
      else if (s !== null)
        bag.report(
          'NF211',
          cs.value.span,
          `\`${s}\` is not a colour scheme.`,
          'use `auto`, `light` or `dark`',
        );
    }
  }
  const dashboardEntry = m.get('dashboard');
  return {
    name: str('name') ?? title ?? 'Untitled product',
    summary: str('summary') ?? firstParagraph,
    audience: readAudience(ctx, m.get('audience')),
    locale,
    locales,
    theme: { primaryColor, colorScheme },
    dashboard: dashboardEntry
      ? (reader.boolean(dashboardEntry.value, '`product.dashboard`') ?? false)
      : false,
  };
}

/**
 * `product.locale` and `product.locales` (decision 0068): the locales the product is offered in, the
 * default first. Either key alone says it; both must agree on the default. Each tag's span is kept
 * (`locale:<tag>`) for the translation checks, and a locale without a shipped UI catalogue is
 * warned of (NF336).
 */
function readLocales(
  ctx: CompileContext,
  m: Map<string, YEntry>,
): { locale: string; locales: readonly string[] } {
  const { reader, bag } = ctx;
  const tagAt = (node: YEntry['value'], where: string): string | null => {
    const tag = reader.string(node, where);
    if (tag === null) return null;
    if (isLocale(tag)) return tag;
    bag.report(
      'NF207',
      node.span,
      `\`${tag}\` is not a BCP 47 locale tag.`,
      'use a tag like `en`, `en-GB` or `de-DE`',
    );
    return null;
  };
  const single = m.get('locale');
  const one = single === undefined ? null : tagAt(single.value, '`product.locale`');
  const listed = m.get('locales');
  const locales: string[] = [];
  const spans = new Map<string, YEntry['value']>();
  if (listed !== undefined) {
    for (const item of reader.list(listed.value, '`product.locales`')) {
      const tag = tagAt(item, 'each entry of `product.locales`');
      if (tag === null) continue;
      if (locales.some((t) => t.toLowerCase() === tag.toLowerCase())) {
        bag.report('NF210', item.span, `\`${tag}\` is listed twice in \`product.locales\`.`, 'list it once');
        continue;
      }
      locales.push(tag);
      spans.set(tag, item);
    }
    if (one !== null && locales.length > 0 && one.toLowerCase() !== locales[0]!.toLowerCase()) {
      bag.report(
        'NF207',
        single!.value.span,
        `\`product.locale\` is \`${one}\` but \`product.locales\` starts with \`${locales[0]}\`: the first of \`locales\` is the default.`,
        `remove \`product.locale\`, or list \`${one}\` first in \`product.locales\``,
      );
    }
  }
  if (locales.length === 0) {
    const tag = one ?? 'en';
    locales.push(tag);
    if (single !== undefined) spans.set(tag, single.value);
  }
  for (const [tag, node] of spans) {
    ctx.spans.set(`locale:${tag}`, node.span);
    if (!hasUiCatalogue(tag))
      bag.report(
        'NF336',
        node.span,
        `No catalogue of the app’s own texts ships for \`${tag}\`: its buttons, menus and messages will be English.`,
        'the shipped languages are en, fr, de, es, pt, ja and ar; the spec’s own words still follow its translation file',
      );
  }
  return { locale: locales[0]!, locales };
}

/**
 * `product.audience`: one text or a list of them, as people write it; the model holds a list
 * (decision 0064). Empty entries are dropped.
 */
function readAudience(ctx: CompileContext, entry: YEntry | undefined): readonly string[] {
  if (entry === undefined || (entry.value.kind === 'scalar' && entry.value.value === null)) return [];
  const items = entry.value.kind === 'seq' ? entry.value.items : [entry.value];
  const out: string[] = [];
  for (const item of items) {
    const text = ctx.reader.string(
      item,
      entry.value.kind === 'seq' ? 'each entry of `product.audience`' : '`product.audience`',
    );
    if (text !== null && text.trim() !== '') out.push(text.trim());
  }
  return out;
}

/** Reads `calls:`: how the client reaches the generated API. */
export function readCalls(ctx: CompileContext, entries: readonly YEntry[]): Calls {
  const { reader, bag } = ctx;
  const m = reader.map(mapOf(entries), '`calls`', CALLS_KEYS);
  const calls: { -readonly [K in keyof Calls]: Calls[K] } = { ...DEFAULT_CALLS };
  const base = m?.get('basePath');
  if (base) {
    const p = reader.string(base.value, '`calls.basePath`');
    if (p !== null && /^\/[a-z0-9-]+(?:\/[a-z0-9-]+)*$/.test(p)) calls.basePath = p;
    else if (p !== null)
      bag.report(
        'NF207',
        base.value.span,
        `\`${p}\` is not a base path.`,
        'write an absolute path like `/api`',
      );
  }
  const timeout = m?.get('timeoutMs');
  if (timeout)
    calls.timeoutMs = reader.integer(timeout.value, '`calls.timeoutMs`', 100, 300_000) ?? calls.timeoutMs;
  const retries = m?.get('retries');
  if (retries) calls.retries = reader.integer(retries.value, '`calls.retries`', 0, 10) ?? calls.retries;
  const offline = m?.get('offlineQueue');
  if (offline)
    calls.offlineQueue = reader.boolean(offline.value, '`calls.offlineQueue`') ?? calls.offlineQueue;
  const realtime = m?.get('realtime');
  if (realtime) calls.realtime = reader.boolean(realtime.value, '`calls.realtime`') ?? calls.realtime;
  return calls;
}
