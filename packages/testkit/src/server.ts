/**
 * What every server test needs: a fresh database of each dialect, a compiled inline spec, a clock
 * the test moves, and a signed-in client.
 *
 * PostgreSQL is the real server at TEST_DATABASE_URL (each database in a fresh schema, dropped at
 * the end) or, when that is unset, PGlite in process.
 */
import { compile } from '@ninefold/language';
import {
  API_PATHS,
  CSRF_HEADER,
  CSRF_HEADER_VALUE,
  type Model,
  PROBLEM_MEDIA_TYPE,
  type Problem,
  SESSION_COOKIE,
} from '@ninefold/model';
import { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll } from 'vitest';
import { checkedInject } from './contract.js';
import {
  type AppOptions,
  type Database,
  type DatabaseTarget,
  type FileStore,
  addUser,
  apiPath,
  buildApp,
  diskFileStore,
  migrate,
  openDatabase,
} from '@ninefold/server';

export const DIALECTS = ['sqlite', 'postgres'] as const;
export type TestDialect = (typeof DIALECTS)[number];

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  cleanups.length = 0;
});

/** A database target of a dialect that can be opened, closed and opened again. */
export async function freshTarget(
  dialect: TestDialect,
  options: { persistent?: boolean } = {},
): Promise<DatabaseTarget> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'ninefold-test-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    return { sqlite: join(dir, 'test.sqlite') };
  }
  const base = process.env['TEST_DATABASE_URL'];
  if (base === undefined || base === '') {
    if (options.persistent !== true) return { pglite: true };
    const dir = mkdtempSync(join(tmpdir(), 'ninefold-pglite-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    return { pglite: dir };
  }
  const schema = `nf_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
  });
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

/** Opens a fresh database of a dialect, closed after the file's tests. */
export async function freshDatabase(
  dialect: TestDialect,
  options: { persistent?: boolean } = {},
): Promise<{ database: Database; target: DatabaseTarget }> {
  const target = await freshTarget(dialect, options);
  const database = await openDatabase(target);
  cleanups.push(() => database.close());
  return { database, target };
}

/**
 * Whether a second connection to a dialect's test database can be opened beside the first (two
 * pools, two processes): on a SQLite file and a PostgreSQL server, yes; PGlite is one in-process
 * database, so a test of two connections at once exists only where this holds.
 *
 * @example if (opensTwice(dialect)) it('two runners with pools of their own …', …);
 */
export function opensTwice(dialect: TestDialect): boolean {
  return dialect === 'sqlite' || (process.env['TEST_DATABASE_URL'] ?? '') !== '';
}

/** Opens a target again (a restart), closed after the file's tests. */
export async function reopen(target: DatabaseTarget): Promise<Database> {
  const database = await openDatabase(target);
  cleanups.push(() => database.close());
  return database;
}

/**
 * A spec written in the test, compiled; a spec with errors fails the test with its diagnostics.
 *
 * @example const model = specModel(`entities: { Note: { fields: { title: { type: string } } } }`);
 */
export function specModel(yaml: string): Model {
  const result = compile(yaml, { file: 'test.yaml' });
  if (!result.ok) {
    const lines = result.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`);
    throw new Error(`The test spec does not compile:\n${lines.join('\n')}`);
  }
  return result.model;
}

/** A clock the test moves by hand. */
export function testClock(start = '2026-03-01T09:00:00.000Z') {
  let at = Date.parse(start);
  return {
    now: () => new Date(at),
    advance(ms: number) {
      at += ms;
    },
  };
}

export interface TestServer {
  readonly app: FastifyInstance;
  readonly database: Database;
  /** Where the database is: open it again for a second connection (another process, say). */
  readonly target: DatabaseTarget;
  readonly model: Model;
  readonly clock: ReturnType<typeof testClock>;
  /** Where the app keeps uploaded files, and the file jobs remove them from. */
  readonly files: FileStore;
}

/**
 * A file store on the disk in a new temporary directory, removed after the file's tests.
 *
 * @example const handlers = productJobHandlers({ model, database, files: tempFileStore() });
 */
export function tempFileStore(): FileStore {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-files-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return diskFileStore(join(dir, 'files'));
}

/** A migrated database of a dialect and the app over it. */
export async function testServer(
  dialect: TestDialect,
  model: Model,
  options: Partial<Omit<AppOptions, 'model' | 'database'>> = {},
): Promise<TestServer> {
  const { database, target } = await freshDatabase(dialect);
  await migrate(database, model);
  const clock = testClock();
  const files = options.files ?? tempFileStore();
  const app = buildApp({ model, database, now: clock.now, ...options, files });
  cleanups.push(() => app.close());
  return { app, database, target, model, clock, files };
}

export const PASSWORD = 'correct horse battery';

/** Adds a user with {@link PASSWORD}. */
export async function givenUser(server: TestServer, email: string, roles: readonly string[]) {
  return addUser(server.database, server.model, {
    email,
    name: email.split('@')[0] ?? email,
    roles,
    password: PASSWORD,
  });
}

/** The headers of a state-changing request from the application itself. */
export const CSRF = { [CSRF_HEADER]: CSRF_HEADER_VALUE } as const;

/** Signs in (at the model's base path) and returns the session cookie as a request header value. */
export async function login(app: FastifyInstance, email: string, password = PASSWORD, cookie?: string) {
  const response = await checkedInject(app, app.ninefold.model, {
    method: 'POST',
    url: apiPath(app.ninefold.model, API_PATHS.session),
    headers: { ...CSRF, ...(cookie === undefined ? {} : { cookie }) },
    payload: { email, password },
  });
  return { response, cookie: sessionCookie(response) };
}

/** `name=value` of the session cookie a response sets, or undefined. */
export function sessionCookie(response: LightMyRequestResponse): string | undefined {
  const set = response.cookies.find((c) => c.name === SESSION_COOKIE);
  return set === undefined ? undefined : `${set.name}=${set.value}`;
}

/** Asserts the shape every problem response has, and returns its body. */
export function problem(response: LightMyRequestResponse): Problem & { type: string; title: string } {
  const type = String(response.headers['content-type']);
  if (!type.startsWith(PROBLEM_MEDIA_TYPE)) {
    throw new Error(`Expected a problem response, got ${type} ${response.statusCode}: ${response.body}`);
  }
  return response.json();
}

/** A built client as Vite lays it out: the page, hashed assets, the service worker. */
export function builtClient(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-client-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html lang="en"><head><meta name="theme-color" content="#228be6" /><title>Ninefold</title>' +
      '<!--ninefold:head--></head><body><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script></body></html>',
  );
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log("app")');
  writeFileSync(join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {})');
  return dir;
}
