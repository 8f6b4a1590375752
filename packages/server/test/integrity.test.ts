/**
 * Referential integrity (decision 0043) over HTTP, on every database: a delete does what the refs
 * that point at it say (`restrict` refuses with the count, `cascade` deletes the children in its
 * transaction with their history and is refused whole when one may not be deleted, `setNull`
 * empties the ref), `GET …/references` counts them, and the database's foreign keys refuse a ref to
 * nothing even when written around the API, in a race with a delete too.
 */
import { REFERENCES_PATH } from '@ninefold/model';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  CSRF,
  DIALECTS,
  checkedInject,
  givenUser,
  login,
  problem,
  specModel,
  testServer,
} from '@ninefold/testkit';

const SPEC = `
product: { name: Shop }
entities:
  Category:
    fields:
      name: { type: string, required: true }
  Product:
    fields:
      name: { type: string, required: true }
      category: { type: ref, to: Category, required: true }
  Ticket:
    fields:
      title: { type: string, required: true }
  Comment:
    fields:
      body: { type: string, required: true }
      ticket: { type: ref, to: Ticket, required: true, onDelete: cascade }
      locked: boolean
  Reply:
    fields:
      body: { type: string, required: true }
      comment: { type: ref, to: Comment, required: true, onDelete: cascade }
  Note:
    fields:
      body: { type: string, required: true }
      ticket: { type: ref, to: Ticket, onDelete: setNull }
      tickets: { type: ref, to: Ticket, many: true, onDelete: setNull }
roles:
  clerk:
    Category: true
    Product: true
    Ticket: true
    Comment: { read: all, create: true, update: true, delete: "locked != true" }
    Reply: true
    Note: { read: all, create: true, update: false, delete: true }
`;

type Json = Record<string, unknown>;

