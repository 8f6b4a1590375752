/**
 * The expense-claims example over HTTP, on every database: permissions, transitions, rules,
 * constraints, concurrency, lists and history. Every response is checked against /openapi.json.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkedInject, DIALECTS, problem } from '@ninefold/testkit';
import { PDF, multipart } from './files-world.js';
import { type Client, type Json, type World, body, exampleWorld } from './world.js';

const USERS = {
  ann: ['employee'],
  bob: ['employee'],
  mia: ['manager'],
  dora: ['director'],
  fin: ['finance'],
  aud: ['auditor'],
  adm: ['admin', 'employee'],
} as const;

for (const dialect of DIALECTS) {
  describe(`${dialect}: expense claims`, () => {
    let world: World;
    let ann: Client, bob: Client, mia: Client, dora: Client, fin: Client, aud: Client, adm: Client;
    let sales: string, ops: string;

    /** A claim by a user, created through the API; returns its body. */
    async function claim(by: Client, fields: Json = {}): Promise<Json> {
      const response = await by.post('/api/claims', {
        title: 'Train to Lyon',
        category: 'travel',
        amount: '20.00',
        ...fields,
      });
      expect(response.statusCode, response.body).toBe(201);
      return body(response);
    }

    /** Fires a transition on a claim and expects success; returns the new body. */
    async function fire(by: Client, record: Json, name: string, payload: Json = {}): Promise<Json> {
      const response = await by.fire(
        `/api/claims/${String(record['id'])}`,
        name,
        Number(record['version']),
        payload,
      );
      expect(response.statusCode, response.body).toBe(200);
      return body(response);
    }

    beforeAll(async () => {
      world = await exampleWorld(dialect, 'expense-claims.md', USERS);
      ({ ann, bob, mia, dora, fin, aud, adm } = world.as as Record<keyof typeof USERS, Client>);
      const department = async (name: string, code: string, costCentre: number) => {
        const response = await adm.post('/api/departments', { name, code, costCentre });
        expect(response.statusCode, response.body).toBe(201);
        return String(body(response)['id']);
      };
      sales = await department('Sales', 'SAL', 1001);
      ops = await department('Operations', 'OPS', 1002);
      // people join departments through the API, as an administrator does it
      for (const [who, dept] of [
        [ann, sales],
        [mia, sales],
        [bob, ops],
      ] as const) {
        const user = body(await adm.get(`/api/users/${who.id}`));
        const response = await adm.patch(
          `/api/users/${who.id}`,
          { department: dept },
          Number(user['version']),
        );
        expect(response.statusCode, response.body).toBe(200);
      }
    }, 60_000);

    describe('create and read', () => {
      it('creates a claim with defaults, the initial state, an ETag and the transitions its owner may fire', async () => {
        const response = await ann.post('/api/claims', { title: 'Taxi to the airport', amount: '18.5' });
        expect(response.statusCode).toBe(201);
        expect(response.headers.etag).toBe('"1"');
        const created = body(response);
        expect(created).toMatchObject({
          title: 'Taxi to the airport',
          amount: '18.50',
          category: 'other',
          spentOn: '2026-03-01',
          urgent: false,
          state: 'draft',
          version: 1,
          submittedBy: ann.id,
          createdBy: ann.id,
          department: sales,
          _actions: ['submit', 'withdraw'],
        });
        expect(String(created['id'])).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
        const read = await ann.get(`/api/claims/${String(created['id'])}`);
        expect(read.headers.etag).toBe('"1"');
        expect(body(read)).toEqual(created);
      });

      it('rejects unknown, system, read-only and not-writable fields instead of dropping them, and writes nothing', async () => {
        const before = await world.count('claims');
        const history = await world.historyCount();
        const response = await ann.post('/api/claims', {
          title: 'Hotel in Paris',
          amount: '20.00',
          colour: 'red',
          state: 'paid',
          version: 7,
          paidOn: '2026-01-01',
          submittedBy: bob.id,
        });
        const p = problem(response);
        expect(p).toMatchObject({ status: 422, code: 'E_VALIDATION' });
        expect(p.errors?.map((e) => [e.field, e.code]).sort()).toEqual(
          [
            ['colour', 'E_UNKNOWN_FIELD'],
            ['paidOn', 'E_READONLY_FIELD'],
            ['state', 'E_READONLY_FIELD'],
            ['submittedBy', 'E_READONLY_FIELD'],
            ['version', 'E_READONLY_FIELD'],
          ].sort(),
        );
        expect(p.errors?.find((e) => e.field === 'colour')?.message).toBe('colour is not a field of Claim.');
        expect(await world.count('claims')).toBe(before);
        expect(await world.historyCount()).toBe(history);
      });

      it('keeps JSON types strict: "12" is not an integer, 12 is not text', async () => {
        const p = problem(await ann.post('/api/claims', { title: 12, amount: '10.00', mileageKm: '12' }));
        expect(p.code).toBe('E_VALIDATION');
        expect(p.errors?.map((e) => [e.field, e.code])).toEqual(
          expect.arrayContaining([
            ['title', 'E_TYPE'],
            ['mileageKm', 'E_TYPE'],
          ]),
        );
      });

      it.each([
        ['title', 'ab', 'E_TOO_SHORT', 'Title must be at least 3 characters long.'],
        ['title', 'x'.repeat(121), 'E_TOO_LONG', 'Title must be at most 120 characters long.'],
        ['amount', '0.00', 'E_TOO_SMALL', null],
        ['amount', '5000.01', 'E_TOO_LARGE', null],
        ['amount', '1.234', 'E_PRECISION', null],
        ['originalCurrency', 'eur', 'E_PATTERN', null],
        ['category', 'yacht', 'E_NOT_ONE_OF', null],
        ['spentOn', '2026-02-30', 'E_FORMAT', null],
        ['receipt', 'not-an-upload', 'E_FILE_NOT_FOUND', null],
        [
          'tags',
          ['client', 'internal', 'remote', 'conference'],
          'E_TOO_MANY',
          'Tags must have at most 3 items.',
        ],
        ['title', null, 'E_REQUIRED', 'Title is required.'],
      ])('refuses %s = %j with %s', async (field, value, code, message) => {
        const before = await world.count('claims');
        const p = problem(
          await ann.post('/api/claims', { title: 'Lunch with ACME', amount: '10.00', [field]: value }),
        );
        expect(p).toMatchObject({ status: 422, code: 'E_VALIDATION' });
        const error = p.errors?.find((e) => e.field === field);
        expect(error?.code).toBe(code);
        if (message !== null) expect(error?.message).toBe(message);
        expect(await world.count('claims')).toBe(before);
      });

      it('answers a rule with its own catalogue code and rendered message', async () => {
        const p = problem(await ann.post('/api/claims', { title: 'Conference fee', amount: '300.00' }));
        expect(p).toMatchObject({
          status: 422,
          code: 'E_RECEIPT_REQUIRED',
          message: 'A receipt is required for claims above €25.00.',
        });
        const future = problem(
          await ann.post('/api/claims', { title: 'Future taxi', amount: '10.00', spentOn: '2026-03-02' }),
        );
        expect(future.code).toBe('E_SPENT_IN_FUTURE');
        expect(future.errors?.[0]).toMatchObject({ field: 'spentOn', code: 'E_SPENT_IN_FUTURE' });
      });

      it('refuses a unique value already taken with E_UNIQUE', async () => {
        const before = await world.count('departments');
        const p = problem(
          await adm.post('/api/departments', { name: 'Sales', code: 'SAX', costCentre: 1003 }),
        );
        expect(p).toMatchObject({
          status: 409,
          code: 'E_UNIQUE',
          message: 'Another record already has this Name.',
        });
        expect(await world.count('departments')).toBe(before);
      });

      it('refuses refs to records that do not exist', async () => {
        const p = problem(
          await ann.post('/api/claims', { title: 'Taxi', amount: '10.00', department: 'nope' }),
        );
        expect(p.errors).toEqual([
          {
            field: 'department',
            code: 'E_REF_NOT_FOUND',
            message: 'Department refers to a record that does not exist or that you may not see.',
          },
        ]);
      });

      it('refuses creation to a role without the create permission', async () => {
        expect(problem(await aud.post('/api/claims', { title: 'Taxi', amount: '10.00' }))).toMatchObject({
          status: 403,
          code: 'E_FORBIDDEN',
          message: 'You are not allowed to do this. If you think you should be, ask finance@example.com.',
        });
      });
    });

    describe('permissions', () => {
      it('own: an employee reads their claims and gets 404 for anyone else’s', async () => {
        const mine = await claim(ann);
        const id = String(mine['id']);
        expect((await ann.get(`/api/claims/${id}`)).statusCode).toBe(200);
        expect(problem(await bob.get(`/api/claims/${id}`))).toMatchObject({
          status: 404,
          code: 'E_NOT_FOUND',
          message: 'This Claim does not exist or you may not see it.',
        });
        expect(problem(await bob.get(`/api/claims/${id}/history`)).status).toBe(404);
        const patched = await bob.patch(`/api/claims/${id}`, { title: 'Mine now' }, 1);
        expect(problem(patched).status).toBe(404);
        expect(problem(await bob.fire(`/api/claims/${id}`, 'submit', 1)).status).toBe(404);
        expect(problem(await bob.request('DELETE', `/api/claims/${id}`)).status).toBe(404);
        const list = body(await bob.get('/api/claims?limit=200&total=true'));
        expect((list['data'] as Json[]).map((c) => c['id'])).not.toContain(id);
        expect((list['data'] as Json[]).every((c) => c['submittedBy'] === bob.id)).toBe(true);
        expect(list['total']).toBe((list['data'] as Json[]).length);
        // the page's SQL, compiled for bob, serves ann with her own id and limit
        const annList = body(await ann.get('/api/claims?limit=200'));
        expect((annList['data'] as Json[]).map((c) => c['id'])).toContain(id);
        expect((annList['data'] as Json[]).every((c) => c['submittedBy'] === ann.id)).toBe(true);
        await claim(ann);
        expect((body(await ann.get('/api/claims?limit=1'))['data'] as Json[]).length).toBe(1);
      });

      it('expression: a manager reads the claims of their department only', async () => {
        const annClaim = await claim(ann);
        const bobClaim = await claim(bob);
        expect((await mia.get(`/api/claims/${String(annClaim['id'])}`)).statusCode).toBe(200);
        expect((await mia.get(`/api/claims/${String(bobClaim['id'])}`)).statusCode).toBe(404);
        const list = body(await mia.get(`/api/claims?limit=200&total=true`));
        const departments = new Set((list['data'] as Json[]).map((c) => c['department']));
        expect([...departments].every((d) => d === sales)).toBe(true);
        const all = body(await dora.get('/api/claims?limit=200&total=true'));
        expect(Number(all['total'])).toBe(await world.count('claims'));
        expect(Number(list['total'])).toBeLessThan(Number(all['total']));
      });

      it('field masks on read: the auditor sees claims without their free text, and may not filter or sort on it', async () => {
        const c = await claim(ann, { merchant: 'SNCF', description: 'Return ticket' });
        const seen = body(await aud.get(`/api/claims/${String(c['id'])}`));
        expect(seen['title']).toBe('Train to Lyon');
        expect(seen).not.toHaveProperty('merchant');
        expect(seen).not.toHaveProperty('description');
        expect(seen['_actions']).toEqual([]);
        // a record's own JSON (its serializer) is, byte for byte, the JSON of its entry in a list
        for (const reader of [aud, ann]) {
          const text = (await reader.get(`/api/claims/${String(c['id'])}`)).body;
          const listed = (body(await reader.get('/api/claims?limit=200'))['data'] as Json[]).find(
            (r) => r['id'] === c['id'],
          );
          expect(text).toBe(JSON.stringify(listed));
        }
        expect(problem(await aud.get('/api/claims?merchant=SNCF'))).toMatchObject({
          status: 400,
          code: 'E_INVALID_QUERY',
        });
        expect(problem(await aud.get('/api/claims?merchant[contains]=SN')).code).toBe('E_INVALID_QUERY');
        expect(problem(await aud.get('/api/claims?sort=merchant')).code).toBe('E_INVALID_QUERY');
        // text search leaves out the fields the reader may not see
        const searched = body(await aud.get('/api/claims?q=Return%20ticket'));
        expect(searched['data']).toEqual([]);
        const history = body(await aud.get(`/api/claims/${String(c['id'])}/history`));
        const changes = (history['data'] as Json[])[0]?.['changes'] as Json;
        expect(changes).toHaveProperty('title');
        expect(changes).not.toHaveProperty('merchant');
      });

      it('field masks on write: a role writes only its fields; the state is never written', async () => {
        const c = await claim(ann);
        const p = problem(
          await ann.patch(`/api/claims/${String(c['id'])}`, { state: 'paid', approvedBy: mia.id }, 1),
        );
        expect(p.errors?.map((e) => [e.field, e.code])).toEqual([
          ['state', 'E_READONLY_FIELD'],
          ['approvedBy', 'E_READONLY_FIELD'],
        ]);
        // an admin may write a user's department but not their password, which is no field at all
        const user = body(await adm.get(`/api/users/${bob.id}`));
        const refused = problem(
          await adm.patch(`/api/users/${bob.id}`, { password_hash: 'x' }, Number(user['version'])),
        );
        expect(refused.errors?.[0]).toMatchObject({ field: 'password_hash', code: 'E_UNKNOWN_FIELD' });
        // other users are readable by name only
        const other = body(await ann.get(`/api/users/${bob.id}`));
        expect(other['name']).toBe('bob');
        expect(other).not.toHaveProperty('email');
      });

      it('update is checked against the record before and after; delete against the record', async () => {
        const c = await claim(ann);
        const id = `/api/claims/${String(c['id'])}`;
        // a manager may read it but not update or delete it
        expect(problem(await mia.patch(id, { title: 'Changed by the manager' }, 1))).toMatchObject({
          status: 403,
          code: 'E_FORBIDDEN',
        });
        expect(problem(await mia.request('DELETE', id)).code).toBe('E_FORBIDDEN');
        const submitted = await fire(ann, c, 'submit');
        expect(problem(await ann.patch(id, { title: 'Too late' }, Number(submitted['version']))).code).toBe(
          'E_FORBIDDEN',
        );
        expect(problem(await ann.request('DELETE', id)).code).toBe('E_FORBIDDEN');
        const after = body(await ann.get(id));
        expect(after['title']).toBe('Train to Lyon');
      });

      it('refuses refs to records the user may not read', async () => {
        // the auditor sees every claim, the employee only theirs: an employee's claim cannot name a hidden department? all
        // departments are readable, so use a user reference whose target is readable (attendees) and an unknown one
        const ok = await ann.post('/api/claims', {
          title: 'Lunch',
          category: 'meals',
          amount: '20.00',
          attendees: [mia.id],
        });
        expect(ok.statusCode, ok.body).toBe(201);
        const p = problem(
          await ann.post('/api/claims', {
            title: 'Lunch',
            category: 'meals',
            amount: '20.00',
            attendees: [mia.id, 'ghost'],
          }),
        );
        expect(p.errors?.[0]).toMatchObject({ field: 'attendees', code: 'E_REF_NOT_FOUND' });
      });
    });

    describe('updates and conflicts', () => {
      it('needs If-Match, refuses a stale version and overwrites nothing', async () => {
        const c = await claim(ann);
        const url = `/api/claims/${String(c['id'])}`;
        expect(problem(await ann.request('PATCH', url, { title: 'No version' }))).toMatchObject({
          status: 428,
          code: 'E_PRECONDITION_REQUIRED',
        });
        const first = await ann.patch(url, { title: 'First edit' }, 1);
        expect(first.statusCode).toBe(200);
        expect(first.headers.etag).toBe('"2"');
        const history = await world.historyCount();
        expect(problem(await ann.patch(url, { title: 'Second, stale' }, 1))).toMatchObject({
          status: 409,
          code: 'E_CONFLICT',
        });
        expect(body(await ann.get(url))).toMatchObject({ title: 'First edit', version: 2 });
        expect(await world.historyCount()).toBe(history);
        expect(
          problem(await ann.request('PATCH', url, { title: 'x y z' }, { 'if-match': 'banana' })).code,
        ).toBe('E_BAD_REQUEST');
      });

      it('applies update rules with the old record (the expense date is fixed once submitted)', async () => {
        const c = await claim(ann, { spentOn: '2026-02-01' });
        const url = `/api/claims/${String(c['id'])}`;
        const edited = body(await ann.patch(url, { spentOn: '2026-02-02' }, 1));
        expect(edited['spentOn']).toBe('2026-02-02');
      });

      it('of two concurrent updates exactly one wins', async () => {
        const c = await claim(ann);
        const url = `/api/claims/${String(c['id'])}`;
        const results = await Promise.all([
          ann.patch(url, { title: 'Edit one' }, 1),
          ann.patch(url, { title: 'Edit two' }, 1),
        ]);
        expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
        const winner = results.find((r) => r.statusCode === 200);
        expect(body(await ann.get(url))['title']).toBe(winner === undefined ? null : body(winner)['title']);
      });

      it('deletes with an optional If-Match, records it, and then the claim is gone', async () => {
        const c = await claim(ann);
        const url = `/api/claims/${String(c['id'])}`;
        expect(problem(await ann.request('DELETE', url, undefined, { 'if-match': '"9"' })).code).toBe(
          'E_CONFLICT',
        );
        const deleted = await ann.request('DELETE', url, undefined, { 'if-match': '"1"' });
        expect(deleted.statusCode).toBe(204);
        expect(problem(await ann.get(url)).code).toBe('E_NOT_FOUND');
      });

      it('keeps a deleted claim’s history readable by those who could read the claim', async () => {
        const c = await claim(ann, { merchant: 'SNCF', description: 'Lost ticket' });
        const url = `/api/claims/${String(c['id'])}`;
        expect((await ann.patch(url, { title: 'Train to Lille' }, 1)).statusCode).toBe(200);
        expect((await ann.request('DELETE', url, undefined, { 'if-match': '"2"' })).statusCode).toBe(204);

        const trail = body(await ann.get(`${url}/history`))['data'] as Json[];
        expect(trail.map((h) => h['action'])).toEqual(['create', 'update', 'delete']);
        expect(trail[2]?.['changes']).toMatchObject({
          title: { from: 'Train to Lille', to: null },
          merchant: { from: 'SNCF', to: null },
        });
        // the auditor reads every claim, without its free text: so its deleted history too
        const audited = body(await aud.get(`${url}/history`))['data'] as Json[];
        expect(audited).toHaveLength(3);
        expect(audited[2]?.['changes']).toHaveProperty('title');
        expect(audited[2]?.['changes']).not.toHaveProperty('merchant');
        // another employee could not read it, nor can now; a claim that never was is not found either
        expect(problem(await bob.get(`${url}/history`))).toMatchObject({ status: 404, code: 'E_NOT_FOUND' });
        const never = '01a20b88-0000-7000-8000-000000000000';
        expect(problem(await ann.get(`/api/claims/${never}/history`)).status).toBe(404);
      });

      it('decides on a deleted claim as it was when it was deleted', async () => {
        // finance reads approved and paid claims only: a draft deleted as a draft stays hidden
        const c = await claim(ann);
        const url = `/api/claims/${String(c['id'])}`;
        expect((await ann.request('DELETE', url, undefined, { 'if-match': '"1"' })).statusCode).toBe(204);
        expect(problem(await fin.get(`${url}/history`)).status).toBe(404);
        expect((await adm.get(`${url}/history`)).statusCode).toBe(200);

        // an approved claim the admin deleted: finance read it then, so it reads its history now
        let approved = await claim(ann, { amount: '20.00' });
        approved = await fire(ann, approved, 'submit');
        approved = await fire(mia, approved, 'approve');
        const gone = `/api/claims/${String(approved['id'])}`;
        expect((await adm.request('DELETE', gone)).statusCode).toBe(204);
        const trail = body(await fin.get(`${gone}/history`))['data'] as Json[];
        expect(trail.map((h) => [h['action'], h['to']])).toEqual([
          ['create', 'draft'],
          ['transition', 'submitted'],
          ['transition', 'approved'],
          ['delete', null],
        ]);
      });
    });

    describe('transitions', () => {
      it('walks submit → approve → pay with the set effects and the history', async () => {
        let c = await claim(ann, { amount: '20.00' });
        c = await fire(ann, c, 'submit');
        expect(c).toMatchObject({ state: 'submitted', submittedAt: '2026-03-01T09:00:00.000Z', version: 2 });
        expect(c['_actions']).toEqual(['withdraw']);
        const forMia = body(await mia.get(`/api/claims/${String(c['id'])}`));
        expect(forMia['_actions']).toEqual(['approve', 'reject']);
        c = await fire(mia, c, 'approve');
        expect(c).toMatchObject({ state: 'approved', approvedBy: mia.id });
        const missing = problem(
          await fin.fire(`/api/claims/${String(c['id'])}`, 'pay', Number(c['version'])),
        );
        expect(missing).toMatchObject({ code: 'E_VALIDATION' });
        expect(missing.errors?.[0]).toMatchObject({ field: 'paymentReference', code: 'E_REQUIRED' });
        c = await fire(fin, c, 'pay', { paymentReference: 'PAY-20260301' });
        expect(c).toMatchObject({ state: 'paid', paidOn: '2026-03-01', paymentReference: 'PAY-20260301' });
        const history = body(await ann.get(`/api/claims/${String(c['id'])}/history`));
        expect(
          (history['data'] as Json[]).map((h) => [h['action'], h['transition'], h['from'], h['to'], h['by']]),
        ).toEqual([
          ['create', null, null, 'draft', ann.id],
          ['transition', 'submit', 'draft', 'submitted', ann.id],
          ['transition', 'approve', 'submitted', 'approved', mia.id],
          ['transition', 'pay', 'approved', 'paid', fin.id],
        ]);
        expect((history['data'] as Json[])[3]?.['changes']).toMatchObject({
          paidOn: { from: null, to: '2026-03-01' },
          paymentReference: { from: null, to: 'PAY-20260301' },
        });
      });

      it('refuses a transition from the wrong state, by the wrong role, when the guard fails, or without If-Match', async () => {
        const c = await claim(mia);
        const url = `/api/claims/${String(c['id'])}`;
        expect(problem(await mia.fire(url, 'approve', 1))).toMatchObject({
          status: 409,
          code: 'E_TRANSITION_NOT_ALLOWED',
          message: 'You cannot Approve this claim while it is Draft.',
        });
        expect(problem(await mia.request('POST', `${url}/transitions/submit`, {}))).toMatchObject({
          status: 428,
          code: 'E_PRECONDITION_REQUIRED',
        });
        const submitted = await fire(mia, c, 'submit');
        // the guard: nobody approves their own claim
        expect(problem(await mia.fire(url, 'approve', Number(submitted['version'])))).toMatchObject({
          status: 409,
          code: 'E_OWN_CLAIM',
          message: 'You cannot approve or reject your own claim: another manager decides it.',
        });
        // the role: the auditor reads it but may not fire it
        expect(problem(await aud.fire(url, 'approve', Number(submitted['version'])))).toMatchObject({
          status: 403,
          code: 'E_FORBIDDEN',
        });
        // the state cannot be reached by a transition that does not exist
        expect(problem(await mia.fire(url, 'teleport', Number(submitted['version']))).code).toBe(
          'E_ROUTE_NOT_FOUND',
        );
        expect(body(await mia.get(url))['state']).toBe('submitted');
      });

      it('requires the fields a transition requires, and the rules of the transition apply', async () => {
        const upload = multipart([
          { name: 'file', filename: 'receipt.pdf', bytes: PDF, type: 'application/pdf' },
        ]);
        const receipt = body(await ann.request('POST', '/api/files', upload.payload, upload.headers));
        const big = await claim(ann, { amount: '1500.00', receipt: receipt['id'] });
        const submitted = await fire(ann, big, 'submit');
        const url = `/api/claims/${String(big['id'])}`;
        const missing = problem(await mia.fire(url, 'reject', Number(submitted['version'])));
        expect(missing.errors?.[0]).toMatchObject({ field: 'rejectionReason', code: 'E_REQUIRED' });
        const limit = problem(await mia.fire(url, 'approve', Number(submitted['version'])));
        expect(limit).toMatchObject({
          status: 403,
          code: 'E_OVER_APPROVAL_LIMIT',
          message: "Claims above €1,000.00 need a director's approval; this one is €1,500.00.",
        });
        const approved = await fire(dora, submitted, 'approve');
        expect(approved['approvedBy']).toBe(dora.id);
      });

      it('of concurrent transitions on one claim exactly one wins', async () => {
        const c = await fire(ann, await claim(ann), 'submit');
        const url = `/api/claims/${String(c['id'])}`;
        const version = Number(c['version']);
        const results = await Promise.all([
          mia.fire(url, 'approve', version),
          mia.fire(url, 'reject', version, { rejectionReason: 'No' }),
          ann.fire(url, 'withdraw', version),
        ]);
        expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
        const history = body(await ann.get(`${url}/history`));
        expect((history['data'] as Json[]).filter((h) => h['action'] === 'transition')).toHaveLength(2);
      });

      it('revise clears the rejection reason', async () => {
        let c = await fire(ann, await claim(ann), 'submit');
        c = await fire(mia, c, 'reject', { rejectionReason: 'Wrong project code' });
        expect(c['rejectionReason']).toBe('Wrong project code');
        c = await fire(ann, c, 'revise');
        expect(c).toMatchObject({ state: 'draft', rejectionReason: null });
      });
    });

    describe('the state machine, as a property', () => {
      // the spec's section 4 and 6, written out by hand: the oracle the server is tested against
      const MACHINE: Record<
        string,
        { from: string[]; to: string; roles: string[]; guard: 'own' | 'notOwn' | null }
      > = {
        submit: {
          from: ['draft'],
          to: 'submitted',
          roles: ['ann', 'bob', 'mia', 'dora', 'fin', 'adm'],
          guard: 'own',
        },
        withdraw: {
          from: ['draft', 'submitted'],
          to: 'withdrawn',
          roles: ['ann', 'bob', 'mia', 'dora', 'fin', 'adm'],
          guard: 'own',
        },
        approve: { from: ['submitted'], to: 'approved', roles: ['mia', 'dora'], guard: 'notOwn' },
        reject: { from: ['submitted'], to: 'rejected', roles: ['mia', 'dora'], guard: 'notOwn' },
        revise: {
          from: ['rejected'],
          to: 'draft',
          roles: ['ann', 'bob', 'mia', 'dora', 'fin', 'adm'],
          guard: 'own',
        },
        pay: { from: ['approved'], to: 'paid', roles: ['fin'], guard: null },
      };
      const readers = (state: string, actor: string) =>
        ['ann', 'mia', 'dora', 'aud', 'adm'].includes(actor) ||
        (actor === 'fin' && ['approved', 'paid'].includes(state));
      const PAYLOAD: Record<string, Json> = {
        reject: { rejectionReason: 'Not this time' },
        pay: { paymentReference: 'PAY-20260301' },
      };

      it('accepts no illegal transition and refuses no legal one', async () => {
        const actors = ['ann', 'bob', 'mia', 'dora', 'fin', 'aud', 'adm'] as const;
        const step = fc.record({
          actor: fc.constantFrom(...actors),
          transition: fc.constantFrom(...Object.keys(MACHINE)),
        });
        await fc.assert(
          fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
            const created = await claim(ann);
            const url = `/api/claims/${String(created['id'])}`;
            let state = 'draft';
            let version = 1;
            for (const { actor, transition } of steps) {
              const client = world.as[actor];
              const rule = MACHINE[transition];
              if (client === undefined || rule === undefined) throw new Error('unknown step');
              const response = await client.fire(url, transition, version, PAYLOAD[transition] ?? {});
              const expected = !readers(state, actor)
                ? 404
                : !rule.from.includes(state)
                  ? 409
                  : !rule.roles.includes(actor)
                    ? 403
                    : (rule.guard === 'own' && actor !== 'ann') ||
                        (rule.guard === 'notOwn' && actor === 'ann')
                      ? 409
                      : 200;
              expect(response.statusCode, `${actor} ${transition} from ${state}: ${response.body}`).toBe(
                expected,
              );
              if (expected === 200) {
                state = rule.to;
                version += 1;
              }
            }
            expect(body(await ann.get(url))).toMatchObject({ state, version });
          }),
          { numRuns: 12 },
        );
      }, 60_000);
    });

    describe('lists', () => {
      let tagged: string[];
      beforeAll(async () => {
        tagged = [];
        const amounts = ['3.00', '1.00', '2.00', '2.00', '5.00', '4.00', '2.00'];
        for (const [i, amount] of amounts.entries()) {
          const c = await claim(bob, {
            title: `Paging ${i} 'or 1=1 --`,
            amount,
            tags: i % 2 === 0 ? ['client'] : ['internal'],
            ...(i === 0 ? {} : { merchant: `Shop ${i}` }),
          });
          tagged.push(String(c['id']));
        }
      });

      it('pages with a sort returns every row exactly once, in order', async () => {
        for (const sort of [
          '-amount',
          'amount,-title',
          'merchant',
          '-merchant',
          'createdAt',
          '-updatedAt',
          '-id',
          'amount,-id',
        ]) {
          const seen: Json[] = [];
          let cursor: string | null = null;
          let pages = 0;
          do {
            const url: string = `/api/claims?title[contains]=Paging&sort=${sort}&limit=2${cursor === null ? '' : `&cursor=${cursor}`}`;
            const page = body(await bob.get(url));
            seen.push(...(page['data'] as Json[]));
            cursor = page['nextCursor'] as string | null;
            pages += 1;
          } while (cursor !== null && pages < 20);
          expect(seen.map((c) => c['id']).sort(), sort).toEqual([...tagged].sort());
          if (sort === '-amount') {
            expect(seen.map((c) => c['amount'])).toEqual([
              '5.00',
              '4.00',
              '3.00',
              '2.00',
              '2.00',
              '2.00',
              '1.00',
            ]);
          }
          if (sort === 'merchant') expect(seen.at(-1)?.['merchant']).toBeNull();
          if (sort === '-merchant') expect(seen[0]?.['merchant']).toBeNull();
        }
      });

      it('filters with every operator, searches, and counts', async () => {
        const ids = async (query: string) =>
          (body(await bob.get(`/api/claims?title[contains]=Paging&${query}`))['data'] as Json[])
            .map((c) => c['amount'])
            .sort();
        expect(await ids('amount[gt]=3')).toEqual(['4.00', '5.00']);
        expect(await ids('amount[gte]=4.00')).toEqual(['4.00', '5.00']);
        expect(await ids('amount[lt]=2')).toEqual(['1.00']);
        expect(await ids('amount[lte]=1')).toEqual(['1.00']);
        expect(await ids('amount=2')).toEqual(['2.00', '2.00', '2.00']);
        expect(await ids('amount[ne]=2')).toEqual(['1.00', '3.00', '4.00', '5.00']);
        expect(await ids('amount[in]=1,5')).toEqual(['1.00', '5.00']);
        expect(await ids('merchant[isNull]=true')).toEqual(['3.00']);
        expect(await ids('tags[contains]=client')).toHaveLength(4);
        expect(await ids('q=shop%203')).toEqual(['2.00']);
        expect(await ids(`q=${encodeURIComponent("'or 1=1 --")}`)).toHaveLength(7);
        expect(await ids('state=draft&urgent=false')).toHaveLength(7);
        const counted = body(await bob.get('/api/claims?title[contains]=Paging&limit=1&total=true'));
        expect(counted['total']).toBe(7);
        expect(counted['data']).toHaveLength(1);
      });

      it('refuses queries it cannot apply with E_INVALID_QUERY', async () => {
        const queries = [
          'colour=red',
          'amount[like]=1',
          'amount[gt]=abc',
          'mileageKm=1.5',
          'urgent=yes',
          'sort=nope',
          'sort=tags',
          'sort=amount,amount',
          'sort=id,amount',
          'limit=0',
          'limit=ten',
          'cursor=garbage!',
          'cursor=eyJzIjoiYW1vdW50LGlkIiwidiI6W119',
          'total=maybe',
          'tags=client',
          'cardTransaction[isNull]=true&cardTransaction=1',
          'title=a&title=b',
          'constructor=1',
          '__proto__[eq]=1',
        ];
        for (const query of queries) {
          const response = await bob.get(`/api/claims?${query}`);
          expect(problem(response), query).toMatchObject({ status: 400, code: 'E_INVALID_QUERY' });
        }
        // a cursor of another sort is refused too
        const page = body(await bob.get('/api/claims?title[contains]=Paging&limit=1&sort=amount'));
        const other = await bob.get(`/api/claims?limit=1&sort=-amount&cursor=${String(page['nextCursor'])}`);
        expect(problem(other).code).toBe('E_INVALID_QUERY');
      });

      it('caps the page size at maxPageSize', async () => {
        const page = body(await bob.get('/api/claims?limit=100000'));
        expect((page['data'] as Json[]).length).toBeLessThanOrEqual(200);
      });

      it('applies a list screen’s fixed condition on top of the permission, never instead of it', async () => {
        const mine = await claim(ann, { title: 'Mine for the screen' });
        // my-claims is `where: own`: bob sees only his claims there, though he may read no others anyway
        const own = body(await bob.get('/api/claims?screen=my-claims&limit=200&total=true'));
        expect((own['data'] as Json[]).every((c) => c['submittedBy'] === bob.id)).toBe(true);
        expect((own['data'] as Json[]).map((c) => c['id'])).not.toContain(mine['id']);
        // approvals is `state == 'submitted' && submittedBy != user.id`: a draft is not waiting
        const waiting = body(await mia.get('/api/claims?screen=approvals&total=true'));
        expect((waiting['data'] as Json[]).every((c) => c['state'] === 'submitted')).toBe(true);
        // the auditor reads every claim but the screen still narrows to their own: none
        expect(body(await aud.get('/api/claims?screen=my-claims&total=true'))['total']).toBe(0);
        expect(problem(await bob.get('/api/claims?screen=departments')).code).toBe('E_INVALID_QUERY');
        expect(problem(await bob.get('/api/claims?screen=nope')).code).toBe('E_INVALID_QUERY');
      });

      it('exports every matching row as CSV, page after page, with only the readable columns', async () => {
        const response = await bob.get('/api/claims?format=csv-raw&sort=amount&merchant[contains]=Shop');
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
        expect(response.headers['content-disposition']).toMatch(
          /^attachment; filename="claims-\d{4}-\d{2}-\d{2}-raw\.csv"$/,
        );
        const lines = response.body
          .replace(/^\uFEFF/, '')
          .trimEnd()
          .split('\r\n');
        expect(lines[0]).toContain('Id,State,Title,Category');
        const json = body(await bob.get('/api/claims?sort=amount&merchant[contains]=Shop&limit=200'));
        expect(lines.length - 1).toBe((json['data'] as Json[]).length);
        expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(
          (json['data'] as Json[]).map((c) => c['id']),
        );
        // a title that a spreadsheet would run is defused and quoted where it must be
        expect(response.body).toContain(`'or 1=1 --`);

        // more rows than one export page: nothing lost, nothing twice
        const many = body(await bob.get('/api/claims?limit=1&total=true'))['total'] as number;
        const all = await bob.get('/api/claims?format=csv-raw');
        const ids = all.body
          .trimEnd()
          .split('\r\n')
          .slice(1)
          .map((l) => l.split(',')[0]);
        expect(ids.length).toBe(many);
        expect(new Set(ids).size).toBe(many);

        // the auditor may not read the free text: the columns leave it out
        const audited = await aud.get('/api/claims?format=csv');
        const header = audited.body.replace(/^\uFEFF/, '').split('\r\n')[0] ?? '';
        expect(header).toContain('Title');
        expect(header).not.toContain('Merchant');
        expect(header).not.toContain('Description');
        expect(problem(await bob.get('/api/claims?format=xml')).code).toBe('E_INVALID_QUERY');
      });
    });

    describe('bad input', () => {
      it('never answers 5xx and leaves the database unchanged', async () => {
        const before = await world.count('claims');
        const history = await world.historyCount();
        const bad: [string, Record<string, string>][] = [
          ['{"title": ', { 'content-type': 'application/json' }],
          ['[1,2,3]', { 'content-type': 'application/json' }],
          ['null', { 'content-type': 'application/json' }],
          ['"text"', { 'content-type': 'application/json' }],
          ['{"__proto__": {"admin": true}}', { 'content-type': 'application/json' }],
          ['title=x', { 'content-type': 'application/x-www-form-urlencoded' }],
          ['{"title": "Nul\\u0000byte", "amount": "10.00"}', { 'content-type': 'application/json' }],
          ['{"title": "Huge", "amount": 1e400}', { 'content-type': 'application/json' }],
          [
            '{"title": "Deep", "amount": "10.00", "tags": [[[[["x"]]]]]}',
            { 'content-type': 'application/json' },
          ],
        ];
        for (const [payload, headers] of bad) {
          const response = await ann.request('POST', '/api/claims', payload, headers);
          expect(response.statusCode, payload).toBeGreaterThanOrEqual(400);
          expect(response.statusCode, payload).toBeLessThan(500);
          problem(response);
        }
        const filters = [
          'title=%00',
          'amount[gt]=99999999999999999999',
          'spentOn[lt]=%F0%9F%98%80',
          'id=%E2%80%AE',
        ];
        for (const query of filters) {
          const response = await ann.get(`/api/claims?${query}`);
          expect(response.statusCode, query).toBeLessThan(500);
        }
        expect(await world.count('claims')).toBe(before);
        expect(await world.historyCount()).toBe(history);
      });

      it('refuses bad updates and transition bodies the same way, leaving the record as it was', async () => {
        const c = await claim(ann);
        const url = `/api/claims/${String(c['id'])}`;
        const history = await world.historyCount();
        const json = { 'content-type': 'application/json', 'if-match': '"1"' };
        const bad = [
          '{"title": ',
          '[1,2,3]',
          'null',
          '{"title": 12}',
          '{"colour": "red"}',
          '{"state": "paid"}',
          '{"title": "Nul\\u0000byte"}',
          '{"__proto__": {"title": "x"}}',
        ];
        for (const payload of bad) {
          for (const [method, target] of [
            ['PATCH', url],
            ['POST', `${url}/transitions/submit`],
          ] as const) {
            const response = await ann.request(method, target, payload, json);
            expect(response.statusCode, `${method} ${payload}`).toBeGreaterThanOrEqual(400);
            expect(response.statusCode, `${method} ${payload}`).toBeLessThan(500);
            problem(response);
          }
        }
        const p = problem(await ann.request('PATCH', url, { title: 'x' }, { 'if-match': 'garbage' }));
        expect(p).toMatchObject({ status: 400, code: 'E_BAD_REQUEST' });
        expect(body(await ann.get(url))).toEqual(c);
        expect(await world.historyCount()).toBe(history);
      });

      it('refuses a body over limits.maxBodyBytes with E_PAYLOAD_TOO_LARGE', async () => {
        const before = await world.count('claims');
        const huge = {
          title: 'Huge',
          amount: '10.00',
          description: 'x'.repeat(world.model.limits.maxBodyBytes),
        };
        const p = problem(await ann.post('/api/claims', huge));
        expect(p).toMatchObject({ status: 413, code: 'E_PAYLOAD_TOO_LARGE' });
        expect(await world.count('claims')).toBe(before);
      });

      it('stores SQL-looking strings and odd Unicode as plain data', async () => {
        const title = "Robert'); DROP TABLE claims;-- 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \u202e שלום";
        const c = await claim(ann, { title, merchant: '%_\\' });
        expect(body(await ann.get(`/api/claims/${String(c['id'])}`))['title']).toBe(title);
        const found = body(await ann.get(`/api/claims?merchant[contains]=${encodeURIComponent('%_\\')}`));
        expect((found['data'] as Json[]).map((x) => x['id'])).toEqual([c['id']]);
        expect(await world.count('claims')).toBeGreaterThan(0);
      });

      it('asks anonymous clients to sign in', async () => {
        const response = await checkedInject(world.server.app, world.model, {
          method: 'GET',
          url: '/api/claims',
        });
        expect(problem(response)).toMatchObject({ status: 401, code: 'E_UNAUTHENTICATED' });
      });
    });
  });
}
