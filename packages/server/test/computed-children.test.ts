/**
 * Computed values on every database (decision 0045), beyond the orders example: a child's
 * transition changes its parent's values; a computed value that reads another computed value and a
 * grandchild's values stays up to date; `filter`, `exists`, `max` and `avg` over children; and a
 * migration computes a new computed field for every existing row, and recomputes a changed one.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  CSRF,
  DIALECTS,
  checkedInject,
  freshDatabase,
  givenUser,
  login,
  specModel,
  testServer,
  type TestDialect,
} from '@ninefold/testkit';
import { migrate, tableName } from '../src/index.js';

const SPEC = `
product: { name: Projects }
entities:
  Project:
    fields:
      name: { type: string, required: true }
      tasks: { type: children, entity: Task, via: project }
      open: { type: integer, computed: "size(tasks.filter(t, t.state == 'open'))" }
      anyUrgent: { type: boolean, computed: "tasks.exists(t, t.hours > 8.0)" }
      longest: { type: decimal, scale: 1, computed: "max(tasks.map(t, t.hours))" }
      mean: { type: decimal, scale: 2, computed: "avg(tasks.map(t, t.hours))" }
      spent: { type: decimal, scale: 1, computed: "sum(tasks.map(t, t.logged))" }
      summary: { type: string, computed: "name + ': ' + string(open) + ' open'" }
  Task:
    fields:
      project: { type: ref, to: Project, required: true }
      title: { type: string, required: true }
      hours: { type: decimal, scale: 1, required: true }
      entries: { type: children, entity: Entry, via: task }
      logged: { type: decimal, scale: 1, computed: "sum(entries.map(e, e.hours))" }
  Entry:
    fields:
      task: { type: ref, to: Task, required: true }
      hours: { type: decimal, scale: 1, required: true }
states:
  Task:
    initial: open
    states: { open: {}, done: {} }
    transitions:
      finish: { from: open, to: done }
roles:
  lead: { Project: true, Task: true, Entry: true }
  watcher: { Project: { read: "open > 0" }, Task: { read: true } }
`;

async function projects(dialect: TestDialect) {
  const model = specModel(SPEC);
  const server = await testServer(dialect, model);
  await givenUser(server, 'lea@example.com', ['lead']);
  await givenUser(server, 'wes@example.com', ['watcher']);
  const { cookie: lead } = await login(server.app, 'lea@example.com');
  const { cookie: watcher } = await login(server.app, 'wes@example.com');
  let cookie = lead;
  const as = (who: 'lead' | 'watcher') => {
    cookie = who === 'lead' ? lead : watcher;
  };
  const call = async (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    version?: unknown,
  ) => {
    const response = await checkedInject(server.app, model, {
      method,
      url,
      headers: {
        ...CSRF,
        cookie: cookie!,
        ...(version === undefined ? {} : { 'if-match': `"${String(version)}"` }),
      },
      ...(payload === undefined ? {} : { payload }),
    });
    return {
      status: response.statusCode,
      body: (response.body === '' ? {} : response.json()) as Record<string, unknown>,
    };
  };
  return { call, as };
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: computed values over children and grandchildren`, () => {
    it(
      'follows a child’s transition, its delete, and a grandchild’s create',
      { timeout: 120_000 },
      async () => {
        const { call } = await projects(dialect);
        const project = (await call('POST', '/api/projects', { name: 'Roof' })).body;
        const url = `/api/projects/${String(project['id'])}`;
        expect(project).toMatchObject({
          open: 0,
          anyUrgent: false,
          longest: null,
          mean: null,
          spent: '0.0',
          summary: 'Roof: 0 open',
        });

        const a = (await call('POST', '/api/tasks', { project: project['id'], title: 'Tiles', hours: 4 }))
          .body;
        const b = (await call('POST', '/api/tasks', { project: project['id'], title: 'Gutter', hours: 9.5 }))
          .body;
        expect((await call('GET', url)).body).toMatchObject({
          open: 2,
          anyUrgent: true,
          longest: '9.5',
          mean: '6.75',
          summary: 'Roof: 2 open',
        });

        const finished = await call(
          'POST',
          `/api/tasks/${String(a['id'])}/transitions/finish`,
          {},
          a['version'],
        );
        expect(finished.status).toBe(200);
        expect((await call('GET', url)).body).toMatchObject({ open: 1, summary: 'Roof: 1 open' });

        const entry = await call('POST', '/api/entries', { task: b['id'], hours: 2.5 });
        expect(entry.status).toBe(201);
        expect((await call('GET', `/api/tasks/${String(b['id'])}`)).body).toMatchObject({ logged: '2.5' });
        expect((await call('GET', url)).body).toMatchObject({ spent: '2.5' });

        // the task without entries: a ref's default onDelete (restrict) keeps the other
        expect((await call('DELETE', `/api/tasks/${String(a['id'])}`)).status).toBe(204);
        expect((await call('GET', url)).body).toMatchObject({
          open: 1,
          longest: '9.5',
          mean: '9.50',
          spent: '2.5',
        });
      },
    );
  });

  describe(`${dialect}: a permission that reads a computed value`, () => {
    it(
      'lets a watcher read the projects with open tasks only, in SQL and by id',
      { timeout: 120_000 },
      async () => {
        const { call, as } = await projects(dialect);
        const busy = (await call('POST', '/api/projects', { name: 'Busy' })).body;
        const idle = (await call('POST', '/api/projects', { name: 'Idle' })).body;
        await call('POST', '/api/tasks', { project: busy['id'], title: 'Paint', hours: 1 });
        as('watcher');
        const listed = (await call('GET', '/api/projects')).body['data'] as Record<string, unknown>[];
        expect(listed.map((p) => p['name'])).toEqual(['Busy']);
        expect((await call('GET', `/api/projects/${String(idle['id'])}`)).status).toBe(404);
        expect((await call('GET', `/api/projects/${String(busy['id'])}`)).status).toBe(200);
      },
    );
  });

  describe(`${dialect}: computed values in a migration`, () => {
    it(
      'computes a new computed field for every row, and recomputes a changed one',
      { timeout: 120_000 },
      async () => {
        const { database } = await freshDatabase(dialect);
        const plain = SPEC.replace(
          / {6}(open|anyUrgent|longest|mean|spent|summary|logged): .*\n/g,
          '',
        ).replace(/ {2}watcher: .*\n/, '');
        await migrate(database, specModel(plain));
        const at = '2026-01-01T00:00:00.000Z';
        const row = { createdAt: at, updatedAt: at, version: 1 };
        await database.db
          .insertInto(tableName('projects'))
          .values({ ...row, id: 'p1', name: 'Roof' })
          .execute();
        await database.db
          .insertInto(tableName('tasks'))
          .values({ ...row, id: 't1', project: 'p1', title: 'Tiles', hours: 40, state: 'open' })
          .execute();
        await database.db
          .insertInto(tableName('entries'))
          .values({ ...row, id: 'e1', task: 't1', hours: 15 })
          .execute();

        const added = await migrate(database, specModel(SPEC));
        expect(added.planText).toContain('recompute the computed values of every Project');
        const read = async () =>
          (
            await sql<{
              open: unknown;
              spent: unknown;
            }>`select open, spent from ${sql.table(tableName('projects'))}`.execute(database.db)
          ).rows[0];
        expect(Number((await read())!.open)).toBe(1);
        expect(Number((await read())!.spent)).toBe(15); // 1.5 hours, kept in tenths

        const changed = await migrate(
          database,
          specModel(SPEC.replace("t.state == 'open'", "t.state == 'done'")),
        );
        expect(changed.status).toBe('applied');
        expect(Number((await read())!.open)).toBe(0);

        const again = await migrate(
          database,
          specModel(SPEC.replace("t.state == 'open'", "t.state == 'done'")),
        );
        expect(again.status).toBe('up-to-date');
      },
    );
  });
}
