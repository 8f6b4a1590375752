/**
 * @ninefold/demo — a product with something in it: one demo account per role, a few records of
 * every entity made through the product's own API by those accounts, and valid sample values for
 * any field (which the browser tests make their records with too). Used by `ninefold start --demo`,
 * the e2e tests and the benchmarks; the server itself knows nothing of demos.
 *
 * @example
 * const accounts = await seedDemoAccounts(database, model);
 * await seedDemoData(buildApp({ model, database }), database, model, accounts);
 */
export { seedDemoAccounts, formatDemoAccounts, DEMO_DOMAIN, type DemoAccount } from './accounts.js';
export {
  type Answer,
  type ApiRecord,
  type DemoApi,
  type DemoDataOptions,
  type DemoDataReport,
  createAs,
  creators,
  demoApi,
  fireAs,
  pathTo,
  refIdsFor,
  seedDemoData,
  stepAsAnyone,
  writableList,
} from './data.js';
export {
  type Generated,
  type Wording,
  aroundNow,
  candidates,
  generateRecord,
  timedFields,
  token,
} from './values.js';
export { type DemoFiles, demoFiles } from './files.js';
