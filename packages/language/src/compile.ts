import { DiagnosticBag, type Diagnostic, type Span } from './diagnostics/diagnostic.js';
import { own } from './own.js';
import { suggestion } from './diagnostics/suggest.js';
import { celTypeOf, withRoleLabels } from '@ninefold/model';
import { Environments, checkExpression } from './expressions/check.js';
import { readConstants, readLimits } from './facets/constants.js';
import { type CompileContext } from './facets/context.js';
import { builtinUser, readEntities } from './facets/entities.js';
import { withUploadLimit } from './facets/field-files.js';
import { finishEntities } from './facets/entity-keys.js';
import { checkChildRelations, checkComputed } from './facets/computed.js';
import { readAuth } from './facets/auth.js';
import { readErrors } from './facets/errors.js';
import { readCalls, readProduct } from './facets/product.js';
import { Reader } from './facets/reader.js';
import { DEFAULT_ROLE, readRoles, roleNames } from './facets/roles.js';
import { readRules } from './facets/rules.js';
import { readNav, readScreens } from './facets/screens.js';
import { generatedDashboard } from './facets/widgets.js';
import { readNotifications } from './facets/notifications.js';
import { readWebhooks } from './facets/webhooks.js';
import { readTranslations } from './facets/translations.js';
import { checkTransitionErrors, readStates } from './facets/states.js';
import {
  API_PATHS,
  FACETS,
  MODEL_VERSION,
  type Entity,
  type Facet,
  type FacetKey,
  type Model,
} from '@ninefold/model';
import { LIMITS } from './source/limits.js';
import { LineIndex } from './source/line-index.js';
import { isNotShown, splitMarkdown, type YamlBlock } from './source/markdown.js';
import { loadYaml, type YEntry, type YNode } from './source/yaml.js';

export interface CompileOptions {
  /** The file name shown in diagnostics; its extension picks the notation (`.yaml`/`.yml` or Markdown). */
  readonly file?: string;
  /** Overrides the largest accepted input, in bytes. */
  readonly maxBytes?: number;
  /**
   * The spec's translation files, by file name (`claims.fr-FR.yaml`: the locale is read from the
   * name) to their text (decision 0068). The caller reads them: `compile` never opens a file.
   */
  readonly translations?: Readonly<Record<string, string>>;
}

/** What a spec declares, counted, and which facets it leaves unspecified. */
export interface Summary {
  readonly entities: number;
  readonly fields: number;
  readonly screens: number;
  readonly transitions: number;
  readonly rules: number;
  readonly roles: number;
  readonly errors: number;
  readonly constants: number;
  readonly unspecified: readonly FacetKey[];
}

export type CompileResult =
  | {
      readonly ok: true;
      readonly model: Model;
      readonly summary: Summary;
      readonly diagnostics: readonly Diagnostic[];
    }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** The top-level keys of the notation, the section each belongs to, and how blocks merge them. */
export const TOP_LEVEL_KEYS = {
  product: { section: 1, merge: 'dict' },
  screens: { section: 2, merge: 'dict' },
  nav: { section: 2, merge: 'list' },
  entities: { section: 3, merge: 'dict' },
  states: { section: 4, merge: 'dict' },
  rules: { section: 5, merge: 'list' },
  roles: { section: 6, merge: 'dict' },
  auth: { section: 6, merge: 'dict' },
  calls: { section: 7, merge: 'dict' },
  notifications: { section: 7, merge: 'dict' },
  webhooks: { section: 7, merge: 'dict' },
  errors: { section: 8, merge: 'dict' },
  constants: { section: 9, merge: 'dict' },
  limits: { section: 9, merge: 'dict' },
} as const;
type TopKey = keyof typeof TOP_LEVEL_KEYS;

const FACET_TITLES: Record<FacetKey, string> = {
  product: 'What the product does and for whom',
  screens: 'Screens and routes',
  entities: 'Entities and their fields',
  states: 'States and transitions',
  rules: 'Validation rules',
  roles: 'Roles and permissions',
  calls: 'The calls it makes',
  errors: 'The error catalogue',
  constants: 'Business constants and limits',
};

