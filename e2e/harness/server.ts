/**
 * One example, served for real: the server from its sources on a fresh SQLite database in a
 * temporary folder, serving the built client, with one demo account per role. Arrangement goes
 * through the same HTTP API the app uses (in-process via `inject`, with a role's session cookie).
 */
import { compile } from '@ninefold/language';
import { type Model } from '@ninefold/model';
import { type RunningServer, readSpecTranslations, startServer } from '@ninefold/cli';
import { type DemoApi, demoApi } from '@ninefold/demo';
import { buildApp } from '@ninefold/server';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const CLIENT_DIR = resolve('packages/client/dist');

export interface Account {
  readonly role: string;
  readonly email: string;
  readonly password: string;
}

export interface ApiAnswer<T = unknown> {
  readonly status: number;
  readonly body: T;
}

export interface Example {
  readonly file: string;
  readonly model: Model;
  /** Like http://127.0.0.1:41234 */
  readonly url: string;
  readonly server: RunningServer;
  readonly accounts: readonly Account[];
  /** Session cookies by role, set once the role has signed in (in the browser or here). */
  readonly cookies: Map<string, string>;
  /** The API as the demo accounts, sharing `cookies` (the demo data's own client, `@ninefold/demo`). */
  readonly demo: DemoApi;
  /** A request to the API as a role (or as a guest with null); `path` is relative to the base path. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are JSON of any shape; callers name it
  api<T = any>(
    role: string | null,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiAnswer<T>>;
  close(): Promise<void>;
}

/** The examples every run covers: every spec in examples/, so a new one is tested with no new code. */
export const EXAMPLES = [
  'examples/expense-claims.md',
  'examples/helpdesk.md',
  'examples/library-loans.md',
  'examples/bookings.yaml',
  'examples/seed.txt',
  'examples/orders.md',
];

export async function compileExample(file: string): Promise<Model> {
  // with its translation files, as `ninefold start` reads them (decision 0068)
  const compiled = compile(await readFile(file, 'utf8'), { file, translations: readSpecTranslations(file) });
  if (!compiled.ok) throw new Error(`${file} does not compile`);
  return compiled.model;
}

/** What a test may change of an example's server. */
export interface ExampleOptions {
  /** The server's environment (default the process's). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The model to serve, made from the compiled one (`StartOptions.transformModel`). */
  readonly transformModel?: (compiled: Model) => Model;
}

/**
 * Starts an example's server on a temporary database.
 *
 * @example const ex = await startExample('examples/helpdesk.md'); … await ex.close();
 */
export async function startExample(file: string, options: ExampleOptions = {}): Promise<Example> {
  if (!existsSync(join(CLIENT_DIR, 'index.html'))) {
    throw new Error(
      `The client is not built: run \`npm run build -w @ninefold/client\` (expected ${CLIENT_DIR}).`,
    );
  }
  const compiled = await compileExample(file);
  const model = options.transformModel?.(compiled) ?? compiled;
  const dataDir = await mkdtemp(join(tmpdir(), 'ninefold-e2e-'));
  const server = await startServer({
    specPath: file,
    dataDir,
    port: 0,
    host: '127.0.0.1',
    demo: true,
    handleSignals: false,
    logger: false,
    print: () => {},
    clientDir: CLIENT_DIR,
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.transformModel === undefined ? {} : { transformModel: options.transformModel }),
  });
  const cookies = new Map<string, string>();
  const accounts = server.demoAccounts.map((a) => ({ role: a.role, email: a.email, password: a.password }));
  // the arrangement runs on a quiet twin of the app over the same database: same sessions and
  // rules, but its own rate-limit counters, so arranging never spends the browser's request budget
  const twin = buildApp({
    // the demo accounts arrange with their passwords alone, whatever `auth.mfa` asks of the browser
    model: { ...model, auth: { ...model.auth, mfa: 'optional' } },
    database: server.database,
    logger: false,
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  const demo = demoApi(twin, model, server.demoAccounts, cookies);

  const example: Example = {
    file,
    model,
    url: server.url,
    server,
    accounts,
    cookies,
    demo,
    api: (role, method, path, body, headers) => demo.call(role, method, path, body, headers),
    async close() {
      await twin.close();
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return example;
}

export function account(example: Example, role: string): Account {
  const found = example.accounts.find((a) => a.role === role);
  if (found === undefined) throw new Error(`${example.file} has no demo account for ${role}`);
  return found;
}
