/**
 * A running example for the API tests: a spec from examples/, its server on a fresh database, and
 * signed-in clients whose every response is checked against the OpenAPI document.
 */
import { type Model } from '@ninefold/model';
import { type LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { tableName } from '../src/index.js';
import {
  checkedInject,
  CSRF,
  exampleModel,
  givenUser,
  login,
  type TestDialect,
  type TestServer,
  testServer,
} from '@ninefold/testkit';

/** The compiled model of an example (shared by every package's tests). */
export { exampleModel };

export type Json = Record<string, unknown>;

/** A signed-in client: requests carry its cookie and the CSRF header. */
export interface Client {
  readonly id: string;
  request(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, payload?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  patch(url: string, payload: unknown, version: number | string): Promise<LightMyRequestResponse>;
  fire(url: string, transition: string, version: number, payload?: unknown): Promise<LightMyRequestResponse>;
}

export interface World {
  readonly server: TestServer;
  readonly model: Model;
  readonly as: Record<string, Client>;
  /** The rows of a resource's table, straight from the database. */
  count(resource: string): Promise<number>;
  /** The history rows of the whole database. */
  historyCount(): Promise<number>;
}

/**
 * A server for an example with one signed-in client per named user.
 *
 * @example const world = await exampleWorld('sqlite', 'expense-claims.md', { ann: ['employee'] });
 */
export async function exampleWorld(
  dialect: TestDialect,
  file: string,
  users: Record<string, readonly string[]>,
): Promise<World> {
  const model = exampleModel(file);
  const server = await testServer(dialect, model);
  const as: Record<string, Client> = {};
  for (const [name, roles] of Object.entries(users)) {
    const user = await givenUser(server, `${name}@example.com`, roles);
    const { cookie } = await login(server.app, `${name}@example.com`);
    if (cookie === undefined) throw new Error(`${name} could not sign in`);
    as[name] = client(server, model, user.id, cookie);
  }
  const db = server.database.db;
  return {
    server,
    model,
    as,
    async count(resource) {
      const r = await sql<{
        n: unknown;
      }>`select count(*) as n from ${sql.table(tableName(resource))}`.execute(db);
      return Number(r.rows[0]?.n);
    },
    async historyCount() {
      const r = await sql<{ n: unknown }>`select count(*) as n from ninefold_history`.execute(db);
      return Number(r.rows[0]?.n);
    },
  };
}

function client(server: TestServer, model: Model, id: string, cookie: string): Client {
  const request: Client['request'] = (method, url, payload, headers = {}) =>
    checkedInject(server.app, model, {
      method,
      url,
      headers: { ...CSRF, cookie, ...headers },
      ...(payload === undefined ? {} : { payload: payload as string | object }),
    });
  return {
    id,
    request,
    get: (url) => request('GET', url),
    post: (url, payload, headers) => request('POST', url, payload ?? {}, headers),
    patch: (url, payload, version) => request('PATCH', url, payload, { 'if-match': `"${version}"` }),
    fire: (url, transition, version, payload = {}) =>
      request('POST', `${url}/transitions/${transition}`, payload, { 'if-match': `"${version}"` }),
  };
}

/** The body of a JSON response. */
export function body(response: LightMyRequestResponse): Json {
  return response.json<Json>();
}
