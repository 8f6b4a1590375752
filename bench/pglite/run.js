// PGlite start benchmark (decision 0070): what opening an in-memory PGlite database costs, the way
// the tests open one for every PostgreSQL case when no server is given. The anchor is PGlite's own
// `PGlite.create()` (initdb in WebAssembly, every time); ours is `startPglite()` (packages/server/
// src/db/pglite-start.ts: a freshly initialised cluster dumped once, loaded after). Each start is
// timed to its first answered query, in a child process of its own (as a test worker starts cold),
// alternating, with the child's peak RSS; medians of the runs.
//
//   npm run bench:pglite        (tsc -b && node bench/pglite/run.js)
//   node bench/pglite/run.js --runs 7
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { argument, median } from '../lib/stats.js';

const RUNS = Number(argument('--runs', '5'));
const STARTS = 3; // starts a child makes in turn: a test file opens several databases

if (process.argv[2] === '--child') {
  const kind = process.argv[3];
  const { PGlite } = await import('@electric-sql/pglite');
  const { startPglite } = await import('../../packages/server/dist/db/pglite-start.js');
  const times = [];
  for (let i = 0; i < STARTS; i += 1) {
    const started = performance.now();
    const db = kind === 'anchor' ? await PGlite.create() : await startPglite();
    await db.query('select 1');
    times.push(performance.now() - started);
    await db.close();
  }
  const { maxRSS } = process.resourceUsage();
  process.stdout.write(JSON.stringify({ first: times[0], later: median(times.slice(1)), rssMb: maxRSS / 1024 }));
  process.exit(0);
}

const self = fileURLToPath(import.meta.url);
const results = { anchor: [], ours: [] };
for (let run = 0; run < RUNS; run += 1) {
  for (const kind of run % 2 === 0 ? ['anchor', 'ours'] : ['ours', 'anchor']) {
    results[kind].push(JSON.parse(execFileSync(process.execPath, [self, '--child', kind], { encoding: 'utf8' })));
  }
}
const summary = (kind) => ({
  first: median(results[kind].map((r) => r.first)),
  later: median(results[kind].map((r) => r.later)),
  rssMb: median(results[kind].map((r) => r.rssMb)),
});
const anchor = summary('anchor');
const ours = summary('ours');
const ms = (v) => `${Math.round(v)} ms`;
console.log(`PGlite start to first answer, ${RUNS} runs, ${STARTS} starts a process (medians)`);
console.log('                      first start   later starts   peak RSS');
console.log(`PGlite.create()       ${ms(anchor.first).padStart(11)}   ${ms(anchor.later).padStart(12)}   ${Math.round(anchor.rssMb)} MB`);
console.log(`startPglite()         ${ms(ours.first).padStart(11)}   ${ms(ours.later).padStart(12)}   ${Math.round(ours.rssMb)} MB`);
console.log(`ratio (ours/anchor)   ${(ours.first / anchor.first).toFixed(2).padStart(11)}   ${(ours.later / anchor.later).toFixed(2).padStart(12)}`);
