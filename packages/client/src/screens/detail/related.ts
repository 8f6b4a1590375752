/**
 * The related sections of a record's page (decision 0047): which child relations a detail screen
 * shows, what each is called, which columns it has, and the addresses of its request, its "See
 * all" list and its "Add" form. Pure functions over the model and the user's grants.
 */
import { accessFor } from '@ninefold/engine/grants';
import type { UserContext } from '@ninefold/engine';
import {
  type Entity,
  type Field,
  type Model,
  type RelatedSection,
  type Screen,
  languageOf,
} from '@ninefold/model';
import { type I18n } from '../../i18n/i18n';
import { type ListColumn, isQueryable, listColumns } from '../list/columns';
import { screenFor } from '../../runtime/paths';

/** One section as a page shows it: the child relation with its entity and ref field resolved. */
export interface RelatedView {
  readonly key: string;
  readonly child: Entity;
  readonly via: Field;
  readonly heading: string;
}

/**
 * The child relations a detail screen names (`related:`), or by default every single ref of any
 * entity that points at the screen's entity, in declaration order. A `many` ref (a membership, such
 * as a ticket's watchers) is shown only when the screen names it.
 *
 * @example declaredSections(model, ticketScreen) // [{ entity: 'Comment', via: 'ticket' }]
 */
export function declaredSections(model: Model, screen: Screen): readonly RelatedSection[] {
  if (screen.related !== null) return screen.related;
  const parent = screen.entity;
  if (parent === null) return [];
  const out: RelatedSection[] = [];
  for (const child of Object.values(model.entities))
    for (const field of Object.values(child.fields))
      if (field.type === 'ref' && field.to === parent && !field.many)
        out.push({ entity: child.name, via: field.name });
  return out;
}

/**
 * The sections a user sees on a detail screen: those whose child they may read and whose ref they
 * may filter on (the server refuses a filter on a field it hides). A child shown twice (two refs to
 * the parent) is told apart by its ref: "Pairs by from", "Pairs by to" (`t` says it in the
 * reader's language; without it, in English).
 *
 * @example visibleSections(model, screen, customer) // [{ key: 'Comment.ticket', heading: 'Comments', … }]
 */
export function visibleSections(
  model: Model,
  screen: Screen,
  user: UserContext | null,
  queryable: (entity: string) => ReadonlySet<string> | null,
  t?: I18n['t'],
): RelatedView[] {
  const locale = model.product.locale;
  const by = (entities: string, field: string) =>
    t === undefined ? `${entities} by ${field}` : t('detail.relatedBy', { entities, field });
  const resolved = declaredSections(model, screen).flatMap((section) => {
    const child = model.entities[section.entity];
    const via = child?.fields[section.via];
    if (child === undefined || via === undefined) return [];
    if (accessFor(model, user, 'read', child.name) === false) return [];
    if (!isQueryable(queryable(child.name), via.name)) return [];
    return [{ child, via }];
  });
  return resolved.map(({ child, via }) => {
    const twice = resolved.filter((other) => other.child.name === child.name).length > 1;
    return {
      key: `${child.name}.${via.name}`,
      child,
      via,
      heading: twice ? by(child.pluralLabel, lowerLabel(via.label, locale)) : child.pluralLabel,
    };
  });
}

/**
 * The columns of a section: those of the child's list screen (or the entity's default few), less
 * the ref to the parent, which every row shares; `t` names the system columns.
 *
 * @example sectionColumns(model, commentsOfTicket, null, null, t).map((c) => c.name) // ['author', 'internal', 'createdAt']
 */
export function sectionColumns(
  model: Model,
  section: RelatedView,
  readable: readonly string[] | null,
  queryable: ReadonlySet<string> | null,
  t: I18n['t'],
): ListColumn[] {
  const list = screenFor(model, section.child.name, 'list') ?? defaultListScreen(section.child);
  return listColumns(model, list, readable, queryable, t).filter(
    (column) => column.name !== section.via.name && column.optional !== true,
  );
}

/** A list screen of the entity with no columns named, so that the entity's default ones are shown. */
function defaultListScreen(entity: Entity): Screen {
  return {
    id: `${entity.resource}-related`,
    path: `/${entity.resource}`,
    kind: 'list',
    entity: entity.name,
    title: entity.pluralLabel,
    roles: null,
    fields: [],
    filters: [],
    where: null,
    sort: null,
    actions: [],
    body: '',
    related: null,
    widgets: [],
    generated: true,
  };
}

/**
 * The filter that keeps the children of one parent, as the API and a list's URL read it: `ticket[eq]`
 * for a single ref, `watchers[contains]` for a list of refs.
 *
 * @example parentFilter(commentTicket, 't1') // { 'ticket[eq]': 't1' }
 */
export function parentFilter(via: Field, parentId: string): Record<string, string> {
  return { [`${via.name}[${via.many ? 'contains' : 'eq'}]`]: parentId };
}

/** The sort a section starts with: the child's list screen's, or the newest first. */
export function sectionSort(model: Model, child: Entity): string {
  return screenFor(model, child.name, 'list')?.sort ?? '-createdAt';
}

/**
 * The address of the child's create form with the parent set (`/comments/new?ticket=<id>`): the
 * form reads it and, once saved, comes back to the parent's page.
 *
 * @example addPath('/comments/new', commentTicket, 't1') // '/comments/new?ticket=t1'
 */
export function addPath(createPath: string, via: Field, parentId: string): string {
  return `${createPath}?${new URLSearchParams({ [via.name]: parentId }).toString()}`;
}

/**
 * The address of the child's list filtered by the parent: a deep link that survives a reload.
 *
 * @example seeAllPath('/comments', commentTicket, 't1') // '/comments?ticket%5Beq%5D=t1'
 */
export function seeAllPath(listPath: string, via: Field, parentId: string): string {
  return `${listPath}?${new URLSearchParams(parentFilter(via, parentId)).toString()}`;
}

/** "No comments yet", in the reader's language. */
export function emptyText(section: RelatedView, t: I18n['t'], locale: string): string {
  return t('detail.relatedEmpty', { entities: lowerFirst(section.child.pluralLabel, locale) });
}

/**
 * A spec's word as it reads inside a sentence: "Claims" → "claims", but "API keys" stays as it
 * is, and German keeps its nouns' capitals.
 *
 * @example lowerFirst('Claims') // 'claims'; lowerFirst('Anträge', 'de-DE') // 'Anträge'
 */
export function lowerFirst(word: string, locale?: string): string {
  if (locale !== undefined && languageOf(locale) === 'de') return word;
  return /^[A-Z][a-z]/.test(word) ? word.charAt(0).toLowerCase() + word.slice(1) : word;
}

/**
 * An entity's label inside a sentence, all in lower case ("Delete expense claim"), but as the spec
 * wrote it in German, whose nouns keep their capitals.
 *
 * @example lowerLabel('Claim', 'en-GB') // 'claim'; lowerLabel('Antrag', 'de-DE') // 'Antrag'
 */
export function lowerLabel(label: string, locale: string): string {
  return languageOf(locale) === 'de' ? label : label.toLocaleLowerCase(locale);
}
