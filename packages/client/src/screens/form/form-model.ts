/**
 * What a form shows and what it sends, decided from the model and the user's permissions: its
 * fields (editable or not), its first values, the engine's verdict on what is typed, and the
 * changes an edit sends. Pure functions; `RecordForm` renders them.
 */
import {
  type FieldError,
  type UserContext,
  type WireRecord,
  applyDefaults,
  checkFieldValue,
  isEmptyValue,
  validateRecord,
} from '@ninefold/engine';
import {
  type Entity,
  type Field,
  type FieldProblem,
  type Model,
  type Screen,
  type Value,
} from '@ninefold/model';
import { message } from '../../runtime/messages';
import { sameValue } from '../../fields/input-values';

export type FormValues = Record<string, Value>;

export interface FormField {
  readonly field: Field;
  /** False for a read-only field and for one the role may read but not write. */
  readonly editable: boolean;
}

/**
 * The fields of a form screen in order: the screen's, or every field that is not read-only; those
 * the role may not read are left out.
 */
export function formFields(
  screen: Screen,
  entity: Entity,
  access: { readable: readonly string[] | null; writable: readonly string[] | null },
  /** A new record's defaults; null when editing. */
  defaults: Readonly<Record<string, Value>> | null,
): FormField[] {
  const names =
    screen.fields.length > 0
      ? screen.fields
      : Object.values(entity.fields)
          .filter((field) => !field.readonly)
          .map((field) => field.name);
  const out: FormField[] = [];
  for (const name of names) {
    const field = Object.prototype.hasOwnProperty.call(entity.fields, name) ? entity.fields[name] : undefined;
    if (field === undefined) continue; // system fields (state, createdAt…) are never typed in
    if (access.readable !== null && !access.readable.includes(name)) continue;
    const editable = !field.readonly && (access.writable === null || access.writable.includes(name));
    // a new record's read-only field is the server's to fill in: shown when the spec's screen
    // asks for it or it has a default to show, not as an empty box on a generated screen
    if (defaults !== null && field.readonly && screen.generated && (defaults[field.name] ?? null) === null)
      continue;
    out.push({ field, editable });
  }
  return out;
}

/** A new record's defaults, literal or computed (`today`, `user.department`). */
export function newRecordDefaults(
  model: Model,
  entity: Entity,
  options: { user: UserContext | null; now: Date },
): Record<string, Value> {
  return applyDefaults(model, entity.name, {}, options);
}

/** The form's values of an existing record. */
export function recordValues(record: WireRecord, fields: readonly FormField[]): FormValues {
  return Object.fromEntries(fields.map(({ field }) => [field.name, record[field.name] ?? null]));
}

export interface FormCheck {
  /** Whether the engine finds nothing the user could fix: the form may be sent. */
  readonly ok: boolean;
  /** The first message for each field of the form. */
  readonly fields: Readonly<Record<string, string>>;
  /** Messages that belong to no field on the form: rules about the whole record. */
  readonly form: readonly string[];
}

/**
 * The engine's verdict on the form's values, exactly as the server will decide it: the values of
 * a new record with their defaults, or the edited values over the record as it was.
 *
 * @example checkForm(model, claim, { title: 'ab' }, { operation: 'create', user, now, shown, readable: null })
 * // { ok: false, fields: { title: 'Title must be at least 3 characters long.', … }, form: [] }
 */
export function checkForm(
  model: Model,
  entity: Entity,
  values: Readonly<FormValues>,
  options: {
    operation: 'create' | 'update';
    user: UserContext | null;
    now: Date;
    old: WireRecord | null;
    shown: ReadonlySet<string>;
    /** Fields the user may read; `null` for all. */
    readable: readonly string[] | null;
  },
): FormCheck {
  const input =
    options.operation === 'create'
      ? applyDefaults(model, entity.name, values, { user: options.user, now: options.now })
      : values;
  const result = validateRecord(model, entity.name, input, {
    operation: options.operation,
    user: options.user,
    now: options.now,
    old: options.old,
  });
  if (result.ok) return { ok: true, fields: {}, form: [] };
  const { readable } = options;
  // a field the user may not see is not theirs to fix: the server has the last word on it
  const fixable = result.errors.filter(
    (error) => error.field === null || readable === null || readable.includes(error.field),
  );
  const placed = placeErrors(model, engineProblems(model, fixable), options.shown);
  return { ok: fixable.length === 0, ...placed };
}

/** A problem to show: its code, the field it names (if any) and its message. */
export interface Placeable {
  readonly code: string;
  readonly field: string | null;
  readonly text: string;
}

/** The engine's errors as messages of the catalogue. */
export function engineProblems(model: Model, errors: readonly FieldError[]): Placeable[] {
  return errors.map((error) => ({
    code: error.code,
    field: error.field,
    text: message(model, error.code, error.params),
  }));
}

/** The server's field problems, with the messages it rendered. */
export function serverProblems(errors: readonly FieldProblem[]): Placeable[] {
  return errors.map((error) => ({ code: error.code, field: error.field, text: error.message }));
}

/**
 * Each problem beside its field when the form shows it (the one it names, else the one its
 * catalogue entry names), otherwise for the form as a whole.
 */
export function placeErrors(
  model: Model,
  problems: readonly Placeable[],
  shown: ReadonlySet<string>,
): { fields: Record<string, string>; form: string[] } {
  const fields: Record<string, string> = {};
  const form: string[] = [];
  for (const problem of problems) {
    const field = problem.field ?? model.errors[problem.code]?.field ?? null;
    if (field !== null && shown.has(field)) fields[field] ??= problem.text;
    else if (!form.includes(problem.text)) form.push(problem.text);
  }
  return { fields, form };
}

/** A field's value in the engine's normal form (`12.5` → `12.50`), null when empty. */
function normalValue(field: Field, value: Value | undefined): Value {
  if (isEmptyValue(field, value)) return null;
  const checked = checkFieldValue(field, value as Value);
  return checked.ok ? checked.value : (value as Value);
}

/** The editable fields whose value differs from the record's: what an edit sends. */
export function changedValues(
  values: Readonly<FormValues>,
  old: WireRecord,
  fields: readonly FormField[],
): FormValues {
  const changes: FormValues = {};
  for (const { field, editable } of fields) {
    if (!editable) continue;
    const value = normalValue(field, values[field.name]);
    if (!sameValue(value, old[field.name] ?? null)) changes[field.name] = value;
  }
  return changes;
}

/**
 * What a create sends: the editable fields with a value, and null for one with a default the user
 * emptied (sending nothing would give it its default again); the server defaults the rest.
 */
export function createdValues(values: Readonly<FormValues>, fields: readonly FormField[]): FormValues {
  const body: FormValues = {};
  for (const { field, editable } of fields) {
    const value = normalValue(field, values[field.name]);
    if (editable && (value !== null || field.default !== null)) body[field.name] = value;
  }
  return body;
}
