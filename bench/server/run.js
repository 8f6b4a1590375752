// Server benchmark: Ninefold's API against hand-written anchors, each pair side by side in one run.
//
//   npm run bench:server            (tsc -b && node bench/server/run.js)
//   node bench/server/run.js --only list,get --runs 3 --seconds 5 [--profile]
//
// Seeds 100,000 claims into a SQLite file in a temp dir (bench/server/seed.js), starts two servers
// in child processes on 127.0.0.1 — the whole Ninefold stack (`buildApp` of bench/server/spec.js)
// and a bare Fastify app with prepared better-sqlite3 statements (bench/server/raw-app.js) over the
// same file — signs in through POST /api/session, checks that both sides answer the same rows, then
// loads each pair with autocannon, alternating the sides run by run. Medians of requests/s and of
// latency p50/p99 (measured per response, at sub-millisecond precision), the ratios, and each
// server's peak RSS. A non-2xx answer fails the run (exit 1); a missed target is printed, never
// fatal. `--profile` writes a V8 CPU profile of each server to bench/server/out/ (ninefold-…, raw-…).
import autocannon from 'autocannon';
import Sqlite from 'better-sqlite3';
import { Buffer } from 'node:buffer';
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PASSWORD, ROWS, seed } from './seed.js';
import { CREATE_BODY, benchModel } from './spec.js';
import { argument, median } from '../lib/stats.js';

const RUNS = Number(argument('--runs', '3'));
const SECONDS = Number(argument('--seconds', '5'));
const INFO_SECONDS = Math.min(SECONDS, 3);
const WARMUP_SECONDS = 1;
const CONNECTIONS = 10;
const PAGE_SIZE = 50;
const ONLY = argument('--only', '');
const PROFILE = process.argv.includes('--profile');
const CSRF = { 'x-ninefold-csrf': '1' };
const MiB = 2 ** 20;
const { fetch } = globalThis; // Node's own, global since 18
const OUT = fileURLToPath(new URL('./out/', import.meta.url));

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const num = (n) => Math.round(n).toLocaleString('en-US');
const ms = (n) => `${n.toFixed(2)} ms`;
const mib = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`;
const verdict = (ok) => (ok ? 'PASS' : 'MISS');

function fail(message) {
  console.error(`\n${message}`);
  stopAll();
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------
// Servers

const children = [];

function startServer(kind, file, userId) {
  // each side's profile is named after it, so that both can be compared function by function
  const execArgv = PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${OUT}`, `--cpu-prof-name=${kind}-${Date.now()}.cpuprofile`]
    : [];
  const child = fork(fileURLToPath(new URL('./serve.js', import.meta.url)), [kind, file, userId], {
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ kind, child, url: `http://127.0.0.1:${message.port}` }));
    child.once('exit', (code) =>
      reject(new Error(`The ${kind} server exited with ${code} before listening.`)),
    );
  });
}

function stopServer(server) {
  return new Promise((resolve) => {
    server.child.on('message', (message) => {
      if (message.type === 'stopped') resolve(message.peakRss);
    });
    server.child.send({ type: 'stop' });
  });
}

function stopAll() {
  for (const child of children) if (child.exitCode === null) child.kill();
}

// ---------------------------------------------------------------------------------------------
// Load

/**
 * One autocannon run of `seconds` against a request (or one path after another from `paths`). Every
 * response must be 2xx; latencies are taken per response, as autocannon's histogram rounds to 1 ms.
 */
/** The CPU time (user + system, µs) a server process has used so far. */
function cpuTime(server) {
  return new Promise((resolve) => {
    const listener = (message) => {
      if (message?.type !== 'cpu') return;
      server.child.off('message', listener);
      resolve(message.micros);
    };
    server.child.on('message', listener);
    server.child.send({ type: 'cpu' });
  });
}

