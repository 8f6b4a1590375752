/**
 * @ninefold/model — the contract every package shares: the compiled model, the value formats, how
 * values appear in CEL, the field-type table and the wire protocol between the server and its clients.
 *
 * Plain data and pure functions: no parser, no I/O, safe in the browser.
 */
export * from './model.js';
export * from './auth-model.js';
export * from './field-types.js';
export * from './values.js';
export * from './cel-types.js';
export * from './computed.js';
export * from './cel-dates.js';
export * from './names.js';
export * from './record-name.js';
export * from './error-catalogue.js';
export * from './protocol.js';
export * from './identity-protocol.js';
export * from './env-text.js';
export * from './notification-text.js';
export * from './relations-protocol.js';
export * from './files-protocol.js';
export * from './events-protocol.js';
export * from './i18n.js';
export * from './localize.js';
export * from './builtin-user.js';
export * from './spec-texts.js';
