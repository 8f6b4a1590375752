import { type Span } from '../diagnostics/diagnostic.js';
import { own } from '../own.js';
import { suggestion } from '../diagnostics/suggest.js';
import { checkExpression } from '../expressions/check.js';
import {
  FIELD_TYPE_INFO,
  RESERVED_PATHS,
  SCREEN_KINDS,
  type Entity,
  type NavItem,
  type Screen,
  type ScreenKind,
  humanize,
} from '@ninefold/model';
import { type YEntry, type YNode } from '../source/yaml.js';
import { type CompileContext } from './context.js';
import { checkName } from './reader.js';
import { readWidgets } from './widgets.js';
import { readRelated } from './related.js';

export const SCREEN_KEYS = [
  'path',
  'kind',
  'entity',
  'title',
  'roles',
  'columns',
  'fields',
  'filters',
  'where',
  'sort',
  'actions',
  'body',
  'widgets',
  'related',
] as const;
export const NAV_KEYS = ['screen', 'label', 'icon'] as const;
const RECORD_ACTIONS = ['create', 'edit', 'delete', 'export'];

/**
 * Reads `screens:` and fills in the default screens: every entity gets a list, detail, create and
 * edit screen unless the spec declares one of that kind for it, so every record has a deep link.
 */
export function readScreens(
  ctx: CompileContext,
  entries: readonly YEntry[],
): { screens: Screen[]; roleRefs: { name: string; span: Span }[] } {
  const { reader, bag } = ctx;
  const screens: Screen[] = [];
  const roleRefs: { name: string; span: Span }[] = [];
  const paths = new Map<string, string>();
  const entityNames = Object.keys(ctx.entities);

  for (const entry of entries) {
    if (!checkName(bag, 'screen', entry)) continue;
    const where = `screen \`${entry.key}\``;
    const m = reader.map(entry.value, where, SCREEN_KEYS);
    if (m === null) continue;
    const str = (key: string) => {
      const e = m.get(key);
      return e ? reader.string(e.value, `\`${key}\` of ${where}`) : null;
    };
    let kind: ScreenKind = 'list';
    const kindEntry = m.get('kind');
    const kindName = str('kind');
    if (kindName !== null) {
      if ((SCREEN_KINDS as readonly string[]).includes(kindName)) kind = kindName as ScreenKind;
      else
        bag.report(
          'NF211',
          kindEntry!.value.span,
          `\`${kindName}\` is not a kind of screen.`,
          suggestion(kindName, SCREEN_KINDS, 'kind'),
        );
    }
    let entity: Entity | null = null;
    const entityEntry = m.get('entity');
    const entityName = str('entity');
    if (entityName !== null) {
      entity = own(ctx.entities, entityName) ?? null;
      if (entity === null)
        bag.report(
          'NF301',
          entityEntry!.value.span,
          `\`${entityName}\` is not a declared entity, so ${where} cannot show it.`,
          suggestion(entityName, entityNames, 'entity'),
        );
    } else if (kind !== 'page' && kind !== 'dashboard' && entityEntry === undefined) {
      reader.missing(entry.keySpan, 'entity', where, 'entity: Claim');
    }
    const widgetsEntry = m.get('widgets');
    if (kind === 'dashboard' && entityEntry !== undefined) {
      bag.report(
        'NF232',
        entityEntry.keySpan,
        `${capital(where)} is a dashboard: each of its widgets names its entity, the screen does not.`,
        'move `entity:` into each widget',
      );
      entity = null;
    } else if (kind !== 'dashboard' && widgetsEntry !== undefined) {
      bag.report(
        'NF232',
        widgetsEntry.keySpan,
        `${capital(where)} is a ${kind} screen; only a dashboard holds widgets.`,
        'add `kind: dashboard`, or remove `widgets:`',
      );
    } else if (kind === 'dashboard' && widgetsEntry === undefined) {
      reader.missing(entry.keySpan, 'widgets', where, 'widgets: [{ title: Claims, entity: Claim }]');
    }
    const widgets =
      kind === 'dashboard' && widgetsEntry !== undefined ? readWidgets(ctx, widgetsEntry.value, where) : [];
    const path = str('path') ?? defaultPath(kind, entity, entry.key);
    const pathSpan = m.get('path')?.value.span ?? entry.keySpan;
    checkPath(ctx, path, kind, pathSpan, where, paths, entry.key);

    const fieldList = (key: 'columns' | 'fields' | 'filters') => {
      const e = m.get(key);
      if (e === undefined || entity === null) return null;
      const names = [
        'id',
        'createdAt',
        'updatedAt',
        'createdBy',
        ...(ctx.states[entity.name] ? ['state'] : []),
        ...Object.keys(entity.fields),
      ];
      const out: string[] = [];
      for (const { name, span } of reader.names(e.value, `\`${key}\` of ${where}`)) {
        if (!names.includes(name))
          bag.report(
            'NF302',
            span,
            `\`${entity.name}\` has no field \`${name}\` for ${where} to show.`,
            suggestion(name, names, 'field'),
          );
        else out.push(name);
      }
      return out;
    };
    const fields =
      fieldList('columns') ??
      fieldList('fields') ??
      (entity ? defaultFields(entity, kind, ctx.states[entity.name] !== undefined) : []);
    const filters = fieldList('filters') ?? [];

    const actions: string[] = [];
    const actionsEntry = m.get('actions');
    for (const { name, span } of actionsEntry
      ? reader.names(actionsEntry.value, `the actions of ${where}`)
      : []) {
      const transitions = entity ? Object.keys(ctx.states[entity.name]?.transitions ?? {}) : [];
      if (RECORD_ACTIONS.includes(name) || transitions.includes(name)) actions.push(name);
      else
        bag.report(
          'NF307',
          span,
          `\`${name}\` is neither a record action (${RECORD_ACTIONS.join(', ')}) nor a transition${entity ? ` of \`${entity.name}\`` : ''}.`,
          suggestion(name, [...RECORD_ACTIONS, ...transitions], 'action'),
        );
    }
    const rolesEntry = m.get('roles');
    const roles = rolesEntry ? reader.names(rolesEntry.value, `the roles of ${where}`) : null;
    if (roles) roleRefs.push(...roles);

    let where_ = null;
    const whereEntry = m.get('where');
    if (whereEntry && entity !== null) {
      const source = reader.string(whereEntry.value, `the filter of ${where}`);
      if (source !== null) {
        where_ = checkExpression(ctx, ctx.envs, {
          source,
          span: whereEntry.value.span,
          raw: whereEntry.value.raw,
          scope: { entity, old: false },
          expect: 'bool',
          sql: true,
          what: `the filter of ${where}`,
        });
      }
    }
    const sort = str('sort');
    if (sort !== null && entity !== null) {
      const field = sort.replace(/^-/, '');
      const sortable = [
        'id',
        'createdAt',
        'updatedAt',
        ...(ctx.states[entity.name] ? ['state'] : []),
        ...Object.keys(entity.fields).filter(
          (f) => !entity!.fields[f]!.many && FIELD_TYPE_INFO[entity!.fields[f]!.type].sort !== null,
        ),
      ];
      if (!sortable.includes(field))
        bag.report(
          'NF302',
          m.get('sort')!.value.span,
          `\`${entity.name}\` has no sortable field \`${field}\`.`,
          suggestion(field, sortable, 'field'),
        );
    }
    screens.push({
      id: entry.key,
      path,
      kind,
      entity: entity?.name ?? null,
      title: str('title') ?? (entity ? defaultTitle(kind, entity) : humanize(entry.key)),
      roles: roles?.map((r) => r.name) ?? null,
      fields,
      filters,
      where: where_,
      sort,
      actions: actionsEntry ? actions : entity ? defaultActions(kind, ctx, entity) : [],
      body: str('body') ?? '',
      related: readRelated(ctx, m.get('related'), kind, entity, where),
      widgets,
      generated: false,
    });
  }

  // defaults for every entity and kind the spec did not declare
  const declared = new Set(screens.map((s) => `${s.entity}|${s.kind}`));
  for (const entity of Object.values(ctx.entities)) {
    for (const kind of ['list', 'detail', 'create', 'edit'] as const) {
      if (declared.has(`${entity.name}|${kind}`)) continue;
      const path = defaultPath(kind, entity, '');
      if (paths.has(path)) continue;
      paths.set(path, `${entity.resource}-${kind}`);
      screens.push({
        id: kind === 'list' ? entity.resource : `${entity.resource}-${kind}`,
        path,
        kind,
        entity: entity.name,
        title: defaultTitle(kind, entity),
        roles: null,
        fields: defaultFields(entity, kind, ctx.states[entity.name] !== undefined),
        filters: kind === 'list' ? defaultFilters(ctx, entity) : [],
        where: null,
        sort: kind === 'list' ? '-createdAt' : null,
        actions: defaultActions(kind, ctx, entity),
        body: '',
        related: null,
        widgets: [],
        generated: true,
      });
    }
  }
  return { screens, roleRefs };
}

