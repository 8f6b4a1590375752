/**
 * A timed transition in real time: `ninefold start` with a spec whose transition fires `after: 3s`
 * moves a new record to its next state about three seconds later, on the wall clock, by the
 * runner of the server process — no test clock, no hand-driven runner.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@ninefold/model';
import { addUser } from '@ninefold/server';
import { startServer } from '../src/start-server.js';

const dir = mkdtempSync(join(tmpdir(), 'ninefold-cli-timers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SPEC = `
entities:
  Ticket: { fields: { title: string } }
roles:
  clerk: { Ticket: { read: true, create: true, update: true } }
states:
  Ticket:
    initial: fresh
    transitions:
      settle: { from: fresh, to: settled, after: 3s }
`;

describe('ninefold start: timed transitions', () => {
  it('fires `after: 3s` about three seconds after the record entered its state', async () => {
    const specPath = join(dir, 'tickets.yaml');
    writeFileSync(specPath, SPEC);
    const server = await startServer({
      specPath,
      dataDir: join(dir, 'data'),
      port: 0,
      handleSignals: false,
      logger: false,
      print: () => undefined,
      databaseUrl: '',
    });
    try {
      await addUser(server.database, server.app.ninefold.model, {
        email: 'clerk@example.com',
        name: 'Clerk',
        roles: ['clerk'],
        password: 'correct horse battery',
      });
      const headers = { [CSRF_HEADER]: CSRF_HEADER_VALUE };
      const signedIn = await server.app.inject({
        method: 'POST',
        url: '/api/session',
        headers,
        payload: { email: 'clerk@example.com', password: 'correct horse battery' },
      });
      const cookie = signedIn.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      const created = await server.app.inject({
        method: 'POST',
        url: '/api/tickets',
        headers: { ...headers, cookie },
        payload: { title: 'Printer' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json<{ id: string }>().id;
      const start = Date.now();
      const stateOf = async () =>
        (await server.app.inject({ method: 'GET', url: `/api/tickets/${id}`, headers: { cookie } })).json<{
          state: string;
        }>().state;
      expect(await stateOf()).toBe('fresh');
      await expect.poll(stateOf, { timeout: 8000, interval: 100 }).toBe('settled');
      const elapsed = Date.now() - start;
      expect(elapsed).toBeGreaterThanOrEqual(2900);
      expect(elapsed).toBeLessThan(6500);
    } finally {
      await server.close();
    }
  }, 15_000);
});
