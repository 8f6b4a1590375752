// Computed values benchmark (decision 0045): a list of 50 orders whose total and line count are
// computed over 100,000 order lines, against the same list of the same orders without the computed
// fields. Both sides run in this process, on SQLite files of their own, through `app.inject()`,
// alternated request by request so that both see the same machine.
//
//   npm run bench:computed                 (tsc -b && node bench/computed/run.js)
//   node bench/computed/run.js --lines 100000 --requests 400
//
// The lines are written first with a spec without computed fields; the migration to the spec with
// them computes every order's values (its time is printed). Printed: the median time of a list page
// of each side and their ratio (target ≤ 1.5×), the same list sorted by the computed total, one line
// write on an order of 2,000 lines (the cost of keeping the values), and the peak RSS.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { compile } from '@ninefold/language';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@ninefold/model';
import { addUser, buildApp, migrate, openDatabase } from '@ninefold/server';
import { argument, median } from '../lib/stats.js';

const LINES = Number(argument('--lines', '100000'));
const REQUESTS = Number(argument('--requests', '400'));
const ORDERS = 50;
const TARGET = 1.5;
const PASSWORD = 'bench password 1';
const MiB = 2 ** 20;

const COMPUTED = `
product: { name: Bench orders }
entities:
  Order:
    fields:
      number: { type: string, required: true }
      lines: { type: children, entity: OrderLine, via: order }
      total: { type: money, currency: EUR, computed: "sum(lines.map(l, l.amount))" }
      lineCount: { type: integer, computed: "size(lines)" }
  OrderLine:
    fields:
      order: { type: ref, to: Order, required: true }
      quantity: { type: integer, required: true }
      unitPrice: { type: money, currency: EUR, required: true }
      amount: { type: money, currency: EUR, computed: "double(quantity) * unitPrice" }
roles:
  sales: { Order: true, OrderLine: true }
limits:
  requestsPerMinute: { default: 1000000 }
`;
const PLAIN = COMPUTED.replace(/ {6}(lines|total|lineCount|amount): .*\n/g, '');

const model = (text) => {
  const result = compile(text, { file: 'bench.yaml' });
  if (!result.ok)
    throw new Error(result.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`).join('\n'));
  return result.model;
};

const dir = mkdtempSync(join(tmpdir(), 'nf-bench-computed-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

/** A file with 50 orders and their lines, migrated to `final`; the app over it, signed in. */
async function prepare(side, final) {
  const database = await openDatabase({ sqlite: join(dir, `${side}.sqlite`) });
  await migrate(database, model(PLAIN));
  const at = new Date('2026-01-01T00:00:00Z');
  const stamp = (i) => new Date(at.getTime() + i * 1000).toISOString();
  const orders = Array.from({ length: ORDERS }, (_, i) => ({
    id: `o${String(i).padStart(4, '0')}`,
    createdAt: stamp(i),
    updatedAt: stamp(i),
    version: 1,
    number: `O${1000 + i}`,
  }));
  await database.db.insertInto('orders').values(orders).execute();
  for (let start = 0; start < LINES; start += 1000) {
    const rows = [];
    for (let i = start; i < Math.min(LINES, start + 1000); i++)
      rows.push({
        id: `l${String(i).padStart(7, '0')}`,
        createdAt: stamp(i),
        updatedAt: stamp(i),
        version: 1,
        order: orders[i % ORDERS].id,
        quantity: 1 + (i % 7),
        unitPrice: 100 + (i % 997), // minor units: 1.00 … 10.96
      });
    await database.db.insertInto('order_lines').values(rows).execute();
  }
  const started = performance.now();
  const outcome = await migrate(database, model(final));
  const migrated = performance.now() - started;
  const m = model(final);
  await addUser(database, m, {
    email: `${side}@bench.local`,
    name: side,
    roles: ['sales'],
    password: PASSWORD,
  });
  const app = buildApp({ model: m, database, logger: false });
  const login = await app.inject({
    method: 'POST',
    url: '/api/session',
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE },
    payload: { email: `${side}@bench.local`, password: PASSWORD },
  });
  const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  if (login.statusCode !== 200) throw new Error(`${side}: sign-in answered ${login.statusCode}`);
  return { app, database, cookie, migrated, planText: outcome.planText };
}

const plain = await prepare('plain', PLAIN);
const computed = await prepare('computed', COMPUTED);

/** The time of one request in ms; a non-2xx answer stops the run. */
async function timed(side, method, url, payload) {
  const started = performance.now();
  const response = await side.app.inject({
    method,
    url,
    headers: { cookie: side.cookie, [CSRF_HEADER]: CSRF_HEADER_VALUE },
    ...(payload === undefined ? {} : { payload }),
  });
  const ms = performance.now() - started;
  if (response.statusCode >= 300)
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return { ms, body: response.json() };
}

const LIST = '/api/orders?limit=50&sort=-createdAt';
const first = await timed(computed, 'GET', LIST);
if (first.body.data.length !== ORDERS || first.body.data.some((o) => o.lineCount !== LINES / ORDERS))
  throw new Error('the computed side does not list 50 orders with their line counts');

for (let i = 0; i < 50; i++) {
  await timed(plain, 'GET', LIST);
  await timed(computed, 'GET', LIST);
}
const times = { plain: [], computed: [], sorted: [] };
for (let i = 0; i < REQUESTS; i++) {
  times.plain.push((await timed(plain, 'GET', LIST)).ms);
  times.computed.push((await timed(computed, 'GET', LIST)).ms);
  times.sorted.push((await timed(computed, 'GET', '/api/orders?limit=50&sort=-total')).ms);
}
const writes = { plain: [], computed: [] };
for (let i = 0; i < 30; i++) {
  const line = { order: 'o0001', quantity: 1, unitPrice: '1.00' };
  writes.plain.push((await timed(plain, 'POST', '/api/order-lines', line)).ms);
  writes.computed.push((await timed(computed, 'POST', '/api/order-lines', line)).ms);
}

const p = median(times.plain);
const c = median(times.computed);
const ratio = c / p;
const fmt = (ms) => `${ms.toFixed(2)} ms`;
console.log(
  `computed values: a list of ${ORDERS} orders over ${LINES.toLocaleString('en')} lines, ${REQUESTS} requests a side`,
);
console.log(`  list without computed fields   ${fmt(p)} (median)`);
console.log(
  `  list with total and lineCount  ${fmt(c)} (median)   ratio ${ratio.toFixed(2)}×  target ≤ ${TARGET}×  ${ratio <= TARGET ? 'PASS' : 'MISS'}`,
);
console.log(`  the same, sorted by total      ${fmt(median(times.sorted))} (median)`);
console.log(
  `  a line written on an order of ${LINES / ORDERS} lines: ${fmt(median(writes.computed))}, its order's values recomputed in the write; ${fmt(median(writes.plain))} without (medians of 30)`,
);
console.log(
  `  the migration that added the computed fields: ${fmt(computed.migrated)} for ${ORDERS} orders and ${LINES.toLocaleString('en')} lines`,
);
console.log(
  `  peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB; heap used now ${(process.memoryUsage().heapUsed / MiB).toFixed(0)} MiB`,
);
await plain.app.close();
await computed.app.close();
await plain.database.close();
await computed.database.close();
