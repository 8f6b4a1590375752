/**
 * Migrating lists of refs into join tables (decision 0044): a database made by the storage before
 * 0044 (a JSON column per list, recorded so in its last migration's schema document) moves every
 * list into its join table, in order, without loss; a single ref becoming a list keeps its id; a
 * list becoming a single ref is lossy and planned as such; an id naming no record stops it.
 */
import { isJoinList } from '@ninefold/engine';
import { type Model } from '@ninefold/model';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DataLossError, addUser, desiredSchema, diffSchemas, migrate, type Database } from '../src/index.js';
import { applyPlan } from '../src/schema/apply.js';
import { fieldColumn } from '../src/schema/desired.js';
import { type Schema, type Table } from '../src/schema/schema.js';
import { decodeRow, entityTable, selectColumns } from '../src/resources/records.js';
import { DIALECTS, freshDatabase, specModel } from '@ninefold/testkit';

const SPEC = `
product: { name: Teams }
entities:
  Tag:
    fields:
      name: { type: string, required: true }
  Project:
    fields:
      title: { type: string, required: true }
      members: { type: ref, to: User, many: true }
      lead: { type: ref, to: User }
      tags: { type: ref, to: Tag, many: true }
roles:
  admin:
    Project: { read: all, create: true, update: true }
    Tag: { read: all, create: true }
`;
/** The same product before it had lists: the tables the old storage started from. */
const WITHOUT_LISTS = SPEC.replace(/ {6}members: .*\n/, '').replace(/ {6}tags: .*\n/, '');

/**
 * The schema document the storage before decision 0044 made of a model: no join tables, and each
 * list of refs a column of its holder's table (`fieldColumn`, JSON text of meaning `ref:X[]`), in
 * the order of the entity's fields.
 */
function legacySchema(model: Model): Schema {
  const schema = desiredSchema(model);
  const tables: Record<string, Table> = {};
  for (const [name, table] of Object.entries(schema.tables)) {
    if (table.join !== undefined) continue;
    const entity = Object.values(model.entities).find((e) => e.name === table.entity);
    if (entity === undefined) {
      tables[name] = table;
      continue;
    }
    const columns = [...table.columns];
    const fields = Object.values(entity.fields);
    fields.forEach((field, i) => {
      if (!isJoinList(field)) return;
      const previous = fields
        .slice(0, i)
        .reverse()
        .find((f) => !isJoinList(f));
      const at =
        previous === undefined
          ? columns.findIndex(
              (c) => !['id', 'createdAt', 'updatedAt', 'createdBy', 'version', 'state'].includes(c.name),
            )
          : columns.findIndex((c) => c.name === previous.name) + 1;
      columns.splice(at < 0 ? columns.length : at, 0, fieldColumn(field, model));
    });
    tables[name] = { ...table, columns };
  }
  return { ...schema, tables };
}

/** A database migrated by the storage before decision 0044, for `model`. */
async function legacyDatabase(dialect: (typeof DIALECTS)[number], model: Model): Promise<Database> {
  const { database } = await freshDatabase(dialect);
  const start = await migrate(database, specModel(WITHOUT_LISTS));
  const before = desiredSchema(specModel(WITHOUT_LISTS));
  const legacy = legacySchema(model);
  await applyPlan(database.db, dialect, diffSchemas(before, legacy));
  await database.db
    .updateTable('ninefold_migrations')
    .set({ schema: JSON.stringify(legacy) })
    .where('id', '=', start.id)
    .execute();
  return database;
}

async function projects(database: Database, model: Model) {
  const info = entityTable(model, model.entities['Project']!);
  const rows = (await database.db
    .selectFrom(info.table)
    .select(selectColumns(info, database.dialect))
    .orderBy('id')
    .execute()) as Record<string, unknown>[];
  return rows.map((row) =>
    decodeRow(
      info,
      info.columns.map((c) => row[c]),
    ),
  );
}

