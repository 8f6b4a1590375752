/**
 * Two `ninefold start --demo` at once on one new database (decision 0023): both come up, and the
 * demo accounts and records are made once — on a SQLite file and on a PostgreSQL database of the
 * real server. Two processes, as two instances are: the CLI as built (`npx tsc -b` first).
 */
import { compile } from '@ninefold/language';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, tableName } from '@ninefold/server';
import { readFileSync } from 'node:fs';

const BASE_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const SPEC = 'examples/expense-claims.md';
const model = (() => {
  const result = compile(readFileSync(SPEC, 'utf8'), { file: SPEC });
  if (!result.ok) throw new Error('the example does not compile');
  return result.model;
})();

const started: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGTERM');
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

interface Start {
  readonly output: string;
  readonly exitCode: number | null;
}

/** Starts the CLI and resolves when it is running (or has stopped), with what it printed. */
function start(args: readonly string[], env: Record<string, string>): Promise<Start> {
  const child = spawn(
    process.execPath,
    ['packages/cli/bin/ninefold.js', 'start', SPEC, '--demo', '--port', '0', '--quiet', ...args],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  started.push(child);
  let output = '';
  return new Promise((resolve) => {
    const timer = setTimeout(
      () => resolve({ output: `${output}\n(no answer in 90 s)`, exitCode: null }),
      90_000,
    );
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (/is running at/.test(output) && /Demo accounts/.test(output)) {
        clearTimeout(timer);
        resolve({ output, exitCode: null });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ output, exitCode: code });
    });
  });
}

async function countWhere(database: Database, table: string, where?: [string, string]): Promise<number> {
  let query = database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
  if (where !== undefined) query = query.where(where[0], 'like', where[1]);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row['n']);
}

let alone: Promise<Map<string, number>> | undefined;

/** The records of each entity that one `start --demo` alone makes, on a SQLite file of its own. */
function seededAlone(): Promise<Map<string, number>> {
  alone ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ninefold-alone-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const only = await start(['--data', dir], {});
    expect(only.output).toMatch(/is running at http:\/\//);
    const database = await openDatabase({ sqlite: join(dir, 'ninefold.sqlite') });
    cleanups.push(() => database.close());
    const counts = new Map<string, number>();
    for (const entity of Object.values(model.entities).filter((e) => !e.builtin))
      counts.set(entity.name, await countWhere(database, tableName(entity.resource)));
    return counts;
  })();
  return alone;
}

/** Both instances up, the demo accounts once per role, and no entity with more records than one seeding makes. */
async function expectSeededOnce(starts: readonly Start[], database: Database) {
  const once = await seededAlone();
  for (const s of starts) {
    expect(s.exitCode, s.output).toBeNull();
    expect(s.output).toMatch(/is running at http:\/\//);
  }
  // one seeding made them; the other found them (only one prints what it made)
  expect(starts.filter((s) => s.output.includes('Demo data:'))).toHaveLength(1);
  const users = tableName(model.entities['User']!.resource);
  expect(await countWhere(database, users, ['email', '%@demo.ninefold.local'])).toBe(
    Object.keys(model.roles).length,
  );
  let records = 0;
  for (const entity of Object.values(model.entities).filter((e) => !e.builtin)) {
    const n = await countWhere(database, tableName(entity.resource));
    expect(n, entity.name).toBeLessThanOrEqual(once.get(entity.name) ?? 0);
    records += n;
  }
  expect(records).toBeGreaterThan(0);
}

describe('two instances started at once with --demo on a new database', () => {
  it('both come up on one SQLite file, and the demo data is there once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ninefold-race-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const starts = await Promise.all([start(['--data', dir], {}), start(['--data', dir], {})]);
    const database = await openDatabase({ sqlite: join(dir, 'ninefold.sqlite') });
    cleanups.push(() => database.close());
    await expectSeededOnce(starts, database);
  });

  it('both come up on one PostgreSQL database, and the demo data is there once', async () => {
    const name = `nf_race_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
    const admin = new pg.Client({ connectionString: BASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(BASE_URL);
    url.pathname = `/${name}`;
    cleanups.push(async () => {
      const client = new pg.Client({ connectionString: BASE_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    });
    const env = { DATABASE_URL: url.toString() };
    const starts = await Promise.all([start([], env), start([], env)]);
    const database = await openDatabase(url.toString());
    cleanups.push(() => database.close());
    await expectSeededOnce(starts, database);
  });
});
