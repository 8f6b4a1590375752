/**
 * A PostgreSQL server that cannot be reached (decision 0023): nothing listens at the address, so
 * every connection is refused, on any machine. Every request that needs the database — a read, a
 * sign-in, `/ready` — is a 503 E_UNAVAILABLE problem with Retry-After, not a 500, and `/ready`
 * names the database. (The real server cutting connections under load is the fault suite's,
 * `faults/pg-connection.faults.ts`; SQLite has no connection to lose.)
 */
import { SESSION_COOKIE } from '@ninefold/model';
import { afterAll, describe, expect, it } from 'vitest';
import { CSRF, checkedInject, problem, specModel } from '@ninefold/testkit';
import { type LightMyRequestResponse } from 'fastify';
import { buildApp, openApiDocument, openDatabase } from '@ninefold/server';

const SPEC = `
product: { name: Notes }
entities:
  Note:
    fields:
      title: { type: string, required: true }
roles:
  writer: { Note: { read: true, create: true } }
`;

/** Port 9 (discard) on the loopback: nothing listens there, so a connection is refused at once. */
const NOWHERE = 'postgres://postgres@127.0.0.1:9/notes_db';

describe('postgres: a database that cannot be reached', async () => {
  const model = specModel(SPEC);
  const database = await openDatabase(NOWHERE);
  const app = buildApp({ model, database });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const expectUnavailable = (response: LightMyRequestResponse) => {
    expect(response.statusCode, response.body).toBe(503);
    expect(problem(response)).toMatchObject({ status: 503, code: 'E_UNAVAILABLE' });
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  };

  it('answers /ready with 503, naming the database', async () => {
    const ready = await checkedInject(app, model, { method: 'GET', url: '/ready' });
    expectUnavailable(ready);
    expect(problem(ready).detail).toBe('The PostgreSQL database "notes_db" cannot be reached.');
  });

  // the contract check refuses every 5xx but /ready's, so these go through `inject`; the document
  // declares the 503 all the same
  it('answers a sign-in and a read with 503 E_UNAVAILABLE, not a failure of the server', async () => {
    const paths = openApiDocument(model).paths;
    expect(paths['/api/session']?.['post']).toHaveProperty(['responses', '503']);
    expect(paths['/api/notes']?.['get']).toHaveProperty(['responses', '503']);
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/session',
      headers: CSRF,
      payload: { email: 'ann@example.com', password: 'correct horse battery' },
    });
    expectUnavailable(signIn);
    const read = await app.inject({
      method: 'GET',
      url: '/api/notes',
      headers: { cookie: `${SESSION_COOKIE}=${'A'.repeat(22)}` }, // the shape of a session id
    });
    expectUnavailable(read);
  });

  it('keeps /health answering: the process is alive', async () => {
    const health = await checkedInject(app, model, { method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
  });
});