for (const dialect of DIALECTS) {
  describe(`${dialect}: referential integrity`, () => {
    async function shop() {
      const model = specModel(SPEC);
      const server = await testServer(dialect, model);
      await givenUser(server, 'ada@example.com', ['clerk']);
      const cookie = (await login(server.app, 'ada@example.com')).cookie ?? '';
      const call = (method: string, url: string, payload?: object, headers: Record<string, string> = {}) =>
        checkedInject(server.app, model, {
          method,
          url,
          headers: { ...CSRF, cookie, ...headers },
          ...(payload === undefined ? {} : { payload }),
        });
      const create = async (resource: string, fields: object) => {
        const response = await call('POST', `/api/${resource}`, fields);
        expect(response.statusCode, response.body).toBe(201);
        return String(response.json<Json>()['id']);
      };
      const remove = (resource: string, id: string) => call('DELETE', `/api/${resource}/${id}`);
      const db = server.database.db;
      const count = async (table: string) =>
        Number(
          (await sql<{ n: unknown }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]?.n,
        );
      const history = async (entity: string, action: string) =>
        Number(
          (
            await sql<{
              n: unknown;
            }>`select count(*) as n from ninefold_history where entity = ${entity} and action = ${action}`.execute(
              db,
            )
          ).rows[0]?.n,
        );
      return { server, model, call, create, remove, count, history, db };
    }

    it('restrict: refuses a delete with the count and the relation, and deletes nothing', async () => {
      const { call, create, remove, count } = await shop();
      const category = await create('categories', { name: 'Tools' });
      for (const name of ['Saw', 'Hammer', 'Drill', 'Plane']) await create('products', { name, category });

      const refused = problem(await remove('categories', category));
      expect(refused).toMatchObject({ status: 409, code: 'E_REFERENCED' });
      expect(refused.detail ?? refused.title).toBeDefined();
      expect(JSON.stringify(refused)).toContain('4 Products refer to this record through “Category”');
      expect(await count('categories')).toBe(1);
      expect(await count('products')).toBe(4);

      const references = await call('GET', `/api/categories/${category}/${REFERENCES_PATH}`);
      expect(references.statusCode).toBe(200);
      expect(references.json()).toEqual({
        data: [{ entity: 'Product', field: 'category', count: 4, onDelete: 'restrict' }],
        deletable: false,
      });
    });

    it('restrict: the delete goes through once nothing refers to the record', async () => {
      const { call, create, remove, count } = await shop();
      const category = await create('categories', { name: 'Tools' });
      const product = await create('products', { name: 'Saw', category });
      expect((await remove('products', product)).statusCode).toBe(204);
      const references = await call('GET', `/api/categories/${category}/${REFERENCES_PATH}`);
      expect(references.json()).toEqual({
        data: [{ entity: 'Product', field: 'category', count: 0, onDelete: 'restrict' }],
        deletable: true,
      });
      expect((await remove('categories', category)).statusCode).toBe(204);
      expect(await count('categories')).toBe(0);
    });

    it('cascade: deletes the children and theirs in one transaction, each with its history', async () => {
      const { call, create, remove, count, history } = await shop();
      const ticket = await create('tickets', { title: 'Jam' });
      const other = await create('tickets', { title: 'Leak' });
      const first = await create('comments', { body: 'one', ticket, locked: false });
      await create('comments', { body: 'two', ticket, locked: false });
      await create('comments', { body: 'elsewhere', ticket: other, locked: false });
      await create('replies', { body: 'a reply', comment: first });

      const references = await call('GET', `/api/tickets/${ticket}/${REFERENCES_PATH}`);
      expect(references.json<Json>()['data']).toContainEqual({
        entity: 'Comment',
        field: 'ticket',
        count: 2,
        onDelete: 'cascade',
      });
      expect(references.json<Json>()['deletable']).toBe(true);

      expect((await remove('tickets', ticket)).statusCode).toBe(204);
      expect(await count('tickets')).toBe(1);
      expect(await count('comments')).toBe(1);
      expect(await count('replies')).toBe(0);
      expect(await history('Comment', 'delete')).toBe(2);
      expect(await history('Reply', 'delete')).toBe(1);
      expect(await history('Ticket', 'delete')).toBe(1);
      const comment = await call('GET', `/api/comments/${first}/history`);
      expect(comment.statusCode).toBe(200);
      expect(comment.json<{ data: Json[] }>().data.map((e) => e['action'])).toEqual(['create', 'delete']);
    });

    it('cascade: refused whole when the user may not delete one of the children', async () => {
      const { create, remove, count, history } = await shop();
      const ticket = await create('tickets', { title: 'Jam' });
      const open = await create('comments', { body: 'open', ticket, locked: false });
      await create('replies', { body: 'a reply', comment: open });
      await create('comments', { body: 'locked', ticket, locked: true });

      const refused = problem(await remove('tickets', ticket));
      expect(refused).toMatchObject({ status: 403, code: 'E_FORBIDDEN' });
      expect(await count('tickets')).toBe(1);
      expect(await count('comments')).toBe(2);
      expect(await count('replies')).toBe(1);
      expect(await history('Reply', 'delete')).toBe(0);
      expect(await history('Ticket', 'delete')).toBe(0);
    });

    it('setNull: empties the ref (and takes the record out of a list), with a new version and history', async () => {
      const { call, create, remove, history } = await shop();
      const ticket = await create('tickets', { title: 'Jam' });
      const kept = await create('tickets', { title: 'Leak' });
      const note = await create('notes', { body: 'see', ticket, tickets: [ticket, kept] });

      const references = await call('GET', `/api/tickets/${ticket}/${REFERENCES_PATH}`);
      expect(references.json<Json>()['data']).toEqual(
        expect.arrayContaining([
          { entity: 'Note', field: 'ticket', count: 1, onDelete: 'setNull' },
          { entity: 'Note', field: 'tickets', count: 1, onDelete: 'setNull' },
        ]),
      );
      // emptying a ref the user may not update is the delete's consequence, not an update of theirs
      expect((await remove('tickets', ticket)).statusCode).toBe(204);
      const after = (await call('GET', `/api/notes/${note}`)).json<Json>();
      expect(after).toMatchObject({ ticket: null, tickets: [kept], version: 2 });
      expect(await history('Note', 'update')).toBe(1);
    });

    it('cascade through a cycle: each record once, the foreign keys checked at commit', async () => {
      const model = specModel(`
entities:
  Node:
    fields:
      name: { type: string, required: true }
      next: { type: ref, to: Node, onDelete: cascade }
roles:
  user: { Node: true }
`);
      const server = await testServer(dialect, model);
      await givenUser(server, 'ada@example.com', ['user']);
      const cookie = (await login(server.app, 'ada@example.com')).cookie ?? '';
      const call = (method: string, url: string, payload?: object, headers: Record<string, string> = {}) =>
        checkedInject(server.app, model, {
          method,
          url,
          headers: { ...CSRF, cookie, ...headers },
          ...(payload === undefined ? {} : { payload }),
        });
      const a = (await call('POST', '/api/nodes', { name: 'a' })).json<Json>();
      const b = (await call('POST', '/api/nodes', { name: 'b', next: a['id'] })).json<Json>();
      const c = (await call('POST', '/api/nodes', { name: 'c', next: b['id'] })).json<Json>();
      // a → c closes the cycle a ← b ← c ← a
      const patched = await call(
        'PATCH',
        `/api/nodes/${String(a['id'])}`,
        { next: c['id'] },
        { 'if-match': '"1"' },
      );
      expect(patched.statusCode, patched.body).toBe(200);
      expect((await call('DELETE', `/api/nodes/${String(a['id'])}`)).statusCode).toBe(204);
      const left = await sql<{ n: unknown }>`select count(*) as n from nodes`.execute(server.database.db);
      expect(Number(left.rows[0]?.n)).toBe(0);
    });

    it('GET …/references is 404 unless the caller may read the record', async () => {
      const { server, model, call, create } = await shop();
      const missing = '00000000-0000-4000-8000-000000000000';
      expect(problem(await call('GET', `/api/tickets/${missing}/${REFERENCES_PATH}`))).toMatchObject({
        status: 404,
        code: 'E_NOT_FOUND',
      });
      const ticket = await create('tickets', { title: 'Jam' });
      const anonymous = await checkedInject(server.app, model, {
        method: 'GET',
        url: `/api/tickets/${ticket}/${REFERENCES_PATH}`,
      });
      expect(anonymous.statusCode).toBe(401);
    });

    it('the database refuses a ref to nothing, even written around the API', async () => {
      const { create, db } = await shop();
      const category = await create('categories', { name: 'Tools' });
      const insert = (categoryId: string) =>
        sql`insert into products (id, "createdAt", "updatedAt", version, name, category)
            values (${crypto.randomUUID()}, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 1, 'Raw', ${categoryId})`.execute(
          db,
        );
      await insert(category);
      await expect(insert('00000000-0000-4000-8000-000000000000')).rejects.toThrow(/foreign key/i);
      await expect(sql`delete from categories where id = ${category}`.execute(db)).rejects.toThrow(
        /foreign key/i,
      );
    });

    it('createdBy: deleting a user empties it, and the history keeps who created the record', async () => {
      const { server, create, db } = await shop();
      const bob = await givenUser(server, 'bob@example.com', ['clerk']);
      const cookie = (await login(server.app, 'bob@example.com')).cookie ?? '';
      const made = await checkedInject(server.app, server.model, {
        method: 'POST',
        url: '/api/categories',
        headers: { ...CSRF, cookie },
        payload: { name: 'Bob’s' },
      });
      expect(made.statusCode).toBe(201);
      const id = String(made.json<Json>()['id']);
      await create('categories', { name: 'Ada’s' });
      await sql`delete from users where id = ${bob.id}`.execute(db);
      const row = await sql<{
        createdBy: string | null;
      }>`select "createdBy" from categories where id = ${id}`.execute(db);
      expect(row.rows[0]?.createdBy).toBeNull();
      const entry = await sql<{
        by: string;
      }>`select by from ninefold_history where record_id = ${id}`.execute(db);
      expect(entry.rows.map((r) => r.by)).toEqual([bob.id]);
    });

    it('a child created while its parent is deleted never dangles', async () => {
      const { call, create, db } = await shop();
      for (let round = 0; round < 5; round++) {
        const category = await create('categories', { name: `C${round}` });
        const [deleted, created] = await Promise.all([
          call('DELETE', `/api/categories/${category}`),
          call('POST', '/api/products', { name: 'Racer', category }),
        ]);
        // one of the two wins, whichever order the database saw them in
        if (deleted.statusCode === 204) {
          expect([409, 422]).toContain(created.statusCode);
        } else {
          expect(created.statusCode).toBe(201);
          expect(problem(deleted)).toMatchObject({ status: 409, code: 'E_REFERENCED' });
        }
      }
      const dangling = await sql<{ n: unknown }>`select count(*) as n from products
        where not exists (select 1 from categories where categories.id = products.category)`.execute(db);
      expect(Number(dangling.rows[0]?.n)).toBe(0);
    });
  });
}
