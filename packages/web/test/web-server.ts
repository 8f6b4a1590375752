/**
 * The web tests' server: the API of a model on a fresh database (the test kit's), with the web app
 * registered on it as the command line registers it.
 */
import { type Model } from '@ninefold/model';
import { type TestDialect, type TestServer, testServer } from '@ninefold/testkit';
import { type WebAppOptions, webApp } from '../src/index.js';

/**
 * A test server hosting a built client.
 *
 * @example const { app } = await webServer('sqlite', model, { dir: builtClient() });
 */
export async function webServer(
  dialect: TestDialect,
  model: Model,
  options: WebAppOptions,
): Promise<TestServer> {
  const server = await testServer(dialect, model);
  void server.app.register(webApp, options);
  return server;
}
