/**
 * What every field control takes: `FieldInput` and the controls it chooses between (the file
 * control among them) share it from here, below both.
 */
import { type Field, type Value } from '@ninefold/model';

export interface FieldInputProps {
  field: Field;
  value: Value | undefined;
  onChange(value: Value): void;
  onBlur?(): void;
  /** The message shown beside the field. */
  error?: string | undefined;
  /** Shown, not editable: a read-only field, or one the role may not write. */
  disabled?: boolean;
  /** Marks the field as required; by default the field's own `required`. */
  required?: boolean;
  /** The label; by default the field's. */
  label?: string;
  /**
   * Told when the text typed cannot be a value at all (JSON that does not parse), with the message
   * shown, and `null` once it can: the value given to `onChange` is then the last good one.
   */
  onInvalid?(message: string | null): void;
}
