/**
 * @ninefold/engine — the rules of a Ninefold model, decided identically in the browser, on the
 * server and, for reads, in SQL. Framework-free: it sees only the compiled model.
 *
 * @example
 * import { can, validateRecord, toSqlFilter } from '@ninefold/engine';
 * if (can(model, user, 'create', 'Claim', input, { now })) validateRecord(model, 'Claim', input, { operation: 'create', user, now });
 */
export { type Clock, type UserContext, type WireRecord, isAbsent, lookup, utcDate } from './record.js';
export {
  type EvalContext,
  type Outcome,
  activation,
  environment,
  evaluate,
  holds,
  violated,
} from './expressions.js';
export { fromCel, toCel } from './cel-values.js';
export { type Checked, type FieldError } from './field-error.js';
export { type FieldCheck, checkFieldValue, isEmptyValue } from './field-value.js';
export { type Operation, type ValidateOptions, rulesFor, validateRecord } from './validate.js';
export { type DefaultsOptions, applyDefaults } from './defaults.js';
export { type WriteCheckOptions, checkWrite } from './write-check.js';
export { type ChildRows, changedComputed, computeValues, relationsRead } from './computed.js';
export { type Action, accessFor, grantsOf, mayOpenScreen, visibleNav } from './grants.js';
export { grantedFields, queryableFields } from './field-grants.js';
export {
  type CanOptions,
  type RecordOptions,
  accessHolds,
  can,
  maskRecord,
  readableFields,
  writableFields,
} from './permissions.js';
export { applyTimedTransition, applyTransition, availableTransitions, mayFire } from './transitions.js';
export { formatMessage } from './messages.js';
export { type NotificationActor, renderNotificationText } from './notification-text.js';
export {
  DIALECTS,
  type Dialect,
  type StoredField,
  columnType,
  decodeValue,
  encodeValue,
  isJoinList,
  storageEncoding,
  systemField,
} from './storage.js';
export {
  type SqlFilter,
  type SqlOptions,
  SqlTranslationError,
  numberedPlaceholders,
  toSqlFilter,
} from './sql.js';
export { JOIN_COLUMNS, type JoinListSql, listCount, listHolds, listNotEmpty, listSize } from './sql-lists.js';
export { lazyActivation } from './expressions.js';
export { type ValueDecoder, valueDecoder } from './storage.js';
export { type RefPointer, refsTo } from './references.js';
