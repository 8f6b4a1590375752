/**
 * The columns of a list screen: the screen's own, or a sensible few of the entity's fields, cut to
 * what the signed-in user may read. Pure functions over the model and the user (and `t`, which
 * names the system columns in the reader's language).
 */
import {
  ACTIONS_KEY,
  FIELD_TYPE_INFO,
  type Entity,
  type Field,
  type Model,
  type Screen,
  SYSTEM_FIELDS,
  plainField,
} from '@ninefold/model';
import { systemFieldLabel } from '../../format/field-labels';
import { type I18n } from '../../i18n/i18n';
import { hasField } from './list-params';

/** One column: the field it shows (system columns get a field-like description too). */
export interface ListColumn {
  readonly name: string;
  readonly label: string;
  readonly field: Field;
  /** The server can order rows by it for this user. */
  readonly sortable: boolean;
  /** Offered by the column chooser but hidden until chosen: the state of a screen that names its fields. */
  readonly optional?: boolean;
}

/** The id of the column of a row's transition buttons: the record's key of them, which no field can take. */
export const ACTIONS_COLUMN = ACTIONS_KEY;

/** How many fields a list shows when its screen names none, besides the state. */
export const DEFAULT_COLUMN_COUNT = 6;

const isSystem = (name: string) => (SYSTEM_FIELDS as readonly string[]).includes(name);

/**
 * A field of the entity, or the field-like description of a system column, labelled in the
 * reader's language; null when neither.
 */
export function fieldOf(model: Model, entity: Entity, name: string, t: I18n['t']): Field | null {
  const own = entity.fields[name];
  if (own !== undefined) return own;
  if (!hasField(model, entity, name)) return null;
  const machine = model.states[entity.name];
  const base: Field = {
    ...plainField(name, 'string'),
    label: systemFieldLabel(name, t),
    readonly: true,
  };
  switch (name) {
    case 'createdAt':
    case 'updatedAt':
      return { ...base, type: 'datetime' };
    case 'createdBy':
      return { ...base, type: 'ref', to: 'User' };
    case 'version':
      return { ...base, type: 'integer' };
    case 'state':
      return { ...base, type: 'enum', values: Object.keys(machine?.states ?? {}) };
    default:
      return base;
  }
}

/** Whether the user may filter or sort on a field. */
export function isQueryable(queryable: ReadonlySet<string> | null, name: string): boolean {
  return isSystem(name) || queryable === null || queryable.has(name);
}

/** Whether the server can order rows by a field: a single scalar the user may query. */
export function isSortable(field: Field, queryable: ReadonlySet<string> | null): boolean {
  // only an order that means something to a reader: a ref's stored value is an id, which would look random
  if (field.many || FIELD_TYPE_INFO[field.type].sort !== 'ordered') return false;
  return isQueryable(queryable, field.name);
}

/**
 * The columns of a list screen for a user.
 *
 * @example listColumns(model, screen, ['title', 'amount'], null, t) // title, amount and the system columns named
 */
export function listColumns(
  model: Model,
  screen: Screen,
  readable: readonly string[] | null,
  queryable: ReadonlySet<string> | null,
  t: I18n['t'],
): ListColumn[] {
  const entity = model.entities[screen.entity ?? ''];
  if (entity === undefined) return [];
  const mayRead = (name: string) => isSystem(name) || readable === null || readable.includes(name);
  let names: string[];
  if (screen.fields.length > 0) {
    names = screen.fields.filter(mayRead);
  } else {
    const candidates = Object.values(entity.fields)
      .filter((f) => mayRead(f.name) && FIELD_TYPE_INFO[f.type].listed)
      .map((f) => f.name);
    // the record's title first: it is the link to the record
    if (candidates.includes(entity.display))
      candidates.splice(0, 0, ...candidates.splice(candidates.indexOf(entity.display), 1));
    // records named by their creation time (decision 0065): that time is the column that links to them
    if (
      !candidates.includes(entity.display) &&
      (entity.display === 'createdAt' || entity.display === 'updatedAt')
    )
      candidates.unshift(entity.display);
    names = candidates.slice(0, DEFAULT_COLUMN_COUNT);
    if (model.states[entity.name] !== undefined) names.push('state');
  }
  const out: ListColumn[] = [];
  for (const name of new Set(names)) {
    const field = fieldOf(model, entity, name, t);
    if (field === null) continue;
    out.push({ name, label: field.label, field, sortable: isSortable(field, queryable) });
  }
  // a screen that names its fields without the state still lets the reader add it (decision 0065)
  if (model.states[entity.name] !== undefined && !names.includes('state')) {
    const state = fieldOf(model, entity, 'state', t);
    if (state !== null)
      out.push({
        name: 'state',
        label: state.label,
        field: state,
        sortable: isSortable(state, queryable),
        optional: true,
      });
  }
  return out;
}