function checkPath(
  ctx: CompileContext,
  path: string,
  kind: ScreenKind,
  span: Span,
  where: string,
  paths: Map<string, string>,
  id: string,
) {
  const { bag } = ctx;
  if (!/^\/[A-Za-z0-9\-_/:.]*$/.test(path)) {
    bag.report(
      'NF207',
      span,
      `The path \`${path}\` of ${where} is not a route path.`,
      'start it with `/` and use letters, digits, `-` and `:id`',
    );
    return;
  }
  const needsId = kind === 'detail' || kind === 'edit';
  if (needsId !== path.includes(':id')) {
    bag.report(
      'NF207',
      span,
      `The path of a ${kind} screen ${needsId ? 'must' : 'must not'} contain \`:id\`; ${where} has \`${path}\`.`,
      needsId ? 'for example `/claims/:id`' : 'for example `/claims`',
    );
  }
  const reserved = RESERVED_PATHS.find((r) => path === r || path.startsWith(`${r}/`));
  if (reserved !== undefined) {
    bag.report(
      'NF209',
      span,
      `The path \`${path}\` of ${where} is reserved by the runtime (\`${reserved}\`).`,
      'choose another path',
    );
    return;
  }
  const other = paths.get(path);
  if (other !== undefined)
    bag.report(
      'NF311',
      span,
      `${capital(where)} has the path \`${path}\`, like screen \`${other}\`.`,
      'give each screen its own path',
    );
  else paths.set(path, id);
}

