// PGlite start benchmark (decision 0070): what opening an in-memory PostgreSQL database costs the
// tests when no server is given (they open one for every PostgreSQL case). Each way is timed from
// the call to its first answered query, in a child process of its own (a test worker starts cold),
// the three in turn, with the child's peak RSS; medians of the runs.
//
// - anchor: PGlite's own `PGlite.create()`, which runs initdb in WebAssembly every time;
// - dump: `startPglite()` (packages/server/src/db/pglite-start.ts), which loads a fresh cluster
//   dumped once (kept in the temporary folder);
// - schema: `pgliteSchema()`, what `openDatabase({ pglite: true })` does: a schema of its own in the
//   process's one PGlite (started the dump's way on first use).
//
//   npm run bench:pglite        (tsc -b && node bench/pglite/run.js)
//   node bench/pglite/run.js --runs 7
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { argument, median } from '../lib/stats.js';

const RUNS = Number(argument('--runs', '5'));
const OPENS = 4; // databases a child opens in turn: a test file opens several
const KINDS = ['anchor', 'dump', 'schema'];

if (process.argv[2] === '--child') {
  const kind = process.argv[3];
  const { PGlite } = await import('@electric-sql/pglite');
  const { pgliteSchema, startPglite } = await import('../../packages/server/dist/db/pglite-start.js');
  const times = [];
  for (let i = 0; i < OPENS; i += 1) {
    const started = performance.now();
    if (kind === 'schema') {
      const { pglite, schema, end } = await pgliteSchema();
      await pglite.query(`select count(*) from pg_tables where schemaname = '${schema}'`);
      times.push(performance.now() - started);
      await end();
    } else {
      const db = kind === 'anchor' ? await PGlite.create() : await startPglite();
      await db.query('select 1');
      times.push(performance.now() - started);
      await db.close();
    }
  }
  const { maxRSS } = process.resourceUsage();
  process.stdout.write(
    JSON.stringify({ first: times[0], later: median(times.slice(1)), rssMb: maxRSS / 1024 }),
  );
  process.exit(0);
}

const self = fileURLToPath(import.meta.url);
const results = Object.fromEntries(KINDS.map((kind) => [kind, []]));
for (let run = 0; run < RUNS; run += 1) {
  // the order rotated run by run
  for (let i = 0; i < KINDS.length; i += 1) {
    const kind = KINDS[(run + i) % KINDS.length];
    const out = execFileSync(process.execPath, [self, '--child', kind], { encoding: 'utf8' });
    results[kind].push(JSON.parse(out));
  }
}
const summary = (kind) => ({
  first: median(results[kind].map((r) => r.first)),
  later: median(results[kind].map((r) => r.later)),
  rssMb: median(results[kind].map((r) => r.rssMb)),
});
const anchor = summary('anchor');
const ms = (v) => `${v < 10 ? v.toFixed(1) : Math.round(v)} ms`;
const ratio = (v, of) => `${(v / of).toFixed(3)}×`;
console.log(
  `An in-memory PostgreSQL database to its first answer: ${RUNS} runs, ${OPENS} opens a process, medians`,
);
console.log('                  first open    later opens   later/anchor   peak RSS');
for (const [label, kind] of [
  ['PGlite.create()', 'anchor'],
  ['startPglite()', 'dump'],
  ['pgliteSchema()', 'schema'],
]) {
  const s = summary(kind);
  console.log(
    `${label.padEnd(16)}  ${ms(s.first).padStart(10)}   ${ms(s.later).padStart(11)}   ${ratio(s.later, anchor.later).padStart(12)}   ${Math.round(s.rssMb)} MB`,
  );
}
