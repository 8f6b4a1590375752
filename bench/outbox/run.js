// Outbox benchmark: what a create costs when it carries effects (issue 17). Three servers of the
// claims spec, each in its own process on its own SQLite file, loaded in turn with creates:
//
//   plain       the spec without effects: the anchor;
//   effects     the spec with one notification (app and mail, to every manager) and one webhook on
//               Claim.created: each create also writes its one outbox job (`ninefold.effects`, fanned
//               out later into their jobs and the delivery's log row), left for later — the cost the
//               target is about;
//   delivering  the same, with the product's job runner in the process delivering them meanwhile
//               (the webhook to a receiver this process runs, the mail to the development outbox).
//
//   npm run bench:outbox            (tsc -b && node bench/outbox/run.js)
//   node bench/outbox/run.js --runs 5 --seconds 5
//
// Medians of requests/s and of the server's CPU per create, the ratios to `plain`, each server's
// peak RSS, and the jobs each left (the delivering side's done ones are what it delivered).
// Target: effects ≥ 0.8× plain. A miss is printed, never fatal; a non-2xx answer fails the run.
import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addUser, migrate, openDatabase } from '@ninefold/server';
import { argument, median } from '../lib/stats.js';
import { CREATE_BODY } from '../server/spec.js';
import { outboxModel } from './spec.js';

const RUNS = Number(argument('--runs', '3'));
const SECONDS = Number(argument('--seconds', '5'));
const CONNECTIONS = 10;
const PASSWORD = 'bench password 1';
const SIDES = ['plain', 'effects', 'delivering'];
const TARGET = 0.8;
const MiB = 2 ** 20;
const { fetch } = globalThis; // Node's own, global since 18

const dir = mkdtempSync(join(tmpdir(), 'nf-bench-outbox-'));
const children = [];
const stopAll = () => {
  for (const child of children) child.kill();
  rmSync(dir, { recursive: true, force: true });
};
process.on('exit', stopAll);
const fail = (message) => {
  console.error(`\n${message}`);
  process.exit(1);
};

// the webhook's receiver: answers every delivery at once, as a healthy one does
let received = 0;
const receiver = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    received += 1;
    response.writeHead(204).end();
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const env = {
  ...process.env,
  BENCH_WEBHOOK_URL: `http://127.0.0.1:${receiver.address().port}/hook`,
  BENCH_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
  NINEFOLD_WEBHOOKS_ALLOW_PRIVATE: '1',
};
delete env.SMTP_URL;

/** A migrated file with a clerk who creates and two managers whom each create notifies. */
async function prepare(side) {
  const file = join(dir, `${side}.sqlite`);
  const model = outboxModel(side === 'plain' ? 'plain' : 'effects');
  const database = await openDatabase({ sqlite: file });
  await migrate(database, model);
  const users = [
    ['clerk@bench.local', 'clerk'],
    ['manager1@bench.local', 'manager'],
    ['manager2@bench.local', 'manager'],
  ];
  for (const [email, role] of users)
    await addUser(database, model, { email, name: email.split('@')[0], roles: [role], password: PASSWORD });
  await database.close();
  return file;
}

function start(side, file) {
  const child = fork(fileURLToPath(new URL('./serve.js', import.meta.url)), [side, file], {
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ side, child, url: `http://127.0.0.1:${m.port}` }));
    child.once('exit', (code) => reject(new Error(`The ${side} server exited with ${code}.`)));
  });
}

function ask(server, type) {
  return new Promise((resolve) => {
    const listener = (message) => {
      if (message.type !== (type === 'cpu' ? 'cpu' : 'stopped')) return;
      server.child.off('message', listener);
      resolve(message);
    };
    server.child.on('message', listener);
    server.child.send({ type });
  });
}

async function signIn(server) {
  const response = await fetch(`${server.url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-ninefold-csrf': '1' },
    body: JSON.stringify({ email: 'clerk@bench.local', password: PASSWORD }),
  });
  if (response.status !== 200) fail(`${server.side}: signing in answered ${response.status}.`);
  return response.headers.get('set-cookie').split(';')[0];
}

async function load(server, cookie, seconds) {
  const before = (await ask(server, 'cpu')).micros;
  const statuses = new Map();
  const result = await autocannon({
    url: `${server.url}/api/claims`,
    connections: CONNECTIONS,
    duration: seconds,
    method: 'POST',
    headers: { cookie, 'x-ninefold-csrf': '1', 'content-type': 'application/json' },
    body: JSON.stringify(CREATE_BODY),
    setupClient: (client) =>
      client.on('response', (status) => statuses.set(status, (statuses.get(status) ?? 0) + 1)),
  });
  const after = (await ask(server, 'cpu')).micros;
  const bad = [...statuses].filter(([status]) => status !== 201);
  if (bad.length > 0 || result.errors > 0 || result.timeouts > 0)
    fail(`${server.side}: ${bad.map(([s, n]) => `${n}× ${s}`).join(', ')}, ${result.errors} errors.`);
  const creates = statuses.get(201) ?? 0;
  return { rps: creates / (result.duration || seconds), cpu: (after - before) / creates };
}

const servers = [];
for (const side of SIDES) servers.push(await start(side, await prepare(side)));
const cookies = await Promise.all(servers.map(signIn));
for (const [i, server] of servers.entries()) await load(server, cookies[i], 1); // warm-up

const runs = SIDES.map(() => []);
for (let run = 0; run < RUNS; run++) {
  // each run starts with the next side, so no side always goes first
  for (let k = 0; k < SIDES.length; k++) {
    const i = (run + k) % SIDES.length;
    runs[i].push(await load(servers[i], cookies[i], SECONDS));
  }
}
const stopped = [];
for (const server of servers) stopped.push(await ask(server, 'stop'));
receiver.close();

const rps = runs.map((r) => median(r.map((x) => x.rps)));
const cpu = runs.map((r) => median(r.map((x) => x.cpu)));
console.log(`create, ${CONNECTIONS} connections, ${RUNS} runs of ${SECONDS} s, medians\n`);
console.log('side         creates/s   ÷ plain   CPU µs/create   peak RSS    jobs left');
for (const [i, side] of SIDES.entries()) {
  const jobs = Object.entries(stopped[i].jobs ?? {})
    .map(([state, n]) => `${n} ${state}`)
    .join(', ');
  console.log(
    `${side.padEnd(12)} ${rps[i].toFixed(0).padStart(9)}   ${(rps[i] / rps[0]).toFixed(2).padStart(6)}×` +
      `   ${cpu[i].toFixed(0).padStart(13)}   ${(stopped[i].peakRss / MiB).toFixed(1).padStart(5)} MiB` +
      `   ${jobs || 'none'}`,
  );
}
const ratio = rps[1] / rps[0];
console.log(`\ncreate with one notification and one webhook ÷ create without: ${ratio.toFixed(2)}×`);
console.log(`target ≥ ${TARGET}×: ${ratio >= TARGET ? 'PASS' : 'MISS'}`);
console.log(`the receiver got ${received} deliveries from the delivering side`);
process.exit(0);