const DEFAULT_BEHAVIOUR: Record<FacetKey, string> = {
  product: 'The product is named after the document title and has no description.',
  screens:
    'Every entity gets a list, a detail page and create and edit forms, all reachable from the navigation.',
  entities: 'There are no records to keep: only the built-in users exist.',
  states: 'Records have no life cycle: they are created, edited and deleted freely.',
  rules: 'Only each field’s own constraints (type, required, bounds) are checked.',
  roles: 'There is one role, `user`, and every signed-in user may do everything with every record.',
  calls:
    'The client talks to the generated REST API at /api, with a 10 s timeout and 2 retries; no one is notified and no webhook is called.',
  errors: 'Failures are reported with the built-in catalogue of messages.',
  constants: 'Default limits apply: 50 rows a page, 1 MiB a request, 600 requests a minute.',
};

/**
 * Compiles a spec (Markdown or YAML) into the model, with every problem as a diagnostic.
 * Never throws for any input.
 *
 * @example
 * const result = compile(text, { file: 'claims.md' });
 * if (result.ok) serve(result.model); else print(result.diagnostics);
 */
export function compile(input: string | Uint8Array, options: CompileOptions = {}): CompileResult {
  const file = options.file ?? 'spec.md';
  const maxBytes = options.maxBytes ?? LIMITS.maxBytes;
  const size = typeof input === 'string' ? utf8Length(input, maxBytes) : input.byteLength;
  if (size > maxBytes) {
    return failure(
      file,
      '',
      'NF002',
      `The file is larger than ${formatBytes(maxBytes)}, the most the compiler reads.`,
      'split the spec or remove what it does not need',
    );
  }
  let text: string;
  if (typeof input === 'string') text = input;
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(input);
    } catch {
      return failure(file, '', 'NF001', 'The file is not valid UTF-8 text.', 'save the spec as UTF-8');
    }
  }
  if (text.includes('\0')) {
    return failure(
      file,
      text,
      'NF001',
      'The file contains NUL bytes: it looks binary, not like a spec.',
      'pass a Markdown or YAML spec',
    );
  }
  if (text.charCodeAt(0) === 0xfeff) text = ` ${text.slice(1)}`; // keep offsets: the BOM becomes a space
  if (text.trim() === '') {
    return failure(
      file,
      text,
      'NF003',
      'The spec is empty.',
      'start from the seed: a `#` title and sections `## 1.` to `## 9.`',
    );
  }
  try {
    return compileText(text, file, options.translations ?? {});
  } catch (error) {
    // a compiler bug must still be a diagnostic, never a crash of `ninefold check`
    if (error instanceof RangeError) {
      return failure(file, text, 'NF104', 'The spec is nested too deeply to compile.', null);
    }
    throw error;
  }
}

function failure(
  file: string,
  text: string,
  code: 'NF001' | 'NF002' | 'NF003' | 'NF104',
  message: string,
  hint: string | null,
): CompileResult {
  const bag = new DiagnosticBag(file, new LineIndex(text));
  bag.report(code, { start: 0, end: Math.min(1, text.length) }, message, hint);
  return { ok: false, diagnostics: bag.items };
}