function capital(s: string) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function defaultPath(kind: ScreenKind, entity: Entity | null, id: string): string {
  if (entity === null) return `/${id}`;
  const base = `/${entity.resource}`;
  return {
    list: base,
    detail: `${base}/:id`,
    create: `${base}/new`,
    edit: `${base}/:id/edit`,
    page: `/${id}`,
    dashboard: `/${id}`,
  }[kind];
}

function defaultTitle(kind: ScreenKind, entity: Entity): string {
  return {
    list: entity.pluralLabel,
    detail: entity.label,
    create: `New ${entity.label.toLowerCase()}`,
    edit: `Edit ${entity.label.toLowerCase()}`,
    page: entity.label,
    dashboard: entity.pluralLabel,
  }[kind];
}

/**
 * A screen's fields when it names none. A list's: the record's name first (the link to it; its
 * creation time when that names it), six fields, and the state when the entity has one (decision 0065).
 */
function defaultFields(entity: Entity, kind: ScreenKind, hasStates: boolean): string[] {
  const fields = Object.values(entity.fields);
  if (kind === 'list') {
    const listed = fields.filter((f) => FIELD_TYPE_INFO[f.type].listed && !f.many).map((f) => f.name);
    const name = entity.display;
    const first = listed.includes(name) || name === 'createdAt' || name === 'updatedAt' ? [name] : [];
    const columns = [...first, ...listed.filter((f) => f !== name)].slice(0, 6);
    return hasStates ? [...columns, 'state'] : columns;
  }
  return fields.map((f) => f.name);
}

function defaultFilters(ctx: CompileContext, entity: Entity): string[] {
  const filters = Object.values(entity.fields)
    .filter((f) => FIELD_TYPE_INFO[f.type].defaultFilter && !f.many)
    .map((f) => f.name);
  return ctx.states[entity.name] ? ['state', ...filters] : filters;
}

function defaultActions(kind: ScreenKind, ctx: CompileContext, entity: Entity): string[] {
  const transitions = Object.keys(ctx.states[entity.name]?.transitions ?? {});
  if (kind === 'list') return ['create', 'export'];
  if (kind === 'detail') return ['edit', 'delete', ...transitions];
  return [];
}

/** Reads `nav:`: the screens the navigation shows, in order; defaults to every list and page. */
export function readNav(
  ctx: CompileContext,
  items: readonly YNode[] | null,
  screens: readonly Screen[],
): NavItem[] {
  if (items === null) {
    return screens
      .filter((s) => s.kind === 'list' || s.kind === 'page' || s.kind === 'dashboard')
      .filter((s) => s.entity !== 'User' || !s.generated)
      .map((s) => ({ label: s.title, screen: s.id, icon: null }));
  }
  const { reader, bag } = ctx;
  const nav: NavItem[] = [];
  for (const item of items) {
    let id: string | null;
    let label: string | null = null;
    let icon: string | null = null;
    let span = item.span;
    if (item.kind === 'scalar') id = reader.string(item, 'a navigation entry');
    else {
      const m = reader.map(item, 'a navigation entry', NAV_KEYS);
      const s = m?.get('screen');
      if (s === undefined) {
        if (m !== null) reader.missing(item.span, 'screen', 'a navigation entry', 'screen: claims');
        continue;
      }
      span = s.value.span;
      id = reader.string(s.value, 'the screen of a navigation entry');
      const l = m?.get('label');
      if (l) label = reader.string(l.value, 'the label of a navigation entry');
      const i = m?.get('icon');
      if (i) icon = reader.string(i.value, 'the icon of a navigation entry');
    }
    if (id === null) continue;
    const screen = screens.find((s) => s.id === id);
    if (screen === undefined) {
      bag.report(
        'NF310',
        span,
        `\`${id}\` is not a declared screen.`,
        suggestion(
          id,
          screens.map((s) => s.id),
          'screen',
        ),
      );
      continue;
    }
    if (screen.kind === 'detail' || screen.kind === 'edit') {
      bag.report(
        'NF313',
        span,
        `Screen \`${id}\` shows one record (\`${screen.path}\`) and cannot be opened from the navigation.`,
        'link a list, create, page or dashboard screen',
      );
      continue;
    }
    nav.push({ label: label ?? screen.title, screen: id, icon });
  }
  return nav;
}
