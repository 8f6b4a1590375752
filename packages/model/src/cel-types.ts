/**
 * How model values appear inside CEL expressions. Shared by the compiler (type-checking) and the
 * engine (evaluation), so that both see the same variables with the same types.
 */
import { FIELD_TYPE_INFO } from './field-types.js';
import { type Entity, type Field, type StateMachine } from './model.js';

/**
 * CEL type of a field. decimal and money are `double` in expressions: bounded to 15 significant
 * digits (MAX_PRECISION), every such decimal converts to a double that compares exactly.
 * Storage and the wire stay exact; only arithmetic inside an expression is binary.
 */
export function celTypeOf(field: Pick<Field, 'type' | 'many'>): string {
  const single = FIELD_TYPE_INFO[field.type].cel;
  return field.many ? `list<${single}>` : single;
}

/** The system fields of a record and their CEL types; `state` only with a state machine. */
export function systemFieldTypes(machine: StateMachine | undefined | boolean): Record<string, string> {
  return {
    id: 'string',
    createdAt: 'google.protobuf.Timestamp',
    updatedAt: 'google.protobuf.Timestamp',
    createdBy: 'string',
    version: 'int',
    ...(machine ? { state: 'string' } : {}),
  };
}

/** The names of a record's variables (its fields and system fields) with their CEL types. */
export function recordSchema(
  entity: Entity,
  machine: StateMachine | undefined | boolean,
): Record<string, string> {
  const schema: Record<string, string> = systemFieldTypes(machine);
  for (const field of Object.values(entity.fields)) schema[field.name] = celTypeOf(field);
  return schema;
}

/** The `user` variable: the signed-in user. Extra fields declared on User are included. */
export function userSchema(user: Entity | undefined): Record<string, string> {
  const schema: Record<string, string> = {
    id: 'string',
    email: 'string',
    name: 'string',
    roles: 'list<string>',
  };
  for (const field of Object.values(user?.fields ?? {})) {
    if (!(field.name in schema) && field.name !== 'disabled') schema[field.name] = celTypeOf(field);
  }
  return schema;
}

/** CEL type of a constant's value. */
export function celTypeOfConstant(value: number | string | boolean): string {
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'double';
  return typeof value === 'string' ? 'string' : 'bool';
}

/** Names every expression may use besides fields and constants. */
export const CONTEXT_NAMES = ['user', 'now', 'today', 'self', 'own', 'old'] as const;

/**
 * Names a field may take although expressions have them already (decision 0064): the context
 * names but `self`, and CEL's type names. Inside an expression the bare name keeps its meaning
 * (`user` is the signed-in user) and the record's field is `self.user`; no field of one of these
 * names is bound as a variable of its own.
 */
export const SHADOWED_NAMES: readonly string[] = [
  ...CONTEXT_NAMES.filter((name) => name !== 'self'),
  ...['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'type', 'null_type', 'dyn'],
  ...['google', 'optional'],
];

/** Whether a record field of this name is reached only as `self.<name>` in expressions. */
export function isShadowedName(name: string): boolean {
  return SHADOWED_NAMES.includes(name);
}