/** The UTF-8 size of a text, as the file holding it would have, counted only when it matters. */
function utf8Length(text: string, cap: number): number {
  // every UTF-16 unit is at least one byte and at most three: outside that band the length decides
  if (text.length > cap || text.length * 3 <= cap) return text.length;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      n += 4; // a surrogate pair is one four-byte character
      i++;
    } else n += 3;
  }
  return n;
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MiB` : `${Math.ceil(n / 1024)} KiB`;
}

interface Collected {
  dicts: Map<TopKey, YEntry[]>;
  lists: Map<TopKey, YNode[]>;
  keySpans: Map<TopKey, Span>;
}

function compileText(
  text: string,
  file: string,
  translationFiles: Readonly<Record<string, string>>,
): CompileResult {
  const bag = new DiagnosticBag(file, new LineIndex(text));
  const isYaml = /\.ya?ml$/i.test(file);
  let title: string | null = null;
  const prose = new Map<number, { title: string; prose: string }>();
  let blocks: YamlBlock[];
  if (isYaml) blocks = [{ text, offset: 0, section: null }];
  else {
    const md = splitMarkdown(text, bag);
    title = md.title;
    blocks = [];
    for (const section of md.sections.values()) {
      prose.set(section.number, { title: section.title, prose: section.prose });
      blocks.push(...section.blocks);
    }
    if (md.sections.size === 0) {
      bag.report(
        'NF004',
        { start: 0, end: Math.min(text.length, 1) },
        'This Markdown spec has no numbered sections, so every facet is unspecified.',
        'head each section `## N. Title`, N from 1 to 9',
      );
    }
  }

  const collected: Collected = { dicts: new Map(), lists: new Map(), keySpans: new Map() };
  const names = new Map<string, Span>(); // `entities.Claim` → first declaration
  for (const block of blocks) collect(block, bag, collected, names);

  const reader = new Reader(bag);
  const ctx = {
    bag,
    reader,
    constants: {},
    entities: {},
    states: {},
    errors: {},
    roleNames: [],
    spans: new Map(),
    pendingEntityKeys: new Map(),
  } as unknown as CompileContext;
  (ctx as { envs: Environments }).envs = new Environments(ctx);
  const dict = (key: TopKey) => collected.dicts.get(key) ?? [];

  ctx.constants = readConstants(ctx, dict('constants'));
  const declaredRoles = roleNames(ctx, dict('roles'));
  ctx.roleNames = declaredRoles.length > 0 ? declaredRoles : [DEFAULT_ROLE];

  const entityEntries = dict('entities');
  const {
    entities,
    pendingDefaults,
    pendingComputed,
    pendingChildren,
    spans: entitySpans,
  } = readEntities(ctx, entityEntries);
  for (const [key, span] of entitySpans) ctx.spans.set(key, span);
  const user = builtinUser(ctx.roleNames);
  const extraUser = entities['User'];
  delete entities['User'];
  ctx.entities = {
    ...entities,
    User: extraUser ? { ...user, fields: { ...user.fields, ...extraUser.fields } } : user,
  };
  if (extraUser) ctx.pendingEntityKeys.delete('User');
  finishEntities(ctx);
  checkResources(ctx);

  const transitionRoles = readStates(ctx, dict('states'));
  for (const pending of pendingDefaults) {
    const entity = ctx.entities[pending.entity];
    const field = entity?.fields[pending.field];
    if (entity === undefined || field === undefined) continue;
    const expr = checkExpression(ctx, ctx.envs, {
      source: pending.source,
      span: pending.span,
      raw: text.slice(pending.span.start, pending.span.end),
      scope: { entity: null, old: false },
      expect: celTypeOf(field),
      sql: false,
      what: `the default of \`${pending.entity}.${pending.field}\``,
    });
    if (expr !== null)
      (ctx.entities[pending.entity] as { fields: Record<string, unknown> }).fields[pending.field] = {
        ...field,
        default: { expr },
      };
  }

  checkChildRelations(ctx, pendingChildren);
  checkComputed(ctx, pendingComputed, text);

  ctx.errors = readErrors(ctx, dict('errors'));
  checkTransitionErrors(ctx);
  const rules = readRules(ctx, collected.lists.get('rules') ?? []);
  const roles = readRoles(ctx, dict('roles'));
  const auth = readAuth(ctx, dict('auth'), roles);
  const roleList = Object.keys(roles);
  const checkRole = (name: string, span: Span, where: string) => {
    if (!roleList.includes(name))
      bag.report(
        'NF304',
        span,
        `\`${name}\` is not a declared role, so ${where} cannot name it.`,
        suggestion(name, roleList, 'role'),
      );
  };
  for (const [transition, entry] of transitionRoles) {
    for (const r of reader.names(entry.value, 'roles'))
      checkRole(r.name, r.span, `transition \`${transition}\``);
  }
  const section1 = prose.get(1);
  const product = readProduct(
    ctx,
    dict('product'),
    title,
    section1 && !isNotShown(section1.prose) ? section1.prose : '',
  );
  const { screens, roleRefs } = readScreens(ctx, dict('screens'));
  for (const r of roleRefs) checkRole(r.name, r.span, 'a screen');
  // `product.dashboard: true` and no dashboard declared: a generated one, first in the navigation
  const generated = product.dashboard && !screens.some((s) => s.kind === 'dashboard');
  const dashboard = generated ? generatedDashboard(ctx, screens) : null;
  if (dashboard !== null) screens.unshift(dashboard);
  const nav = readNav(ctx, collected.lists.has('nav') ? collected.lists.get('nav')! : null, screens);
  if (dashboard !== null && !nav.some((item) => item.screen === dashboard.id))
    nav.unshift({ label: dashboard.title, screen: dashboard.id, icon: null });
  const limits = readLimits(ctx, dict('limits'));
  ctx.entities = withUploadLimit(ctx.entities, limits.maxUploadSize);

  const calls = readCalls(ctx, dict('calls'));
  const notifications = readNotifications(ctx, dict('notifications'));
  const webhooks = readWebhooks(ctx, dict('webhooks'));

  const specified = (facet: FacetKey): boolean => {
    const keys = (Object.keys(TOP_LEVEL_KEYS) as TopKey[]).filter(
      (k) => TOP_LEVEL_KEYS[k].section === FACETS.indexOf(facet) + 1,
    );
    if (keys.some((k) => collected.keySpans.has(k))) return true;
    return facet === 'product' && section1 !== undefined && !isNotShown(section1.prose);
  };
  const facets = Object.fromEntries(
    FACETS.map((facet, i): [FacetKey, Facet] => {
      const section = prose.get(i + 1);
      return [
        facet,
        {
          section: i + 1,
          title: section?.title || FACET_TITLES[facet],
          specified: specified(facet),
          prose: section && !isNotShown(section.prose) ? section.prose : '',
          defaultBehaviour: DEFAULT_BEHAVIOUR[facet],
        },
      ];
    }),
  ) as Record<FacetKey, Facet>;

  if (bag.hasErrors) return { ok: false, diagnostics: bag.items };
  const compiled: Model = {
    modelVersion: MODEL_VERSION,
    product,
    // the built-in `roles` field labels its values as the roles are labelled
    entities: { ...ctx.entities, User: withRoleLabels(ctx.entities['User']!, roles) },
    states: ctx.states,
    rules,
    roles,
    screens,
    nav,
    calls,
    notifications,
    webhooks,
    auth,
    errors: ctx.errors,
    constants: ctx.constants,
    limits,
    facets,
  };
  const { translations, diagnostics: translationDiagnostics } = readTranslations(
    compiled,
    translationFiles,
    file,
    bag,
    ctx.spans,
  );
  const model: Model = Object.keys(translations).length > 0 ? { ...compiled, translations } : compiled;
  const diagnostics = [...bag.items, ...translationDiagnostics];
  if (translationDiagnostics.some((d) => d.severity === 'error')) return { ok: false, diagnostics };
  return {
    ok: true,
    model,
    summary: summarize(model, entityEntries.length, dict('errors').length),
    diagnostics,
  };
}

