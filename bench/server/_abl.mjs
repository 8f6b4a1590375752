import { buildApp, openDatabase } from '@ninefold/server';
import { benchModel } from './spec.js';
import { rawApp } from './raw-app.js';
import Sqlite from '/work/main/node_modules/better-sqlite3/lib/index.js';
const db = new Sqlite('/tmp/sb/claims.sqlite');
const uid = db.prepare(`select id from users where email='clerk0@bench.local'`).pluck().get();
const ids = db.prepare(`select id from claims where "submittedBy" = ? limit 200`).pluck().all(uid);
db.close();
const model = benchModel();
const variants = {};
const database = await openDatabase({ sqlite: '/tmp/sb/claims.sqlite' });
for (const name of (process.env.VARIANTS ?? 'full').split(',')) {
  process.env.X_VARIANT = name;
  const app = buildApp({ model, database });
  await app.ready();
  variants[name] = app;
}
const raw = rawApp('/tmp/sb/claims.sqlite', uid); await raw.ready();
const login = await variants[Object.keys(variants)[0]].inject({ method: 'POST', url: '/api/session', headers: { 'content-type': 'application/json', 'x-ninefold-csrf': '1' }, payload: { email: 'clerk0@bench.local', password: 'bench password 1' } });
const cookie = String(login.headers['set-cookie']).split(';')[0];
const N = 4000;
async function run(app, path) {
  const c0 = process.cpuUsage();
  for (let i = 0; i < N; i++) { const r = await app.inject({ method: 'GET', url: path + ids[i % 200], headers: { cookie } }); if (r.statusCode !== 200) throw new Error(r.body); }
  const c = process.cpuUsage(c0); return (c.user + c.system) / N;
}
const results = {};
for (let round = 0; round < 5; round++) {
  for (const [name, app] of Object.entries(variants)) (results[name] ??= []).push(await run(app, '/api/claims/'));
  (results.raw ??= []).push(await run(raw, '/raw/claims/'));
}
const med = (a) => a.sort((x, y) => x - y)[a.length >> 1];
for (const [k, v] of Object.entries(results)) console.log(k.padEnd(12), med(v).toFixed(1), 'µs/req', v.map((x) => x.toFixed(0)).join(' '));
process.exit(0);
