// Instances benchmark (issue 20): the throughput of 1, 2 and 3 `ninefold start` processes on one
// PostgreSQL database, against 1 — on the same 2-core machine, so sub-linear by construction: the
// point is the ratio and where the time goes — and the latency from a create's commit to its event
// on 100 open event streams.
//
//   npm run bench:instances          (tsc -b && node bench/instances/run.js)
//   node bench/instances/run.js --runs 3 --seconds 8 --connections 12 --streams 100 --creates 200
//   node bench/instances/run.js --mix get      (one kind of request alone: where its time goes)
//
// A database of its own is created on the PostgreSQL server at BENCH_DATABASE_URL, TEST_DATABASE_URL
// or postgres://postgres@127.0.0.1:5432/test, and dropped at the end. Three instances of the built
// command line start on it (the first alone, migrating; the others beside it), each a child process
// on its own port, serving the server benchmark's claims spec (bench/server/spec.js). A clerk made
// with `ninefold users add` signs in once; 200 claims are created for the reads. The load: autocannon
// in this process, CONNECTIONS keep-alive connections spread over the N instances loaded (a load
// balancer's round robin, per connection), each repeating a list page of 50, two reads by id and one
// create. N = 1, 2, 3 are measured in turn (the order rotated run by run), the instances not loaded
// idle; medians of RUNS runs. Where the time goes: the CPU time of the instances, of this process
// (the load generator), of the PostgreSQL backends connected to its database (a shared server's
// other work counts as "other"), and the machine's idle time, from /proc.
//
// Part 2 runs when the instances serve GET /api/events (it says so when they answer 404): STREAMS
// streams as the clerk, spread over the three instances, and CREATES creates paced 50 ms apart sent to
// the instances in turn; the time from each create's answer (its commit is just before) to its event
// on every stream, p50 and p99, and from its request (an upper bound).
import autocannon from 'autocannon';
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clearInterval, setInterval } from 'node:timers';
import { promisify } from 'node:util';
import pg from 'pg';
import { CREATE_BODY, SPEC } from '../server/spec.js';
import { argument, median } from '../lib/stats.js';
import { eventLatency, probeEvents } from './events.js';
import { backendsCpu, backendsCpuBetween, cpuMs, machineCpu, peakRss } from './processes.js';

const RUNS = Number(argument('--runs', '3'));
const SECONDS = Number(argument('--seconds', '8'));
const CONNECTIONS = Number(argument('--connections', '12'));
const STREAMS = Number(argument('--streams', '100'));
/** The server's limit of open streams per user (`MAX_STREAMS_PER_USER`). */
const STREAMS_PER_USER = 10;
// what each connection repeats, in order: list (a page of 50), get (a read by id), create
const MIX = argument('--mix', 'list,get,get,create').split(',');
const CREATES = Number(argument('--creates', '200'));
const MAX_INSTANCES = 3;
const SEEDED = 200;
const BASE_URL =
  process.env['BENCH_DATABASE_URL'] ||
  process.env['TEST_DATABASE_URL'] ||
  'postgres://postgres@127.0.0.1:5432/test';
const CLI = fileURLToPath(new URL('../../packages/cli/bin/ninefold.js', import.meta.url));
const OUT = fileURLToPath(new URL('./out/', import.meta.url));
const EMAIL = 'clerk@bench.local';
const PASSWORD = 'bench instances password';
const CSRF = { 'x-ninefold-csrf': '1' };
const MiB = 2 ** 20;
const { fetch } = globalThis;
const run = promisify(execFile);

const num = (n) => Math.round(n).toLocaleString('en-US');
const pct = (n) => `${(n * 100).toFixed(0)} %`;

// ---------------------------------------------------------------------------------------------
// The database and the instances

