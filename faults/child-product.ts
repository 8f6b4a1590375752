/**
 * The real product as a child process, as an operator runs it: `ninefold start` from the built
 * command line (`npx tsc -b` builds `dist/`, which `npm run test:faults` does first), on a free
 * port, over SQLite in a folder or over a PostgreSQL database of its own. A fault test kills it with
 * SIGKILL and starts it again on the same database; nothing is shared with the test's process but
 * the database and HTTP.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';

const CLI = fileURLToPath(new URL('../packages/cli/bin/ninefold.js', import.meta.url));
const run = promisify(execFile);

/** The real PostgreSQL server of the fault suite: TEST_DATABASE_URL, or the local one. */
export const POSTGRES_URL = process.env['TEST_DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test';

/** Where a product keeps its data: a SQLite folder, or a PostgreSQL database (`DATABASE_URL`). */
export interface ProductStore {
  readonly name: 'sqlite' | 'postgres';
  /** `--data` for SQLite; ignored when `env.DATABASE_URL` is set. */
  readonly dataDir: string;
  /** The environment of the product's processes. */
  readonly env: Readonly<Record<string, string>>;
  /** Drops what the store made (the PostgreSQL database). */
  drop(): Promise<void>;
}

/** A SQLite store in a folder the caller owns. */
export function sqliteStore(dataDir: string): ProductStore {
  return { name: 'sqlite', dataDir, env: {}, drop: async () => undefined };
}

/**
 * A connection to the real PostgreSQL server, or an error that says which server it tried and how
 * to point elsewhere; the caller ends it.
 */
export async function connectPostgres(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `The fault suite needs the PostgreSQL server at ${POSTGRES_URL} (set TEST_DATABASE_URL to another): ${(error as Error).message}`,
      { cause: error },
    );
  }
  return client;
}

/**
 * A database of its own on the real PostgreSQL server, created now and dropped by `drop()`. An
 * unreachable server fails with a message that says which one and how to point elsewhere.
 */
export async function postgresStore(dataDir: string): Promise<ProductStore> {
  const name = `nf_faults_${randomBytes(5).toString('hex')}`;
  const admin = await connectPostgres();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    name: 'postgres',
    dataDir,
    env: { DATABASE_URL: url.toString() },
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Runs `ninefold <args…>` to its end (`users add`, say); a failure throws with its output. */
export async function ninefold(args: readonly string[], store: ProductStore): Promise<string> {
  const { stdout } = await run(process.execPath, [CLI, ...args, '--data', store.dataDir], {
    env: { ...process.env, ...store.env },
    timeout: 60_000,
  });
  return stdout;
}

/** A running `ninefold start`. */
export interface RunningProduct {
  /** Like http://127.0.0.1:40123. */
  readonly url: string;
  readonly child: ChildProcess;
  /** Settles when the process has exited, however it ended. */
  readonly exited: Promise<void>;
}

/**
 * Starts the product on a free port (API only, no request log) and resolves once it listens; a
 * process that exits or stays silent for a minute first is an error with what it printed.
 */
export function startProduct(spec: string, store: ProductStore): Promise<RunningProduct> {
  const child = spawn(
    process.execPath,
    [CLI, 'start', spec, '--port', '0', '--api-only', '--quiet', '--data', store.dataDir],
    { env: { ...process.env, ...store.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`ninefold start did not listen within a minute:\n${output}`));
    }, 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /is running at (http:\/\/\S+)/.exec(output);
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      child.stdout.off('data', read);
      child.stdout.resume(); // keep draining what it prints, so it never blocks on a full pipe
      resolve({ url: match[1], child, exited });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`ninefold start exited before it listened:\n${output}`));
    });
  });
}

/** `kill -9`: no signal handler, no drain, no flush; resolves once the process is gone. */
export async function killHard(product: RunningProduct): Promise<void> {
  product.child.kill('SIGKILL');
  await product.exited;
}

/** SIGTERM, the operator's stop: drains, then exits. */
export async function stop(product: RunningProduct): Promise<void> {
  product.child.kill('SIGTERM');
  await product.exited;
}
