/**
 * Starting PGlite (the tests' PostgreSQL when no server is given) in a fraction of `PGlite.create()`.
 *
 * `PGlite.create()` on an empty data directory runs initdb in WebAssembly: about 3.5 s of one core on
 * our two-core CI machine, and the suite opens a database for every PostgreSQL case, hundreds of
 * them. Two mechanisms, both measured by `bench/pglite` (decision 0070):
 *
 * - **A fresh cluster is loaded, not made.** It is the same every time, so the first start makes
 *   one and dumps it, and every later start loads the dump (about 1 s). The dump is kept in memory
 *   for the process, and in the temporary folder, named by PGlite's version, for the processes and
 *   test workers after it; a kept dump that does not load is made again.
 * - **In-memory databases are schemas of one PGlite.** A process starts one in-memory PGlite, and
 *   each in-memory database is a schema of its own in it (as each test database is on a PostgreSQL
 *   server: `@ninefold/testkit`), made in milliseconds and dropped when the database closes. Their
 *   pools take turns on its one connection (`pglite-pool.ts`), each with its own `search_path`.
 */
import type { PGlite } from '@electric-sql/pglite';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { takeTurn } from './pglite-pool.js';

type PGliteClass = typeof PGlite;

let fresh: Promise<{ dump: Blob; kept: boolean }> | undefined;
let shared: Promise<PGlite> | undefined;
let schemas = 0;

/** A database in the process's in-memory PGlite: a schema of its own, dropped by `end` (once). */
export interface PgliteSchema {
  readonly pglite: PGlite;
  readonly schema: string;
  end(): Promise<void>;
}

/**
 * A new schema in the process's one in-memory PGlite, started on first use.
 *
 * @example const { pglite, schema, end } = await pgliteSchema();
 */
export async function pgliteSchema(): Promise<PgliteSchema> {
  shared ??= startPglite().catch((error: unknown) => {
    shared = undefined;
    throw error;
  });
  const pglite = await shared;
  schemas += 1;
  const schema = `nf_${schemas}`;
  await exclusively(pglite, `create schema "${schema}"`);
  let dropped: Promise<unknown> | undefined;
  return {
    pglite,
    schema,
    async end() {
      dropped ??= exclusively(pglite, `drop schema if exists "${schema}" cascade`).catch(() => undefined);
      await dropped;
    },
  };
}

/** Runs a statement in the PGlite's turn: never in the middle of another database's transaction. */
async function exclusively(pglite: PGlite, statement: string): Promise<void> {
  const done = await takeTurn(pglite);
  try {
    if (!pglite.closed) await pglite.exec(statement);
  } finally {
    done();
  }
}

/**
 * A new PGlite over a freshly initialised cluster, in memory or in `dataDir` (a folder that already
 * holds a cluster opens as it is).
 *
 * @example const pglite = await startPglite(); // in memory
 */
export async function startPglite(dataDir?: string): Promise<PGlite> {
  // a development dependency: loaded only when asked for, so production installs do without it
  const { PGlite } = await import('@electric-sql/pglite');
  if (dataDir !== undefined && existsSync(join(dataDir, 'PG_VERSION'))) return PGlite.create({ dataDir });
  const options = dataDir === undefined ? {} : { dataDir };
  fresh ??= freshCluster(PGlite, true);
  const { dump, kept } = await fresh.catch((error: unknown) => {
    fresh = undefined;
    throw error;
  });
  try {
    return await PGlite.create({ ...options, loadDataDir: dump });
  } catch (error) {
    if (!kept) throw error;
    // a kept dump cut short (its writer killed) or from another build: made again, once
    fresh = freshCluster(PGlite, false);
    return PGlite.create({ ...options, loadDataDir: (await fresh).dump });
  }
}

/** The dump of a freshly initialised cluster: the one kept in the temporary folder, or a new one kept there. */
async function freshCluster(pglite: PGliteClass, readKept: boolean): Promise<{ dump: Blob; kept: boolean }> {
  const file = join(tmpdir(), `ninefold-pglite-${pgliteVersion()}-fresh.tar`);
  const kept = readKept ? await readFile(file).catch(() => undefined) : undefined;
  if (kept !== undefined && kept.length > 0) return { dump: new Blob([kept]), kept: true };
  const made = await pglite.create();
  const dump = await made.dumpDataDir('none');
  await made.close();
  // written whole under another name first, so that a reader never sees half a dump
  const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  try {
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, file);
  } catch {
    await rm(partial, { force: true });
  }
  return { dump, kept: false };
}

/** PGlite's version, from its package.json (which its `exports` do not list). */
function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const manifest = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}
