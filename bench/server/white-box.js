// White-box checks of the server's speed tricks, moved out of the test suite (decision 0021): they
// pin how the server does its work, not what it answers, so they live beside the benchmark that
// prices them. `npx tsc -b && node bench/server/white-box.js` exits 1 when one fails.
//
// - A signed-in request of a cached session runs no session lookup (the session cache), on SQLite.
// - A get by id runs one statement: its record by id.
// - A repeated list page reuses its compiled SQL text (one text per shape).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, openDatabase, TABLES } from '@ninefold/server';
import { PASSWORD, seed } from './seed.js';
import { benchModel } from './spec.js';

const dir = mkdtempSync(join(tmpdir(), 'nf-white-box-'));
try {
  const model = benchModel();
  const seeded = await seed(model, dir);
  const database = await openDatabase({ sqlite: seeded.file });
  const app = buildApp({ model, database });
  const statements = [];
  const selectValues = database.selectValues;
  database.selectValues = (text, parameters) => {
    statements.push(text.includes(TABLES.sessions) ? 'session' : 'other');
    return selectValues(text, parameters);
  };
  const email = seeded.clerk.email;
  const login = await app.inject({
    method: 'POST',
    url: '/api/session',
    headers: { 'x-ninefold-csrf': '1' },
    payload: { email, password: PASSWORD },
  });
  assert.equal(login.statusCode, 200, login.body);
  const cookie = login.headers['set-cookie'].split(';')[0];
  const run = async (url) => {
    statements.length = 0;
    const response = await app.inject({ method: 'GET', url, headers: { cookie } });
    assert.equal(response.statusCode, 200, response.body);
    return [...statements];
  };

  assert.deepEqual(await run('/api/session'), ['session'], 'the first request looks its session up');
  assert.deepEqual(await run('/api/session'), [], 'a cached session costs no statement');
  const id = seeded.clerkIds[0];
  assert.deepEqual(await run(`/api/claims/${id}`), ['other'], 'a get by id is one statement');
  const list = '/api/claims?limit=50&sort=-createdAt';
  await run(list);
  statements.length = 0;
  const compiled = [];
  database.selectValues = (text, parameters) => {
    compiled.push(text);
    return selectValues(text, parameters);
  };
  await run(list);
  await run(list);
  assert.equal(new Set(compiled).size, 1, 'a list page of one shape runs one SQL text');
  await app.close();
  await database.close();
  console.log('white-box checks: PASS');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