const name = `nf_bench_instances_${randomBytes(4).toString('hex')}`;
async function admin(text) {
  const client = new pg.Client({ connectionString: BASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
const databaseUrl = (() => {
  const url = new URL(BASE_URL);
  url.pathname = `/${name}`;
  url.searchParams.delete('options');
  return url.toString();
})();
const dir = mkdtempSync(join(tmpdir(), 'ninefold-bench-instances-'));
const spec = join(dir, 'bench.yaml');
writeFileSync(spec, SPEC);
const env = { ...process.env, DATABASE_URL: databaseUrl, NO_COLOR: '1' };

/**
 * The rows written so far in each table of the benchmark's database (inserted, updated, deleted:
 * `pg_stat_user_tables`), which say what the PostgreSQL time is spent on. PostgreSQL publishes a
 * backend's counts at most a second late: read them a second after a run.
 */
async function tableWrites() {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      'select relname, n_tup_ins + n_tup_upd + n_tup_del as written from pg_stat_user_tables',
    );
    return new Map(rows.map((row) => [row.relname, Number(row.written)]));
  } finally {
    await client.end();
  }
}

/** The pids of the PostgreSQL backends connected to the benchmark's database. */
async function backends() {
  const client = new pg.Client({ connectionString: BASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query('select pid from pg_stat_activity where datname = $1', [name]);
    return rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

const children = [];
let cleaned = false;
async function cleanUp() {
  if (cleaned) return;
  cleaned = true;
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', resolve);
          child.kill('SIGTERM');
        }),
    ),
  );
  await admin(`drop database if exists ${name} with (force)`).catch((error) =>
    console.error(`Could not drop ${name}: ${error.message}`),
  );
  rmSync(dir, { recursive: true, force: true });
}
async function fail(message) {
  console.error(`\n${message}`);
  await cleanUp();
  process.exit(1);
}
process.on('SIGINT', () => void cleanUp().then(() => process.exit(130)));