/** Routes the top-level keys of one YAML block to their facets, merging blocks in order. */
function collect(block: YamlBlock, bag: DiagnosticBag, out: Collected, names: Map<string, Span>): void {
  const root = loadYaml(block.text, block.offset, bag);
  if (root === null) return;
  if (root.kind !== 'map') {
    bag.report(
      'NF202',
      root.span,
      'A spec block must be a mapping of top-level keys like `entities:`.',
      `start the block with a key: ${Object.keys(TOP_LEVEL_KEYS).join(', ')}`,
    );
    return;
  }
  for (const entry of root.entries) {
    const info = own(TOP_LEVEL_KEYS, entry.key);
    if (info === undefined) {
      bag.report(
        'NF011',
        entry.keySpan,
        `\`${entry.key}\` is not a top-level key of the notation.`,
        suggestion(entry.key, Object.keys(TOP_LEVEL_KEYS), 'key'),
      );
      continue;
    }
    const key = entry.key as TopKey;
    if (block.section !== null && block.section !== info.section) {
      bag.report(
        'NF010',
        entry.keySpan,
        `\`${key}\` belongs in section ${info.section}, but is written in section ${block.section}.`,
        `move it to \`## ${info.section}. ${FACET_TITLES[FACETS[info.section - 1]!]}\``,
      );
    }
    if (!out.keySpans.has(key)) out.keySpans.set(key, entry.keySpan);
    const value = entry.value;
    if (value.kind === 'scalar' && value.value === null) continue;
    if (info.merge === 'list') {
      if (value.kind !== 'seq') {
        bag.report(
          'NF202',
          value.span,
          `\`${key}\` must be a list.`,
          `write each entry on a line starting with \`- \``,
        );
        continue;
      }
      const list = out.lists.get(key);
      if (list === undefined) out.lists.set(key, [...value.items]);
      else for (const item of value.items) list.push(item);
      continue;
    }
    if (value.kind !== 'map') {
      bag.report('NF202', value.span, `\`${key}\` must be a mapping.`, null);
      continue;
    }
    const list = out.dicts.get(key) ?? [];
    for (const item of value.entries) {
      const id = `${key}.${item.key}`;
      const first = names.get(id);
      if (first !== undefined) {
        bag.report(
          'NF012',
          item.keySpan,
          `\`${item.key}\` is declared a second time under \`${key}\`.`,
          'merge the two declarations into one',
        );
        continue;
      }
      names.set(id, item.keySpan);
      list.push(item);
    }
    out.dicts.set(key, list);
  }
}