async function load(server, request, { seconds, connections = CONNECTIONS }) {
  const latencies = [];
  const cpuBefore = await cpuTime(server);
  const statuses = new Map();
  const { path, method = 'GET', headers = {}, body, paths } = request;
  let i = 0;
  const instance = autocannon({
    url: server.url,
    connections,
    duration: seconds,
    requests: [
      {
        method,
        path,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(paths === undefined
          ? {}
          : { setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }),
      },
    ],
  });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    latencies.push(responseTime);
    statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
  });
  const result = await instance;
  const cpuMicros = (await cpuTime(server)) - cpuBefore;
  const bad = [...statuses].filter(([code]) => code < 200 || code > 299);
  if (bad.length > 0 || result.errors > 0 || result.timeouts > 0) {
    const sample = await fetch(`${server.url}${paths?.[0] ?? path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    fail(
      `${server.kind} ${method} ${path}: ${bad.map(([c, n]) => `${n}× ${c}`).join(', ') || 'no bad status'}, ` +
        `${result.errors} errors, ${result.timeouts} timeouts. A benchmark of errors is worthless.\n` +
        `A sample request now answers ${sample.status}: ${(await sample.text()).slice(0, 500)}`,
    );
  }
  latencies.sort((a, b) => a - b);
  return {
    // the server's own CPU time per response (user + system, every thread of its process)
    cpu: cpuMicros / latencies.length,
    rps: latencies.length / result.duration,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/** Runs each side `RUNS` times, alternating which goes first, after a warm-up of each. */
async function pair(sides, options = {}) {
  for (const side of sides) await load(side.server, side.request, { ...options, seconds: WARMUP_SECONDS });
  const runs = sides.map(() => []);
  for (let r = 0; r < RUNS; r++) {
    const order = r % 2 === 0 ? sides.map((_, i) => i) : sides.map((_, i) => i).reverse();
    for (const i of order)
      runs[i].push(await load(sides[i].server, sides[i].request, { seconds: SECONDS, ...options }));
  }
  return runs.map((list) => ({
    cpu: median(list.map((x) => x.cpu)),
    rps: median(list.map((x) => x.rps)),
    rpsMin: Math.min(...list.map((x) => x.rps)),
    rpsMax: Math.max(...list.map((x) => x.rps)),
    p50: median(list.map((x) => x.p50)),
    p99: median(list.map((x) => x.p99)),
  }));
}

// ---------------------------------------------------------------------------------------------
// Set-up and equivalence checks

async function json(url, init = {}) {
  const response = await fetch(url, init);
  const text = await response.text();
  if (response.status < 200 || response.status > 299)
    fail(`${init.method ?? 'GET'} ${url}: ${response.status} ${text}`);
  return { response, body: JSON.parse(text) };
}

async function signIn(server, email) {
  const { response } = await json(`${server.url}/api/session`, {
    method: 'POST',
    headers: { ...CSRF, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('ninefold_session='));
  if (cookie === undefined) fail(`Signing in as ${email} set no session cookie.`);
  return cookie.split(';')[0];
}

function sameIds(what, a, b) {
  const ids = (rows) => rows.map((r) => r.id).join(',');
  if (a.length !== PAGE_SIZE || ids(a) !== ids(b)) {
    fail(
      `${what}: Ninefold and the raw route do not answer the same ${PAGE_SIZE} rows; the comparison would be meaningless.`,
    );
  }
}

function cursorAt(file, offset) {
  const sqlite = new Sqlite(file, { readonly: true });
  const row = sqlite
    .prepare('select "createdAt", "id" from claims order by "createdAt", "id" limit 1 offset ?')
    .get(offset);
  sqlite.close();
  // the cursor the API gives out (packages/server/src/resources/list-query.ts, encodeCursor)
  return Buffer.from(JSON.stringify({ s: 'createdAt,id', v: [row.createdAt, row.id] }), 'utf8').toString(
    'base64url',
  );
}

// ---------------------------------------------------------------------------------------------
// The run

const wanted = (key) => ONLY === '' || ONLY.split(',').includes(key);
const started = performance.now();
const dir = mkdtempSync(join(tmpdir(), 'ninefold-bench-server-'));
process.on('exit', () => {
  stopAll();
  rmSync(dir, { recursive: true, force: true });
});
process.on('SIGINT', () => process.exit(130));

const model = benchModel();
const seeded = await seed(model, dir);
console.log(
  `Seeded ${num(ROWS)} claims (${num(seeded.clerkIds.length)} owned by the clerk) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
const [ninefold, raw] = await Promise.all([
  startServer('ninefold', seeded.file, seeded.clerk.id),
  startServer('raw', seeded.file, seeded.clerk.id),
]);
const clerk = await signIn(ninefold, seeded.clerk.email);
const manager = await signIn(ninefold, seeded.manager.email);
const few = await signIn(ninefold, seeded.sparse.email);
const asClerk = { cookie: clerk };
// a personal API token of the clerk's: the same reads, authenticated by Authorization: Bearer
const { body: made } = await json(`${ninefold.url}/api/tokens`, {
  method: 'POST',
  headers: { ...asClerk, ...CSRF, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'bench' }),
});
const asClerkScript = { authorization: `Bearer ${made.token}` };
const asFew = { cookie: few };
const ownIds = seeded.clerkIds.slice(0, 1000);

const LIST = '/api/claims?sort=-createdAt&limit=50';
const RAW_LIST = `/raw/claims?owner=${seeded.clerk.id}`;
// as the client asks for the `claims-by-day` screen's list
const LIST_SPENT = '/api/claims?screen=claims-by-day&sort=-spentOn&limit=50';
const RAW_LIST_SPENT = `/raw/claims?owner=${seeded.clerk.id}&plan=spentOn`;
const RAW_LIST_FEW = `/raw/claims?owner=${seeded.sparse.id}&plan=plain`;
for (const [what, headers, mine, theirs] of [
  ['list', asClerk, LIST, RAW_LIST],
  ['list by spentOn', asClerk, LIST_SPENT, RAW_LIST_SPENT],
  ['list of a clerk with few claims', asFew, LIST, RAW_LIST_FEW],
]) {
  sameIds(
    what,
    (await json(`${ninefold.url}${mine}`, { headers })).body.data,
    (await json(`${raw.url}${theirs}`)).body.data,
  );
}
const one = (await json(`${ninefold.url}/api/claims/${ownIds[0]}`, { headers: asClerk })).body;
if (one.id !== (await json(`${raw.url}/raw/claims/${ownIds[0]}`)).body.id)
  fail('get: the two sides answer different records.');

// keyset paging as the manager, who reads all 100,000 rows: page 1 and page 2,000 (the last)
const PAGE_1 = '/api/claims?limit=50';
const first = (await json(`${ninefold.url}${PAGE_1}`, { headers: { cookie: manager } })).body;
if (first.nextCursor !== cursorAt(seeded.file, PAGE_SIZE - 1))
  fail('paging: the constructed cursor is not the one the API gives out.');
const PAGE_2000 = `/api/claims?limit=50&cursor=${cursorAt(seeded.file, ROWS - PAGE_SIZE - 1)}`;
const last = (await json(`${ninefold.url}${PAGE_2000}`, { headers: { cookie: manager } })).body;
if (last.data.length !== PAGE_SIZE || last.nextCursor !== null)
  fail('paging: page 2,000 is not the last full page.');

const cpu = cpus()[0]?.model ?? 'unknown CPU';
console.log(
  `Node ${process.version}, ${process.platform} ${process.arch}, ${availableParallelism()} cores (${cpu}); ` +
    `${RUNS} runs × ${SECONDS} s per side, ${CONNECTIONS} connections (paging: 1), after ${WARMUP_SECONDS} s of warm-up\n`,
);

const MEASUREMENTS = [
  {
    key: 'health',
    title: '/health, whole stack ÷ bare Fastify hello',
    target: 0.9,
    ninefold: { path: '/health' },
    raw: { path: '/health' },
  },
  {
    key: 'list',
    title: 'list of 50, `read: own` (10,000 own rows), sort -createdAt ÷ prepared SELECT, same plan',
    target: 0.6,
    ninefold: { path: LIST, headers: asClerk },
    raw: { path: RAW_LIST },
  },
  {
    key: 'list-few',
    title:
      'list of 50, `read: own` (60 own rows), sort -createdAt ÷ prepared SELECT with a plain `owner = ?`',
    target: null,
    ninefold: { path: LIST, headers: asFew },
    raw: { path: RAW_LIST_FEW },
  },
  {
    key: 'list-spenton',
    title:
      'list of 50, `read: own` (10,000 own rows), screen sorted -spentOn ÷ prepared SELECT … NULLS FIRST, same index, 1 connection',
    target: null,
    // decision 0048: the screen's list is served by an index, at most 2 ms at the median; one
    // connection, so that the median is a request's own time, not a queue's
    p50Target: 2,
    connections: 1,
    ninefold: { path: LIST_SPENT, headers: asClerk },
    raw: { path: RAW_LIST_SPENT },
  },
  {
    key: 'get',
    title: 'get by id (1,000 own ids in turn) ÷ prepared SELECT by id',
    target: 0.7,
    ninefold: { path: '/api/claims', paths: ownIds.map((id) => `/api/claims/${id}`), headers: asClerk },
    raw: { path: '/raw/claims', paths: ownIds.map((id) => `/raw/claims/${id}`) },
  },
  {
    key: 'create',
    title: 'create (validation, permission, audit) ÷ JSON Schema + prepared INSERT',
    target: 0.5,
    ninefold: { path: '/api/claims', method: 'POST', body: CREATE_BODY, headers: { ...asClerk, ...CSRF } },
    raw: { path: '/raw/claims', method: 'POST', body: CREATE_BODY },
  },
];

const results = {};
for (const m of MEASUREMENTS) {
  if (!wanted(m.key)) continue;
  const [nf, rw] = await pair(
    [
      { server: ninefold, request: m.ninefold },
      { server: raw, request: m.raw },
    ],
    // the informational pairs run shorter, to keep the whole run within four minutes
    {
      ...(m.target === null ? { seconds: INFO_SECONDS } : {}),
      ...(m.connections === undefined ? {} : { connections: m.connections }),
    },
  );
  const ratio = nf.rps / rw.rps;
  results[m.key] = { ninefold: nf, raw: rw, ratio, cpuRatio: rw.cpu / nf.cpu, target: m.target };
  console.log(m.title);
  for (const [name, s] of [
    ['Ninefold', nf],
    ['raw', rw],
  ]) {
    console.log(
      `  ${name.padEnd(9)} ${num(s.rps).padStart(7)} req/s (${num(s.rpsMin)}–${num(s.rpsMax)})   p50 ${ms(s.p50)}   p99 ${ms(s.p99)}   CPU ${num(s.cpu)} µs/req`,
    );
  }
  console.log(
    `  CPU per request, raw ÷ Ninefold: ${(rw.cpu / nf.cpu).toFixed(2)} (informational: each server process's own CPU time per response)`,
  );
  if (m.p50Target !== undefined) {
    results[m.key].p50Target = m.p50Target;
    console.log(
      `  p50 ${ms(nf.p50)} (raw ${ms(rw.p50)}), p50 ratio ${(nf.p50 / rw.p50).toFixed(2)}   target ≤ ${ms(m.p50Target)}   ${verdict(nf.p50 <= m.p50Target)}`,
    );
  }
  console.log(
    `  ratio ${ratio.toFixed(2)}${m.target === null ? ' (no target: informational)' : `   target ≥ ${m.target}   ${verdict(ratio >= m.target)}`}\n`,
  );
}

if (wanted('bearer')) {
  // the same get by id, as a script with the clerk's token and as the clerk's browser: what a token
  // costs (a lookup per request, no cache) against a cached session
  const paths = ownIds.map((id) => `/api/claims/${id}`);
  const [bearer, cookie] = await pair([
    { server: ninefold, request: { path: '/api/claims', paths, headers: asClerkScript } },
    { server: ninefold, request: { path: '/api/claims', paths, headers: asClerk } },
  ]);
  const ratio = bearer.rps / cookie.rps;
  results.bearer = { bearer, cookie, ratio, cpuRatio: cookie.cpu / bearer.cpu };
  console.log('get by id (1,000 own ids in turn), bearer token ÷ session cookie');
  for (const [name, s] of [
    ['bearer', bearer],
    ['cookie', cookie],
  ]) {
    console.log(
      `  ${name.padEnd(9)} ${num(s.rps).padStart(7)} req/s (${num(s.rpsMin)}–${num(s.rpsMax)})   p50 ${ms(s.p50)}   p99 ${ms(s.p99)}   CPU ${num(s.cpu)} µs/req`,
    );
  }
  console.log(`  ratio ${ratio.toFixed(2)} (no target: informational)\n`);
}

if (wanted('paging')) {
  const [p1, p2000] = await pair(
    [
      { server: ninefold, request: { path: PAGE_1, headers: { cookie: manager } } },
      { server: ninefold, request: { path: PAGE_2000, headers: { cookie: manager } } },
    ],
    { connections: 1 },
  );
  const growth = p2000.p50 / p1.p50;
  results.paging = { page1: p1, page2000: p2000, growth, target: 1.2 };
  console.log('keyset paging, manager (reads all 100,000), default sort createdAt, 1 connection');
  for (const [name, s] of [
    ['page 1', p1],
    ['page 2,000', p2000],
  ]) {
    console.log(`  ${name.padEnd(10)} p50 ${ms(s.p50)}   p99 ${ms(s.p99)}   ${num(s.rps).padStart(6)} req/s`);
  }
  console.log(
    `  p50 page 2,000 ÷ page 1: ${growth.toFixed(2)}×   target ≤ 1.2×   ${verdict(growth <= 1.2)}\n`,
  );
}

const [ninefoldRss, rawRss] = await Promise.all([stopServer(ninefold), stopServer(raw)]);
results.peakRss = { ninefold: ninefoldRss, raw: rawRss, runner: process.resourceUsage().maxRSS * 1024 };
console.log(
  `peak RSS: Ninefold server ${mib(ninefoldRss)}, raw server ${mib(rawRss)} (${(ninefoldRss / rawRss).toFixed(2)}×); ` +
    `load generator and seeding ${mib(results.peakRss.runner)}`,
);
const seconds = (performance.now() - started) / 1000;
console.log(`total ${seconds.toFixed(0)} s`);

mkdirSync(OUT, { recursive: true });
writeFileSync(
  join(OUT, 'latest.json'),
  JSON.stringify(
    { node: process.version, cpu, cores: availableParallelism(), runs: RUNS, seconds: SECONDS, results },
    null,
    2,
  ),
);
if (PROFILE)
  console.log(`CPU profiles of both servers: ${OUT} (node bench/server/profile-summary.js <file>)`);
