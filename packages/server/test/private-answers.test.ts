/**
 * What the API tells nobody it should not (decision 0027): its answers are kept by no cache, a
 * field's reader who may not read it does not learn when it changed, and `/docs` runs no script
 * but its own and is framed by no one.
 */
import { createHash } from 'node:crypto';
import {
  checkedInject,
  CSRF,
  DIALECTS,
  givenUser,
  login,
  problem,
  specModel,
  testServer,
  type TestServer,
} from '@ninefold/testkit';
import { describe, expect, it } from 'vitest';

const SPEC = `
product: { name: Claims }
entities:
  Claim:
    fields:
      title: { type: string, required: true }
      note: { type: string }
roles:
  clerk: { Claim: { read: true, create: true, update: true } }
  reader: { Claim: { read: true, fields: { read: [title] } } }
`;

type Json = Record<string, unknown>;

/** A signed-in client's requests. */
async function client(server: TestServer, email: string, role: string) {
  await givenUser(server, email, [role]);
  const { cookie } = await login(server.app, email);
  const send = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Json, version?: number) =>
    checkedInject(server.app, server.model, {
      method,
      url,
      headers: {
        ...CSRF,
        cookie: cookie!,
        ...(version === undefined ? {} : { 'if-match': `"${version}"` }),
      },
      ...(payload === undefined ? {} : { payload }),
    });
  return { send };
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: private answers`, () => {
    it('marks every API answer private, no-store; the probes keep theirs', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      const clerk = await client(server, 'cleo@example.com', 'clerk');
      const created = await clerk.send('POST', '/api/claims', { title: 'Taxi' });
      expect(created.statusCode).toBe(201);
      const id = String(created.json<Json>()['id']);
      const answers = {
        created,
        list: await clerk.send('GET', '/api/claims'),
        record: await clerk.send('GET', `/api/claims/${id}`),
        history: await clerk.send('GET', `/api/claims/${id}/history`),
        session: await clerk.send('GET', '/api/session'),
        model: await clerk.send('GET', '/api/model'),
        missing: await clerk.send('GET', '/api/claims/01a2083f-4eae-7b1c-9f18-aa1aee947676'),
        signedOut: await server.app.inject({ method: 'GET', url: '/api/claims' }),
      };
      expect(answers.missing.statusCode).toBe(404);
      expect(answers.signedOut.statusCode).toBe(401);
      for (const [name, answer] of Object.entries(answers)) {
        expect(answer.headers['cache-control'], name).toBe('private, no-store');
      }
      const health = await server.app.inject({ method: 'GET', url: '/health' });
      expect(health.headers['cache-control']).not.toBe('private, no-store');
    });

    it('does not tell a reader when a field hidden from them changed', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      const clerk = await client(server, 'cleo@example.com', 'clerk');
      const reader = await client(server, 'rex@example.com', 'reader');
      const created = await clerk.send('POST', '/api/claims', { title: 'Taxi', note: 'check the receipt' });
      const url = `/api/claims/${String(created.json<Json>()['id'])}`;
      const changes = [{ note: 'receipt checked' }, { title: 'Taxi home' }, { title: 'Cab', note: 'ok' }];
      for (const [version, change] of changes.entries()) {
        const changed = await clerk.send('PATCH', url, change, version + 1);
        expect(changed.statusCode, JSON.stringify(change)).toBe(200);
      }
      const trail = async (who: typeof clerk) => {
        const answer = await who.send('GET', `${url}/history`);
        expect(answer.statusCode).toBe(200);
        return (answer.json<Json>()['data'] as Json[]).map((entry) => [entry['action'], entry['changes']]);
      };
      expect(await trail(clerk)).toEqual([
        ['create', { title: { from: null, to: 'Taxi' }, note: { from: null, to: 'check the receipt' } }],
        ['update', { note: { from: 'check the receipt', to: 'receipt checked' } }],
        ['update', { title: { from: 'Taxi', to: 'Taxi home' } }],
        ['update', { title: { from: 'Taxi home', to: 'Cab' }, note: { from: 'receipt checked', to: 'ok' } }],
      ]);
      // the note's own change is not there at all; the others without the note
      expect(await trail(reader)).toEqual([
        ['create', { title: { from: null, to: 'Taxi' } }],
        ['update', { title: { from: 'Taxi', to: 'Taxi home' } }],
        ['update', { title: { from: 'Taxi home', to: 'Cab' } }],
      ]);
    });
  });
}

describe('/docs', () => {
  it('runs only its own script, under a policy without unsafe-inline, and is never framed', async () => {
    const server = await testServer('sqlite', specModel(SPEC));
    const docs = await server.app.inject({ method: 'GET', url: '/docs' });
    expect(docs.statusCode).toBe(200);
    const policy = String(docs.headers['content-security-policy']);
    const directives = new Map(
      policy.split(';').map((d) => {
        const [name = '', ...values] = d.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy).not.toContain('unsafe-inline');
    expect(docs.headers['x-frame-options']).toBe('DENY');
    // the page's one script and one style are exactly those the policy names
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const scripts = [...docs.body.matchAll(/<script>(.*?)<\/script>/gs)].map((m) => hash(m[1] ?? ''));
    const styles = [...docs.body.matchAll(/<style>(.*?)<\/style>/gs)].map((m) => hash(m[1] ?? ''));
    expect(scripts).toHaveLength(1);
    expect(directives.get('script-src')).toEqual(scripts);
    expect(directives.get('style-src')).toEqual(styles);
    expect(problem(await server.app.inject({ method: 'GET', url: '/docs/x' })).status).toBe(404);
  });
});
