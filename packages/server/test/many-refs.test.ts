/**
 * Lists of refs in join tables (decision 0044), on SQLite and PostgreSQL through the real server:
 * the wire keeps a JSON array of ids in the order written; filters, the read permission
 * `user.id in members` and sort by count run in SQL and agree with the engine's JS evaluation.
 */
import { can } from '@ninefold/engine';
import { type Model, type Value } from '@ninefold/model';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF, DIALECTS, checkedInject, givenUser, login, specModel, testServer } from '@ninefold/testkit';
import { SPEC } from './many-refs-spec.js';
import { type Json } from './world.js';

type Call = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
  headers?: Record<string, string>,
) => ReturnType<typeof checkedInject>;

async function signedIn(
  server: Awaited<ReturnType<typeof testServer>>,
  model: Model,
  email: string,
  roles: string[],
) {
  const user = await givenUser(server, email, roles);
  const { cookie } = await login(server.app, email);
  const call: Call = (method, url, payload, headers = {}) =>
    checkedInject(server.app, model, {
      method,
      url,
      headers: { ...CSRF, cookie: cookie ?? '', ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return { id: user.id, call };
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: lists of refs in join tables`, () => {
    const model = specModel(SPEC);
    let server: Awaited<ReturnType<typeof testServer>>;
    let lead: Awaited<ReturnType<typeof signedIn>>;
    let ann: Awaited<ReturnType<typeof signedIn>>;
    let bob: Awaited<ReturnType<typeof signedIn>>;
    const tags: string[] = [];

    beforeAll(async () => {
      server = await testServer(dialect, model);
      lead = await signedIn(server, model, 'lead@example.com', ['lead']);
      ann = await signedIn(server, model, 'ann@example.com', ['member']);
      bob = await signedIn(server, model, 'bob@example.com', ['member']);
      for (const name of ['red', 'green', 'blue']) {
        const r = await lead.call('POST', '/api/tags', { name });
        expect(r.statusCode).toBe(201);
        tags.push(String(r.json<Json>()['id']));
      }
    });
    afterAll(() => undefined);

    const project = async (title: string, members: string[] | null, list: string[] | null = null) => {
      const r = await lead.call('POST', '/api/projects', { title, members, tags: list });
      expect(r.statusCode, r.body).toBe(201);
      return r.json<Json>();
    };
    const joinRows = async (table: string) =>
      (
        await sql<{
          holder: string;
          target: string;
          position: unknown;
        }>`select holder, target, position from ${sql.table(table)} order by holder, position`.execute(
          server.database.db,
        )
      ).rows;

    it('keeps a list in the order written, in its join table, through create, read, update and list', async () => {
      const created = await project('Order', [bob.id, lead.id, ann.id], [tags[2]!, tags[0]!]);
      expect(created['members']).toEqual([bob.id, lead.id, ann.id]);
      const id = String(created['id']);
      const rows = (await joinRows('projects__members')).filter((r) => r.holder === id);
      expect(rows.map((r) => r.target)).toEqual([bob.id, lead.id, ann.id]);
      // the projects table has no members column any more
      const columns = Object.keys(
        (await server.database.db
          .selectFrom('projects')
          .selectAll()
          .where('id', '=', id)
          .executeTakeFirstOrThrow()) as object,
      );
      expect(columns).not.toContain('members');

      const read = (await lead.call('GET', `/api/projects/${id}`)).json<Json>();
      expect(read['members']).toEqual([bob.id, lead.id, ann.id]);
      expect(read['tags']).toEqual([tags[2], tags[0]]);

      const updated = await lead.call(
        'PATCH',
        `/api/projects/${id}`,
        { members: [ann.id, bob.id] },
        { 'if-match': '"1"' },
      );
      expect(updated.statusCode, updated.body).toBe(200);
      expect(updated.json<Json>()['members']).toEqual([ann.id, bob.id]);
      const listed = (await lead.call('GET', `/api/projects?limit=100`)).json<{ data: Json[] }>().data;
      expect(listed.find((p) => p['id'] === id)?.['members']).toEqual([ann.id, bob.id]);
      // the history says what the list was and is
      const history = (await lead.call('GET', `/api/projects/${id}/history`)).json<{ data: Json[] }>().data;
      expect(JSON.stringify(history)).toContain(
        JSON.stringify({ from: [bob.id, lead.id, ann.id], to: [ann.id, bob.id] }),
      );
    });

    it('writes nothing for an unchanged list, and an empty list is no value', async () => {
      const p = await project('Same', [ann.id]);
      const id = String(p['id']);
      const same = await lead.call(
        'PATCH',
        `/api/projects/${id}`,
        { members: [ann.id] },
        { 'if-match': '"1"' },
      );
      expect(same.json<Json>()['version']).toBe(1);
      const emptied = await lead.call('PATCH', `/api/projects/${id}`, { members: [] }, { 'if-match': '"1"' });
      expect(emptied.statusCode, emptied.body).toBe(200);
      expect(emptied.json<Json>()['members']).toBeNull();
      expect((await joinRows('projects__members')).filter((r) => r.holder === id)).toEqual([]);
    });

    it('refuses ids that name no record with 422, never a 5xx, and writes nothing', async () => {
      const before = await joinRows('projects__members');
      const r = await lead.call('POST', '/api/projects', {
        title: 'Ghost',
        members: [ann.id, 'ghost0000000000000000'],
      });
      expect(r.statusCode).toBe(422);
      expect(r.json<{ errors: Json[] }>().errors[0]).toMatchObject({
        field: 'members',
        code: 'E_REF_NOT_FOUND',
      });
      expect(await joinRows('projects__members')).toEqual(before);
    });

    it('filters with EXISTS over the join table: holds, holds any, does not hold, empty', async () => {
      const a = String((await project('F-a', [ann.id], [tags[0]!]))['id']);
      const b = String((await project('F-b', [bob.id, ann.id], [tags[1]!]))['id']);
      const c = String((await project('F-c', null, [tags[0]!, tags[1]!]))['id']);
      const ids = async (query: string) =>
        (await lead.call('GET', `/api/projects?limit=200&${query}`))
          .json<{ data: Json[] }>()
          .data.map((p) => String(p['id']))
          .filter((x) => [a, b, c].includes(x))
          .sort();
      expect(await ids(`tags=${tags[0]}`)).toEqual([a, c].sort());
      expect(await ids(`tags[contains]=${tags[1]}`)).toEqual([b, c].sort());
      expect(await ids(`tags[in]=${tags[0]},${tags[1]}`)).toEqual([a, b, c].sort());
      expect(await ids(`tags[ne]=${tags[0]}`)).toEqual([b]);
      expect(await ids(`members[isNull]=true`)).toEqual([c]);
      expect(await ids(`members[isNull]=false`)).toEqual([a, b].sort());
      const bad = await lead.call('GET', `/api/projects?tags=not-an-id`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json<Json>()['code']).toBe('E_INVALID_QUERY');
      expect((await lead.call('GET', `/api/projects?tags[gt]=${tags[0]}`)).statusCode).toBe(400);
    });

    it('lists only the projects a member is in (`user.id in members`), as the engine decides in JS', async () => {
      const all = (await lead.call('GET', '/api/projects?limit=200')).json<{ data: Json[] }>().data;
      for (const who of [ann, bob]) {
        const user = { id: who.id, roles: ['member'] };
        const expected = all
          .filter((p) => can(model, user, 'read', 'Project', p as Record<string, Value>, { now: new Date() }))
          .map((p) => p['id'])
          .sort();
        const seen = (await who.call('GET', '/api/projects?limit=200')).json<{ data: Json[] }>().data;
        expect(seen.map((p) => p['id']).sort()).toEqual(expected);
        expect(expected.length).toBeGreaterThan(0);
        // and one by id: a project they are not in is not found
        const other = all.find((p) => !expected.includes(p['id']));
        if (other !== undefined)
          expect((await who.call('GET', `/api/projects/${String(other['id'])}`)).statusCode).toBe(404);
      }
    });

    it('sorts by how many ids a list holds, both ways, with a cursor that pages on', async () => {
      const all = (await lead.call('GET', '/api/projects?limit=200')).json<{ data: Json[] }>().data;
      const size = (p: Json) => (Array.isArray(p['members']) ? p['members'].length : 0);
      for (const sort of ['members', '-members']) {
        const pages: Json[] = [];
        let cursor: string | null = null;
        do {
          const r = await lead.call(
            'GET',
            `/api/projects?sort=${sort}&limit=2${cursor === null ? '' : `&cursor=${cursor}`}`,
          );
          expect(r.statusCode, r.body).toBe(200);
          const page = r.json<{ data: Json[]; nextCursor: string | null }>();
          pages.push(...page.data);
          cursor = page.nextCursor;
        } while (cursor !== null);
        expect(pages).toHaveLength(all.length);
        const sizes = pages.map(size);
        const sorted = [...sizes].sort((x, y) => (sort === 'members' ? x - y : y - x));
        expect(sizes).toEqual(sorted);
      }
    });

    it('refuses deleting a listed record under restrict, naming how many list it, and takes it out of every list under setNull', async () => {
      const tag = String((await lead.call('POST', '/api/tags', { name: 'held' })).json<Json>()['id']);
      await project('H1', null, [tags[0]!, tag, tags[1]!]);
      await project('H2', null, [tag]);
      const references = (await lead.call('GET', `/api/tags/${tag}/references`)).json<Json>();
      expect(references).toEqual({
        data: [{ entity: 'Project', field: 'tags', count: 2, onDelete: 'restrict' }],
        deletable: false,
      });
      const refused = await lead.call('DELETE', `/api/tags/${tag}`, undefined, { 'if-match': '"1"' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json<Json>()['code']).toBe('E_REFERENCED');
      expect(refused.json<Json>()['message']).toMatch(/^2 Projects refer/);
      expect((await lead.call('GET', `/api/tags/${tag}`)).statusCode).toBe(200);

      const label = async (name: string) =>
        String((await lead.call('POST', '/api/labels', { name })).json<Json>()['id']);
      const [keep, gone] = [await label('keep'), await label('gone')];
      const created = async (title: string, labels: string[]) => {
        const r = await lead.call('POST', '/api/projects', { title, labels });
        expect(r.statusCode, r.body).toBe(201);
        return String(r.json<Json>()['id']);
      };
      const p1 = await created('L1', [gone, keep]);
      const p2 = await created('L2', [gone]);
      expect(
        (await lead.call('DELETE', `/api/labels/${gone}`, undefined, { 'if-match': '"1"' })).statusCode,
      ).toBe(204);
      const h1 = (await lead.call('GET', `/api/projects/${p1}`)).json<Json>();
      expect(h1['labels']).toEqual([keep]);
      expect(h1['version']).toBe(2);
      expect((await lead.call('GET', `/api/projects/${p2}`)).json<Json>()['labels']).toBeNull();
      expect((await joinRows('projects__labels')).filter((r) => r.target === gone)).toEqual([]);
      const history = (await lead.call('GET', `/api/projects/${p1}/history`)).json<{ data: Json[] }>().data;
      expect(history.map((h) => h['action'])).toEqual(['create', 'update']);
      expect(history[1]?.['changes']).toEqual({ labels: { from: [gone, keep], to: [keep] } });
    });

    it('deletes a holder with its rows (ON DELETE CASCADE)', async () => {
      const id = String((await project('Gone', [ann.id, bob.id]))['id']);
      expect(
        (await lead.call('DELETE', `/api/projects/${id}`, undefined, { 'if-match': '"1"' })).statusCode,
      ).toBe(204);
      expect((await joinRows('projects__members')).filter((r) => r.holder === id)).toEqual([]);
    });

    it('exports a list as its ids in raw CSV', async () => {
      const id = String((await project('Csv', [bob.id, ann.id]))['id']);
      const csv = (await lead.call('GET', `/api/projects?format=csv-raw&limit=200`)).body;
      const line = csv.split('\n').find((l) => l.includes(id)) ?? '';
      expect(line.indexOf(bob.id)).toBeGreaterThan(-1);
      expect(line.indexOf(bob.id)).toBeLessThan(line.indexOf(ann.id));
    });
  });
}
