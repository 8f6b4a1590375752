/**
 * An error about a write, as data: a catalogue code, the field it belongs beside, and the
 * arguments of the catalogue message.
 */
import { type ErrorCode, type Value } from '@ninefold/model';

export interface FieldError {
  /** A code of the error catalogue: `E_REQUIRED`, a rule's code, … */
  readonly code: ErrorCode;
  /** The field the message is shown beside, or null for the record as a whole. */
  readonly field: string | null;
  /** The message's arguments: `field` is the field's label, `value` the value given. */
  readonly params: Readonly<Record<string, Value>>;
}

/** A result that is either a value or the errors that prevented it. */
export type Checked<T> =
  { readonly ok: true; readonly record: T } | { readonly ok: false; readonly errors: FieldError[] };
