// What the claims table's indexes cost a write (decision 0048): `node bench/server/index-cost.js`
// (after `npx tsc -b`). Two copies of the seeded 100,000 claims in one SQLite file, one with the
// indexes the bench spec's schema asks for now (`desiredSchema`), one with the indexes it asked for
// before decision 0048 (commit aa6507c: one per enum, date, money and integer field, the state, and
// modification order). Inserts of one row per transaction, as a create commits, alternate between
// the two in batches (each row a seeded row's values under a new id); the medians of each batch's wall and CPU time per insert are printed.
import { desiredSchema } from '@ninefold/server';
import Sqlite from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uuidv7 } from 'uuidv7';
import { argument, median } from '../lib/stats.js';
import { seed } from './seed.js';
import { benchModel } from './spec.js';

const BATCHES = Number(argument('--batches', '10'));
const PER_BATCH = Number(argument('--rows', '500'));

/** The claims table's indexes at aa6507c, before decision 0048 (SQLite ignores their collation). */
const BEFORE = [
  ['createdAt', 'id'],
  ['updatedAt', 'id'],
  ['submittedBy', 'createdAt', 'id'],
  ['state'],
  ['category'],
  ['amount'],
  ['spentOn'],
  ['mileageKm'],
  ['submittedBy'],
];

const model = benchModel();
const now = desiredSchema(model).tables['claims'].indexes.map((i) => i.columns);
const dir = mkdtempSync(join(tmpdir(), 'ninefold-bench-index-cost-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const { file, clerk } = await seed(model, dir);
const sqlite = new Sqlite(file);
for (const pragma of ['journal_mode = WAL', 'synchronous = FULL']) sqlite.pragma(pragma);

const sides = { now, before: BEFORE };
const inserts = {};
for (const [side, indexes] of Object.entries(sides)) {
  const table = `claims_${side}`;
  sqlite.exec(`create table ${table} as select * from claims`);
  indexes.forEach((columns, i) =>
    sqlite.exec(`create index ${table}_${i} on ${table} (${columns.map((c) => `"${c}"`).join(', ')})`),
  );
  const columns = sqlite.prepare(`select name from pragma_table_info('${table}')`).all();
  const names = columns.map((c) => `"${c.name}"`).join(', ');
  inserts[side] = sqlite.prepare(
    `insert into ${table} (${names}) values (${columns.map(() => '?').join(', ')})`,
  );
}
// the seeded rows' values, spread over the table, so that each insert lands where such a row would
const samples = sqlite.prepare('select * from claims where rowid % 97 = 0').raw().all();
const idAt = sqlite
  .prepare(`select name from pragma_table_info('claims')`)
  .all()
  .findIndex((c) => c.name === 'id');

let next = 0;
function batch(side) {
  const insert = inserts[side];
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < PER_BATCH; i++) {
    const row = [...samples[(next++ * 31) % samples.length]];
    row[idAt] = uuidv7();
    insert.run(row); // autocommit: one transaction, one commit, as a create
  }
  const cpu = process.cpuUsage(cpuBefore);
  return {
    wall: ((performance.now() - started) * 1000) / PER_BATCH,
    cpu: (cpu.user + cpu.system) / PER_BATCH,
  };
}

const results = { now: [], before: [] };
batch('now');
batch('before');
for (let b = 0; b < BATCHES; b++) {
  for (const side of b % 2 === 0 ? ['now', 'before'] : ['before', 'now']) results[side].push(batch(side));
}
console.log(
  `claims (the clerk ${clerk.email}): 100,000 rows before, ${BATCHES} × ${PER_BATCH} inserts a side`,
);
for (const side of ['before', 'now']) {
  const r = results[side];
  console.log(
    `  ${side.padEnd(6)} ${String(sides[side].length).padStart(2)} indexes   ` +
      `${median(r.map((x) => x.wall)).toFixed(0)} µs wall, ${median(r.map((x) => x.cpu)).toFixed(0)} µs CPU per insert`,
  );
}
const ratio = median(results.now.map((x) => x.cpu)) / median(results.before.map((x) => x.cpu));
console.log(`  CPU per insert, now ÷ before: ${ratio.toFixed(2)}`);
sqlite.close();