const row = (id: string, fields: Record<string, unknown>) => ({
  id,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 1,
  ...fields,
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: migrating lists of refs into join tables`, () => {
    it('moves every JSON list of a database made by the old storage into its join table, in order', async () => {
      const model = specModel(SPEC);
      const database = await legacyDatabase(dialect, model);
      const users = [];
      for (const name of ['a', 'b', 'c'])
        users.push(
          (await addUser(database, model, { email: `${name}@example.com`, name, roles: ['admin'] })).id,
        );
      const [a, b, c] = users as [string, string, string];
      await database.db
        .insertInto('tags')
        .values([row('t1', { name: 'one' }), row('t2', { name: 'two' })])
        .execute();
      await database.db
        .insertInto('projects')
        .values([
          row('p1', {
            title: 'Ordered',
            members: JSON.stringify([c, a, b]),
            tags: JSON.stringify(['t2', 't1']),
          }),
          row('p2', { title: 'Repeated', members: JSON.stringify([b, b, a]) }),
          row('p3', { title: 'Empty', members: '[]' }),
          row('p4', { title: 'None' }),
        ])
        .execute();

      const outcome = await migrate(database, model);
      expect(outcome.plan.lossy).toBe(false);
      expect(outcome.planText).toContain('create table projects__members');
      expect(outcome.planText).toContain(
        'move projects.members into projects__members (every list kept, in order)',
      );
      expect(outcome.planText).toContain('move projects.tags into projects__tags');
      expect(outcome.planText).not.toContain('drop column');

      const after = await projects(database, model);
      expect(after.map((p) => [p['id'], p['members'], p['tags']])).toEqual([
        ['p1', [c, a, b], ['t2', 't1']],
        ['p2', [b, a], null],
        ['p3', null, null],
        ['p4', null, null],
      ]);
      // the JSON column is gone, and a second start has nothing to do
      const columns = Object.keys(
        (await database.db
          .selectFrom('projects')
          .selectAll()
          .where('id', '=', 'p1')
          .executeTakeFirstOrThrow()) as object,
      );
      expect(columns).not.toContain('members');
      expect((await migrate(database, model)).status).toBe('up-to-date');
      // the join table's keys hold: a listed user cannot go, a holder takes its rows along
      await expect(database.db.deleteFrom('users').where('id', '=', c).execute()).rejects.toThrow();
      await database.db.deleteFrom('projects').where('id', '=', 'p1').execute();
      const left = await sql<{
        n: unknown;
      }>`select count(*) as n from projects__members where holder = 'p1'`.execute(database.db);
      expect(Number(left.rows[0]?.n)).toBe(0);
    });

    it('keeps a single ref as a one-id list, and plans a list becoming single as lossy', async () => {
      const single = specModel(
        SPEC.replace('members: { type: ref, to: User, many: true }', 'members: { type: ref, to: User }'),
      );
      const { database } = await freshDatabase(dialect);
      await migrate(database, single);
      const u = (await addUser(database, single, { email: 'u@example.com', name: 'U', roles: ['admin'] })).id;
      await database.db
        .insertInto('projects')
        .values([row('p1', { title: 'One', members: u })])
        .execute();
      const many = specModel(SPEC);
      const outcome = await migrate(database, many);
      expect(outcome.plan.lossy).toBe(false);
      expect((await projects(database, many))[0]?.['members']).toEqual([u]);

      const refused = await migrate(database, single).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(DataLossError);
      expect((refused as DataLossError).planText).toContain('! drop table projects__members');
    });

    it('stops, changing nothing, when a list names a record that does not exist', async () => {
      const model = specModel(SPEC);
      const database = await legacyDatabase(dialect, model);
      await database.db
        .insertInto('projects')
        .values([row('p1', { title: 'Dangling', members: JSON.stringify(['nobody']) })])
        .execute();
      await expect(migrate(database, model)).rejects.toThrow(/projects p1 lists nobody/);
      const kept = await database.db.selectFrom('projects').selectAll().executeTakeFirstOrThrow();
      expect(kept['members']).toBe('["nobody"]');
    });
  });
}
