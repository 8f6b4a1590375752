/**
 * How the compiler names an entity's records when the spec declares no `display` (decision 0065):
 * a human field (`name`, `title`, `subject`…), else first and last name together, else a required
 * text field, else the entity's label before a short human key (`Invoice 42`, `Visit 2026-03-01`).
 * Never the raw id: with nothing human, records are named by their label and creation time, and
 * `check` says so (NF323).
 */
import { type Entity, type EntityTitle, type Field } from '@ninefold/model';

/** Field names that name a record, best first. */
const HUMAN_NAMES = [
  'name',
  'title',
  'subject',
  'label',
  'heading',
  'headline',
  'displayname',
  'fullname',
  'summary',
  'caption',
  'topic',
];

/** Given-name and family-name fields that together name a person. */
const NAME_PAIRS: readonly (readonly [string, string])[] = [
  ['firstname', 'lastname'],
  ['first', 'last'],
  ['givenname', 'familyname'],
  ['forename', 'surname'],
  ['firstname', 'surname'],
];

/** Types whose value alone is a human name for a record. */
const NAMING_TYPES = new Set(['email', 'phone', 'url']);
/** Types whose value names a record after the entity's label: `Invoice 42`. */
const KEY_TYPES = ['integer', 'date', 'datetime'];

/** The display field and, when it alone does not name a record, how the name is composed. */
export interface TitleChoice {
  readonly display: string;
  readonly title: EntityTitle | null;
  /** False when nothing human was found: records are named by label and creation time (NF323). */
  readonly human: boolean;
}

/** The name of records when nothing human names them: the label and the creation time. */
export function fallbackTitle(entity: Entity): TitleChoice {
  return { display: 'createdAt', title: { fields: ['createdAt'], prefix: entity.label }, human: false };
}

/**
 * Chooses how an entity's records are named when the spec names no display field.
 *
 * @example chooseTitle(person) // { display: 'firstName', title: { fields: ['firstName', 'lastName'], prefix: '' } }
 */
export function chooseTitle(entity: Entity): TitleChoice {
  const single = Object.values(entity.fields).filter((f) => !f.many);
  const strings = single.filter((f) => f.type === 'string');
  const byName = (name: string): Field | undefined =>
    strings.find((f) => f.name.toLowerCase().replace(/[_-]/g, '') === name);

  for (const name of HUMAN_NAMES) {
    const field = byName(name);
    if (field !== undefined) return { display: field.name, title: null, human: true };
  }
  for (const [first, last] of NAME_PAIRS) {
    const given = byName(first);
    const family = byName(last);
    if (given !== undefined && family !== undefined)
      return { display: given.name, title: { fields: [given.name, family.name], prefix: '' }, human: true };
  }
  const text = strings.find((f) => f.required) ?? strings[0] ?? single.find((f) => NAMING_TYPES.has(f.type));
  if (text !== undefined) return { display: text.name, title: null, human: true };
  for (const type of KEY_TYPES) {
    const key = single.find((f) => f.type === type && f.required) ?? single.find((f) => f.type === type);
    if (key !== undefined)
      return { display: key.name, title: { fields: [key.name], prefix: entity.label }, human: true };
  }
  return fallbackTitle(entity);
}
