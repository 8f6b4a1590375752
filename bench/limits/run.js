// Limits benchmark (decision 0057): what counting the request limit in a shared store costs a get
// by id on a PostgreSQL server. Three servers over one PostgreSQL database, the same build and
// spec, differing only in where the request limit counts: this process's memory (the anchor: the
// cost before the limits were shared), the server's `ninefold_limits` table (one upsert a request),
// and Redis (one Lua script a request). Each is loaded in turn with autocannon, the order rotated
// run by run; medians of requests/s, p50/p99 and the server's own CPU per response.
//
//   npm run bench:limits        (tsc -b && node bench/limits/run.js)
//   node bench/limits/run.js --runs 5 --seconds 5 --url postgres://postgres@127.0.0.1:5432/test
//
// PostgreSQL is TEST_DATABASE_URL, or --url (a fresh schema is made in it and dropped after);
// Redis is Debian's /usr/bin/redis-server, started on a free port. One user reads its own claims:
// every request of the run counts in that user's one window (one row, one key), the worst case.
import autocannon from 'autocannon';
import { addUser, migrate, openDatabase } from '@ninefold/server';
import { fork, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { availableParallelism, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { CREATE_BODY, benchModel } from '../server/spec.js';
import { argument, median } from '../lib/stats.js';

const RUNS = Number(argument('--runs', '3'));
const SECONDS = Number(argument('--seconds', '5'));
const CONNECTIONS = 10;
// `--profile`: a V8 CPU profile of each server in bench/limits/out/ (bench/server/profile-summary.js reads it)
const PROFILE = process.argv.includes('--profile');
const OUT = fileURLToPath(new URL('./out/', import.meta.url));
const CLAIMS = 200;
const BASE = argument('--url', process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test');
const CSRF = { 'x-ninefold-csrf': '1' };
const { fetch } = globalThis; // Node's own, global since 18
const PASSWORD = 'bench password 1';

const children = [];
const cleanups = [];
function fail(message) {
  console.error(`\n${message}`);
  process.exit(1);
}
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

async function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startRedis() {
  const port = await freePort();
  const child = spawn('/usr/bin/redis-server', [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
  ]);
  children.push(child);
  await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
  });
  return `redis://127.0.0.1:${port}`;
}

function startServer(kind, url, redisUrl) {
  const execArgv = PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${OUT}`, `--cpu-prof-name=${kind}-${Date.now()}.cpuprofile`]
    : [];
  const child = fork(fileURLToPath(new URL('./serve.js', import.meta.url)), [kind, url, redisUrl], {
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ kind, child, url: `http://127.0.0.1:${m.port}` }));
    child.once('exit', (code) => reject(new Error(`The ${kind} server exited with ${code}.`)));
  });
}

function ask(server, type) {
  return new Promise((resolve) => {
    const listener = (m) => {
      if (m?.type !== (type === 'stop' ? 'stopped' : type)) return;
      server.child.off('message', listener);
      resolve(m);
    };
    server.child.on('message', listener);
    server.child.send({ type });
  });
}

async function load(server, paths, headers, seconds) {
  const before = (await ask(server, 'cpu')).micros;
  const latencies = [];
  let bad = 0;
  let i = 0;
  const instance = autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      { method: 'GET', headers, setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) },
    ],
  });
  instance.on('response', (_client, status, _bytes, time) => {
    latencies.push(time);
    if (status !== 200) bad += 1;
  });
  const result = await instance;
  const cpu = (await ask(server, 'cpu')).micros - before;
  if (bad > 0 || result.errors > 0)
    fail(`${server.kind}: ${bad} answers were not 200, ${result.errors} errors.`);
  latencies.sort((a, b) => a - b);
  const at = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return { rps: latencies.length / result.duration, p50: at(50), p99: at(99), cpu: cpu / latencies.length };
}

// a fresh schema of the server, dropped after
const schema = `nf_bench_limits_${Date.now().toString(36)}`;
const admin = new pg.Client({ connectionString: BASE });
await admin.connect();
await admin.query(`create schema ${schema}`);
cleanups.push(async () => {
  await admin.query(`drop schema if exists ${schema} cascade`);
  await admin.end();
});
const target = new URL(BASE);
target.searchParams.set('options', `-c search_path=${schema}`);
const url = target.toString();
try {
  const model = benchModel();
  const database = await openDatabase(url);
  await migrate(database, model);
  await addUser(database, model, {
    email: 'clerk@bench.local',
    name: 'Clerk',
    roles: ['clerk'],
    password: PASSWORD,
  });
  await database.close();

  const redisUrl = await startRedis();
  const servers = [];
  for (const kind of ['memory', 'postgres', 'redis']) servers.push(await startServer(kind, url, redisUrl));
  const [first] = servers;
  const signIn = await fetch(`${first.url}/api/session`, {
    method: 'POST',
    headers: { ...CSRF, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'clerk@bench.local', password: PASSWORD }),
  });
  const cookie = signIn.headers
    .getSetCookie()
    .find((c) => c.startsWith('ninefold_session='))
    ?.split(';')[0];
  if (cookie === undefined) fail('Signing in set no session cookie.');
  const headers = { cookie };
  const ids = [];
  for (let i = 0; i < CLAIMS; i += 1) {
    const made = await fetch(`${first.url}/api/claims`, {
      method: 'POST',
      headers: { ...headers, ...CSRF, 'content-type': 'application/json' },
      body: JSON.stringify(CREATE_BODY),
    });
    if (made.status !== 201) fail(`A create answered ${made.status}: ${await made.text()}`);
    ids.push((await made.json()).id);
  }
  const paths = ids.map((id) => `/api/claims/${id}`);

  console.log(
    `Node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}); ` +
      `PostgreSQL at ${target.host}; ${RUNS} runs × ${SECONDS} s per side, ${CONNECTIONS} connections, after 1 s of warm-up\n`,
  );
  for (const server of servers) await load(server, paths, headers, 1);
  const runs = servers.map(() => []);
  for (let r = 0; r < RUNS; r += 1) {
    const order = servers.map((_, i) => (i + r) % servers.length);
    for (const i of order) runs[i].push(await load(servers[i], paths, headers, SECONDS));
  }
  const summary = runs.map((list) => ({
    rps: median(list.map((x) => x.rps)),
    p50: median(list.map((x) => x.p50)),
    p99: median(list.map((x) => x.p99)),
    cpu: median(list.map((x) => x.cpu)),
  }));
  console.log('get by id on PostgreSQL, one user, by where the request limit counts');
  for (const [i, server] of servers.entries()) {
    const s = summary[i];
    console.log(
      `  ${server.kind.padEnd(9)} ${Math.round(s.rps).toLocaleString('en-US').padStart(7)} req/s   p50 ${s.p50.toFixed(2)} ms   p99 ${s.p99.toFixed(2)} ms   CPU ${Math.round(s.cpu)} µs/req   ÷ memory ${(s.rps / summary[0].rps).toFixed(2)}`,
    );
  }
  for (const server of servers) await ask(server, 'stop');
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup();
}
// the Redis child's pipes would keep the process waiting: the 'exit' handler kills it
process.exit(0);