/** The first path segments the API answers itself (`notifications`, `admin`…): no resource may take one. */
const FIXED_SEGMENTS = [...new Set(Object.values(API_PATHS).map((path) => path.split('/')[0]!))];

/** Each entity is served at `/api/<resource>`: two entities may not share one, nor take a fixed path. */
function checkResources(ctx: CompileContext): void {
  const byResource = new Map<string, string>();
  for (const entity of Object.values(ctx.entities)) {
    const fixedSpan = ctx.spans.get(entity.name);
    if (FIXED_SEGMENTS.includes(entity.resource) && fixedSpan !== undefined) {
      ctx.bag.report(
        'NF317',
        fixedSpan,
        `\`${entity.name}\` would be served at \`/${entity.resource}\`, which the API keeps for itself.`,
        `rename the entity; ${FIXED_SEGMENTS.map((s) => `\`/${s}\``).join(', ')} are taken`,
      );
    }
    const other = byResource.get(entity.resource);
    if (other === undefined) {
      byResource.set(entity.resource, entity.name);
      continue;
    }
    const span = ctx.spans.get(entity.name) ?? ctx.spans.get(other);
    if (span === undefined) continue;
    ctx.bag.report(
      'NF315',
      span,
      `\`${entity.name}\` would be served at \`/${entity.resource}\`, like \`${other}\`.`,
      `rename one of the two entities`,
    );
  }
}

function summarize(model: Model, declaredEntities: number, declaredErrors: number): Summary {
  const own = Object.values(model.entities).filter((e: Entity) => !e.builtin);
  return {
    entities: declaredEntities === 0 ? 0 : own.length,
    fields: own.reduce((n, e) => n + Object.keys(e.fields).length, 0),
    screens: model.screens.length,
    transitions: Object.values(model.states).reduce((n, m) => n + Object.keys(m.transitions).length, 0),
    rules: model.rules.length,
    roles: Object.keys(model.roles).length,
    errors: declaredErrors,
    constants: Object.keys(model.constants).length,
    unspecified: FACETS.filter((f) => !model.facets[f].specified),
  };
}
