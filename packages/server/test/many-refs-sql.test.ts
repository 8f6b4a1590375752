/**
 * Conditions over a list of refs (decision 0044) run in SQL over its join table exactly as the
 * engine decides them in JS on the record: a property test over random lists, users and conditions
 * (`user.id in members`, its negation, `size()`, `has()`, with other conditions), on both databases.
 */
import { activation, evaluate, toSqlFilter } from '@ninefold/engine';
import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { listTableOf } from '../src/schema/names.js';
import { writeLists } from '../src/resources/list-refs.js';
import { decodeRow, entityTable, selectColumns } from '../src/resources/records.js';
import { engineFilter } from '../src/resources/sql.js';
import { DIALECTS, givenUser, specModel, testServer } from '@ninefold/testkit';
import { SPEC } from './many-refs-spec.js';

const CONDITIONS = [
  'user.id in members',
  '!(user.id in members)',
  '(user.id in members) == false',
  'size(members) >= 2',
  'size(members) == 1 || title == "b"',
  'has(self.members)',
  '!has(self.members)',
  "user.id in members && !('T1' in tags)",
  "'T1' in tags || !(user.id in members)",
  '(title == "a" ? user.id in members : size(tags) > 0)',
];

for (const dialect of DIALECTS) {
  describe(`${dialect}: a list of refs in SQL agrees with the engine`, () => {
    const model = specModel(SPEC);
    const info = entityTable(model, model.entities['Project']!);
    let server: Awaited<ReturnType<typeof testServer>>;
    const users: string[] = [];

    beforeAll(async () => {
      server = await testServer(dialect, model);
      for (const name of ['a', 'b', 'c'])
        users.push((await givenUser(server, `${name}@example.com`, ['member'])).id);
      const at = '2026-01-01T00:00:00.000Z';
      await server.database.db
        .insertInto('tags')
        .values(['T1', 'T2'].map((id) => ({ id, createdAt: at, updatedAt: at, version: 1, name: id })))
        .execute();
    });

    it('selects exactly the rows whose condition holds in JS', async () => {
      const project = fc.record({
        title: fc.constantFrom('a', 'b'),
        members: fc.subarray([0, 1, 2]).chain((xs) => fc.shuffledSubarray(xs, { minLength: xs.length })),
        tags: fc.subarray(['T1', 'T2']),
      });
      await fc.assert(
        fc.asyncProperty(
          fc.array(project, { maxLength: 5 }),
          fc.constantFrom(...CONDITIONS),
          fc.nat({ max: 2 }),
          async (projects, condition, who) => {
            const db = server.database.db;
            await db.deleteFrom('projects').execute();
            const at = '2026-01-01T00:00:00.000Z';
            for (const [i, p] of projects.entries()) {
              const record = {
                id: `p${i}`,
                createdAt: at,
                updatedAt: at,
                version: 1,
                title: p.title,
                members: p.members.length === 0 ? null : p.members.map((m) => users[m]!),
                tags: p.tags.length === 0 ? null : p.tags,
              };
              await db
                .insertInto('projects')
                .values({ id: record.id, createdAt: at, updatedAt: at, version: 1, title: p.title })
                .execute();
              await writeLists(db, info, null, record);
            }
            const user = { id: users[who]!, roles: ['member'] };
            const now = new Date(at);
            const filter = toSqlFilter(model, 'Project', condition, {
              user,
              now,
              dialect,
              listTable: listTableOf(model),
            });
            const selected = (
              await sql<{
                id: string;
              }>`select id from projects where ${engineFilter(filter)} order by id`.execute(db)
            ).rows.map((r) => r.id);
            const rows = (await db
              .selectFrom('projects')
              .select(selectColumns(info, dialect))
              .orderBy('id')
              .execute()) as Record<string, unknown>[];
            const expected = rows
              .map((row) =>
                decodeRow(
                  info,
                  info.columns.map((c) => row[c]),
                ),
              )
              .filter((record) => {
                const outcome = evaluate(
                  model,
                  'Project',
                  condition,
                  activation(model, 'Project', record, { user, now }),
                );
                return outcome.ok && outcome.value === true;
              })
              .map((record) => String(record['id']));
            expect(selected, `${condition} as user ${who}`).toEqual(expected);
          },
        ),
        { numRuns: 60 },
      );
    }, 120_000);
  });
}
