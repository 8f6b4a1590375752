/**
 * @ninefold/testkit — what the tests of every package share: fresh databases of each dialect, a
 * server on them with a clock the test moves, signed-in users, and the OpenAPI contract check that
 * every answer of the API is held against. Tests only; no package's sources import it.
 */
export * from './server.js';
export * from './contract.js';
export * from './examples.js';
export * from './jobs.js';
export * from './oidc-provider.js';
export * from './s3-server.js';
export * from './instances.js';
export * from './redis-server.js';
