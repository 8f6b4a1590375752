/**
 * Several instances of the real product on one database, as a load balancer sees them (issue 20):
 * each a `ninefold start` of the built command line (`npx tsc -b` first) in a process of its own, on
 * a free port of 127.0.0.1, sharing nothing with the others or with the test but the database. For
 * the tests that prove N instances behave as one service: limits counted once, sessions ended
 * everywhere, events from any instance.
 *
 * The first instance starts alone and migrates the database (it is the only one); the others start
 * together once it listens, as a rolling start does. Every process still running when the test
 * file ends is killed, whatever the test did.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll } from 'vitest';

/** The built command line: resolved when used, as the client's tests (jsdom) load this kit too. */
const cli = () => fileURLToPath(new URL('../../cli/bin/ninefold.js', import.meta.url));
const built = () => fileURLToPath(new URL('../../cli/dist/main.js', import.meta.url));
const run = promisify(execFile);

const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

/** Where the instances keep their data: a PostgreSQL database, or one SQLite folder (one machine). */
export type InstanceStore = { readonly databaseUrl: string } | { readonly dataDir: string };

export interface StartInstancesOptions {
  /** The spec's path. */
  readonly spec: string;
  /** How many instances (1 or more). */
  readonly count: number;
  readonly store: InstanceStore;
  /** More `ninefold start` arguments for every instance (`--migrate`, `--trust-proxy 127.0.0.1`). */
  readonly args?: readonly string[];
  /** More environment for every instance (`REDIS_URL`); the test process's own is inherited. */
  readonly env?: Readonly<Record<string, string>>;
  /** How long an instance may take to listen and then to answer `/ready` 200 (default 60 s each). */
  readonly timeoutMs?: number;
}

/** One running instance. */
export interface ProductInstance {
  /** Like http://127.0.0.1:40123. */
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Settles with the exit code (null after a signal) once the process is gone. */
  readonly exited: Promise<number | null>;
  /** SIGTERM, the operator's stop: it drains, then exits; resolves with its exit code. */
  stop(): Promise<number | null>;
  /** `kill -9`: no drain; resolves once the process is gone. */
  kill(): Promise<void>;
}

export interface ProductInstances {
  readonly instances: readonly ProductInstance[];
  /** Runs another `ninefold` command on the same store to its end (`users add …`); its stdout. */
  ninefold(args: readonly string[]): Promise<string>;
  /** Stops every instance still running (SIGTERM), and waits for all. */
  stop(): Promise<void>;
}

/**
 * Starts `count` instances of `spec` on one store and resolves once every one answers `/ready`.
 *
 * @example
 * const database = await freshPostgresDatabase();
 * const { instances, stop } = await startInstances({ spec: 'examples/helpdesk.md', count: 3, store: database });
 * await fetch(`${instances[2]!.url}/ready`); // 200
 * await stop(); await database.drop();
 */
export async function startInstances(options: StartInstancesOptions): Promise<ProductInstances> {
  if (!existsSync(built()))
    throw new Error(`The command line is not built (${built()}): run \`npx tsc -b\` first.`);
  if (!Number.isInteger(options.count) || options.count < 1) {
    throw new Error(`startInstances needs a count of 1 or more, not ${options.count}.`);
  }
  const env = {
    ...process.env,
    NO_COLOR: '1',
    DATABASE_URL: 'databaseUrl' in options.store ? options.store.databaseUrl : '',
    ...options.env,
  };
  const data = 'dataDir' in options.store ? ['--data', options.store.dataDir] : [];
  const startOne = () => startInstance(options, env, data);
  const instances: ProductInstance[] = [];
  try {
    instances.push(await startOne());
    const rest = await Promise.allSettled(Array.from({ length: options.count - 1 }, startOne));
    for (const outcome of rest) if (outcome.status === 'fulfilled') instances.push(outcome.value);
    const failed = rest.find((outcome) => outcome.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  } catch (error) {
    await Promise.all(instances.map((instance) => instance.stop()));
    throw error;
  }
  return {
    instances,
    ninefold: async (args) =>
      (await run(process.execPath, [cli(), ...args, ...data], { env, timeout: 60_000 })).stdout,
    stop: async () => void (await Promise.all(instances.map((instance) => instance.stop()))),
  };
}

async function startInstance(
  options: StartInstancesOptions,
  env: NodeJS.ProcessEnv,
  data: readonly string[],
): Promise<ProductInstance> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const child = spawn(
    process.execPath,
    // the test's arguments after ours: a later flag wins, so it may set --port or --host itself
    [
      cli(),
      'start',
      options.spec,
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--api-only',
      '--quiet',
      ...data,
      ...(options.args ?? []),
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  running.add(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const instance = {
    url: '',
    child,
    output: () => output,
    exited,
    stop: async () => {
      if (!gone()) child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      if (!gone()) child.kill('SIGKILL');
      await exited;
    },
  };
  const url = await until(timeoutMs, `ninefold start to listen`, () => {
    if (gone()) throw new Error(`ninefold start exited (${String(child.exitCode)}) before it listened.`);
    return /is running at (http:\/\/\S+)/.exec(output)?.[1];
  }).catch(async (error: unknown) => {
    await instance.kill();
    throw new Error(`${(error as Error).message} It printed:\n${output}`, { cause: error });
  });
  await until(timeoutMs, `${url}/ready to answer 200`, async () => {
    const status = await fetch(`${url}/ready`).then(
      (response) => response.status,
      () => 0,
    );
    return status === 200 ? true : undefined;
  }).catch(async (error: unknown) => {
    await instance.kill();
    throw new Error(`${(error as Error).message} It printed:\n${output}`, { cause: error });
  });
  return { ...instance, url };
}

/** Polls `probe` every 50 ms until it gives a value; an error after `ms` that says what it awaited. */
async function until<T>(ms: number, what: string, probe: () => T | undefined | Promise<T | undefined>) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${ms} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A database of its own on the real PostgreSQL server, and how to drop it. */
export interface PostgresTestDatabase {
  readonly databaseUrl: string;
  drop(): Promise<void>;
}

/**
 * Creates a database of its own on the PostgreSQL server at TEST_DATABASE_URL — several processes
 * share it, so not a schema of the test's connection and not PGlite — dropped by `drop()` (with the
 * connections still open to it).
 *
 * @example const database = await freshPostgresDatabase(); try { … } finally { await database.drop(); }
 */
export async function freshPostgresDatabase(): Promise<PostgresTestDatabase> {
  const base = process.env['TEST_DATABASE_URL'] ?? '';
  if (base === '') {
    throw new Error(
      'Instances on one PostgreSQL need the real server: set TEST_DATABASE_URL (PGlite is in-process).',
    );
  }
  const name = `nf_instances_${randomBytes(5).toString('hex')}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  url.searchParams.delete('options');
  return { databaseUrl: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}