/** Starts one instance and resolves once it listens and answers /ready. */
function startInstance() {
  const child = spawn(
    process.execPath,
    [CLI, 'start', spec, '--host', '127.0.0.1', '--port', '0', '--api-only', '--quiet'],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 90 s:\n${output}`)), 90_000);
    child.once('exit', (code) => {
      clearInterval(listening);
      clearTimeout(timer);
      reject(new Error(`ninefold start exited with ${code}:\n${output}`));
    });
    const listening = setInterval(async () => {
      const url = /is running at (http:\/\/\S+)/.exec(output)?.[1];
      if (url === undefined) return;
      const ready = await fetch(`${url}/ready`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (!ready) return;
      clearInterval(listening);
      clearTimeout(timer);
      resolve({ url, pid: child.pid, child });
    }, 100);
  });
}

async function json(url, init = {}) {
  const response = await fetch(url, init);
  const text = await response.text();
  if (response.status < 200 || response.status > 299)
    await fail(`${init.method ?? 'GET'} ${url}: ${response.status} ${text}`);
  return { response, body: JSON.parse(text) };
}

// ---------------------------------------------------------------------------------------------
// The load

/** The connections of `total` spread over `n` instances, as evenly as they go. */
function spread(total, n) {
  return Array.from({ length: n }, (_, i) => Math.floor(total / n) + (i < total % n ? 1 : 0));
}

/** One run of the mixed load against the first `n` instances; throughput and where the CPU went. */
async function load(instances, n, seconds, cookie, ids) {
  const loaded = instances.slice(0, n);
  const statuses = new Map();
  const headers = { cookie };
  const kinds = {
    list: { method: 'GET', path: '/api/claims?sort=-createdAt&limit=50', headers },
    get: { method: 'GET', path: '/api/claims/x', headers, setupRequest: byId },
    create: {
      method: 'POST',
      path: '/api/claims',
      headers: { ...headers, ...CSRF, 'content-type': 'application/json' },
      body: JSON.stringify(CREATE_BODY),
    },
  };
  const mix = MIX.map((kind) => kinds[kind]);
  function byId(request) {
    return { ...request, path: `/api/claims/${ids[Math.floor(Math.random() * ids.length)]}` };
  }
  const before = {
    instances: instances.map((i) => cpuMs(i.pid)),
    self: process.cpuUsage(),
    postgres: backendsCpu(await backends()),
    machine: machineCpu(),
    writes: await tableWrites(),
    at: performance.now(),
  };
  const results = await Promise.all(
    spread(CONNECTIONS, n).map((connections, i) => {
      const cannon = autocannon({ url: loaded[i].url, connections, duration: seconds, requests: mix });
      cannon.on('response', (_client, status) => statuses.set(status, (statuses.get(status) ?? 0) + 1));
      return cannon;
    }),
  );
  const elapsedMs = performance.now() - before.at;
  const self = process.cpuUsage(before.self);
  const machine = machineCpu();
  const cpu = {
    instances: instances.reduce((sum, i, k) => sum + cpuMs(i.pid) - before.instances[k], 0),
    loadGenerator: (self.user + self.system) / 1000,
    postgres: backendsCpuBetween(before.postgres, backendsCpu(await backends())),
    busy: machine.busy - before.machine.busy,
    idle: machine.idle - before.machine.idle,
  };
  const bad = [...statuses].filter(([code]) => code < 200 || code > 299);
  const errors = results.reduce((sum, r) => sum + r.errors + r.timeouts, 0);
  if (bad.length > 0 || errors > 0) {
    await fail(
      `${n} instance(s): ${bad.map(([c, k]) => `${k}× ${c}`).join(', ') || 'no bad status'}, ${errors} errors or timeouts. A benchmark of errors is worthless.`,
    );
  }
  const responses = [...statuses.values()].reduce((a, b) => a + b, 0);
  const capacity = cpu.busy + cpu.idle;
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const writes = [...(await tableWrites())]
    .map(([table, count]) => [table, ((count - (before.writes.get(table) ?? 0)) / responses) * 1000])
    .filter(([, per1000]) => per1000 >= 1)
    .sort((a, b) => b[1] - a[1]);
  return {
    rps: responses / (elapsedMs / 1000),
    p50: median(results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    // shares of the machine's whole CPU time (all cores) during the run
    share: {
      instances: cpu.instances / capacity,
      loadGenerator: cpu.loadGenerator / capacity,
      postgres: cpu.postgres / capacity,
      other: Math.max(0, cpu.busy - cpu.instances - cpu.loadGenerator - cpu.postgres) / capacity,
      idle: cpu.idle / capacity,
    },
    // rows written per 1,000 responses, by table, most first
    writes,
    // CPU ms per 1,000 responses
    per1000: {
      instances: (cpu.instances / responses) * 1000,
      postgres: (cpu.postgres / responses) * 1000,
      loadGenerator: (cpu.loadGenerator / responses) * 1000,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The run

await admin(`create database ${name}`).catch((error) =>
  fail(`The benchmark needs the PostgreSQL server at ${BASE_URL} (BENCH_DATABASE_URL): ${error.message}`),
);
const first = await startInstance().catch((error) => fail(error.message));
/** Adds a user of the given roles with `ninefold users add`, and signs them in: their cookie. */
async function userCookie(email, roles) {
  await run(
    process.execPath,
    [
      CLI,
      'users',
      'add',
      '--spec',
      spec,
      '--email',
      email,
      '--name',
      email,
      '--roles',
      roles,
      '--password',
      PASSWORD,
    ],
    { env },
  ).catch((error) => fail(`users add: ${error.message}`));
  const { response } = await json(`${first.url}/api/session`, {
    method: 'POST',
    headers: { ...CSRF, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const cookie = response.headers
    .getSetCookie()
    .find((c) => c.startsWith('ninefold_session='))
    ?.split(';')[0];
  if (cookie === undefined) await fail(`Signing in as ${email} set no session cookie.`);
  return cookie;
}
const cookie = await userCookie(EMAIL, 'clerk');
const others = await Promise.all(
  Array.from({ length: MAX_INSTANCES - 1 }, () => startInstance().catch((error) => fail(error.message))),
);
const instances = [first, ...others];
const ids = [];
for (let i = 0; i < SEEDED; i += 1) {
  const { body } = await json(`${instances[i % MAX_INSTANCES].url}/api/claims`, {
    method: 'POST',
    headers: { cookie, ...CSRF, 'content-type': 'application/json' },
    body: JSON.stringify(CREATE_BODY),
  });
  ids.push(body.id);
}

console.log(
  `Node ${process.version}, ${process.platform} ${process.arch}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}); ` +
    `PostgreSQL at ${new URL(BASE_URL).host}, database ${name}\n` +
    `${RUNS} runs × ${SECONDS} s per count of instances, ${CONNECTIONS} connections spread over the instances loaded; ` +
    `each connection repeats: ${MIX.join(', ')}\n`,
);

await load(instances, MAX_INSTANCES, 2, cookie, ids); // warm-up: every instance's JIT and pool
if (MIX.some((kind) => !['list', 'get', 'create'].includes(kind))) {
  await fail(`--mix takes list, get and create, comma-separated, not "${MIX.join(',')}".`);
}
const counts = Array.from({ length: MAX_INSTANCES }, (_, i) => i + 1);
const runs = new Map(counts.map((n) => [n, []]));
for (let r = 0; r < RUNS; r += 1) {
  const order = r % 2 === 0 ? counts : [...counts].reverse();
  for (const n of order) runs.get(n).push(await load(instances, n, SECONDS, cookie, ids));
}

const rows = counts.map((n) => {
  const list = runs.get(n);
  const m = (f) => median(list.map(f));
  return {
    instances: n,
    rps: m((x) => x.rps),
    rpsMin: Math.min(...list.map((x) => x.rps)),
    rpsMax: Math.max(...list.map((x) => x.rps)),
    p50: m((x) => x.p50),
    p99: m((x) => x.p99),
    share: Object.fromEntries(Object.keys(list[0].share).map((k) => [k, m((x) => x.share[k])])),
    per1000: Object.fromEntries(Object.keys(list[0].per1000).map((k) => [k, m((x) => x.per1000[k])])),
    writes: list.at(-1).writes,
  };
});
const one = rows[0].rps;
console.log(
  '| instances | requests/s (median, min–max) | ÷ 1 instance | p50 / p99 ms | CPU: instances | load generator | PostgreSQL (its backends) | other | idle |',
);
console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) {
  const s = row.share;
  console.log(
    `| ${row.instances} | ${num(row.rps)} (${num(row.rpsMin)}–${num(row.rpsMax)}) | ${(row.rps / one).toFixed(2)}× | ` +
      `${row.p50} / ${row.p99} | ${pct(s.instances)} | ${pct(s.loadGenerator)} | ${pct(s.postgres)} | ${pct(s.other)} | ${pct(s.idle)} |`,
  );
}
console.log('\nCPU ms per 1,000 responses (medians): instances / PostgreSQL / load generator');
for (const row of rows) {
  const p = row.per1000;
  console.log(
    `  ${row.instances}: ${p.instances.toFixed(0)} / ${p.postgres.toFixed(0)} / ${p.loadGenerator.toFixed(0)}`,
  );
}
console.log('\nRows written per 1,000 responses, by table (the last run of each count):');
for (const row of rows)
  console.log(`  ${row.instances}: ${row.writes.map(([table, n]) => `${table} ${n.toFixed(0)}`).join(', ')}`);
const rss = instances.map((i) => peakRss(i.pid));
console.log(`\nPeak RSS per instance: ${rss.map((b) => `${(b / MiB).toFixed(0)} MiB`).join(', ')}`);

// ---------------------------------------------------------------------------------------------
// Part 2: commit to event

let events = null;
const probe = await probeEvents(first.url, cookie);
if (!probe.ok && probe.status === 404) {
  console.log(
    '\nCommit to event: GET /api/events answers 404 — the events stream is not there yet; nothing measured.',
  );
} else if (!probe.ok) {
  console.log(`\nCommit to event: GET /api/events answers ${probe.status}; nothing measured.`);
} else {
  // a user holds at most STREAMS_PER_USER streams: the streams are held by managers (who read
  // every claim), each holding that many
  const watchers = [];
  for (let i = 0; i < Math.ceil(STREAMS / STREAMS_PER_USER); i += 1)
    watchers.push(await userCookie(`watcher-${i}@bench.local`, 'manager'));
  events = await eventLatency({
    urls: instances.map((i) => i.url),
    cookie,
    watchers,
    perWatcher: STREAMS_PER_USER,
    streams: STREAMS,
    creates: CREATES,
    paceMs: 50,
    body: CREATE_BODY,
  }).catch((error) => fail(`Commit to event: ${error.message}`));
  console.log(
    `\nCommit to event, ${events.streams} streams over ${MAX_INSTANCES} instances, ${events.creates} creates 50 ms apart: ` +
      `${num(events.delivered)} events delivered, ${num(events.missing)} missing\n` +
      `  from the create's answer: p50 ${events.fromAnswer.p50.toFixed(1)} ms, p99 ${events.fromAnswer.p99.toFixed(1)} ms\n` +
      `  from the create's request: p50 ${events.fromRequest.p50.toFixed(1)} ms, p99 ${events.fromRequest.p99.toFixed(1)} ms`,
  );
  for (const m of events.missed)
    console.log(
      `  missed: create ${m.create} (sent to instance ${m.createInstance + 1}) on stream ${m.stream} (instance ${m.streamInstance + 1})`,
    );
}

mkdirSync(OUT, { recursive: true });
writeFileSync(
  join(OUT, 'latest.json'),
  JSON.stringify(
    {
      at: new Date().toISOString(),
      runs: RUNS,
      seconds: SECONDS,
      connections: CONNECTIONS,
      rows,
      rss,
      events,
    },
    null,
    2,
  ),
);
await cleanUp();
