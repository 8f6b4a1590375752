import { accessFor } from '@ninefold/engine';
import { describe, expect, it } from 'vitest';
import { buildApp, migrate, tableName } from '@ninefold/server';
import { DIALECTS, exampleModel, freshDatabase } from '@ninefold/testkit';
import { demoApi, seedDemoAccounts, seedDemoData } from '../src/index.js';

const EXAMPLES = [
  'expense-claims.md',
  'helpdesk.md',
  'library-loans.md',
  'bookings.yaml',
  'seed.txt',
  'orders.md',
];

for (const dialect of DIALECTS) {
  describe(`${dialect}: demo data`, () => {
    for (const file of EXAMPLES) {
      it(
        `fills ${file} through the API, once, so that every role sees what it may read`,
        { timeout: 90_000 },
        async () => {
          const model = exampleModel(file);
          const { database } = await freshDatabase(dialect);
          await migrate(database, model);
          const accounts = await seedDemoAccounts(database, model);
          const sessions = new Map<string, string>();
          const app = buildApp({ model, database, logger: false });
          const { created } = await seedDemoData(app, database, model, accounts, {
            perEntity: 3,
            sessions,
          });

          await app.close();
          // a second instance checks, with the demo accounts' sessions (on PostgreSQL the sign-in limit
          // is shared: signing every account in again would count against it)
          const later = buildApp({ model, database, logger: false });
          const api = demoApi(later, model, accounts, sessions);
          const entities = Object.values(model.entities).filter((e) => !e.builtin);
          for (const entity of entities) {
            const creatable = Object.values(model.roles).some((r) => {
              const access = r.entities[entity.name];
              return access !== undefined && access.create !== false;
            });
            // the series, and any records made so that every role's list screens show something
            if (creatable) expect(created[entity.name] ?? 0, entity.name).toBeGreaterThanOrEqual(3);
            else expect(created[entity.name] ?? 0, entity.name).toBe(0);
          }
          for (const role of Object.keys(model.roles)) {
            const user = await api.userContext(role);
            for (const entity of entities) {
              if (created[entity.name] === undefined || accessFor(model, user, 'read', entity.name) === false)
                continue;
              const answer = await api.call<{ data: unknown[] }>(role, 'GET', `${entity.resource}?limit=50`);
              expect(answer.status, `${role} lists ${entity.name}`).toBe(200);
              expect(answer.body.data.length, `${role} sees some ${entity.name}`).toBeGreaterThan(0);
            }
          }
          for (const [entity, machine] of Object.entries(model.states)) {
            const rows = await database.db
              .selectFrom(tableName(model.entities[entity]!.resource))
              .select('state')
              .execute();
            const states = new Set(rows.map((r) => r['state']));
            if (Object.keys(machine.states).length > 1)
              expect(states.size, `${entity}: states shown`).toBeGreaterThan(1);
          }

          // every parent has children to show and count (decision 0045)
          for (const parent of entities) {
            for (const relation of Object.values(parent.children)) {
              const child = model.entities[relation.entity]!;
              const rows = await database.db
                .selectFrom(tableName(child.resource))
                .select(relation.via)
                .execute();
              const parents = new Set(rows.map((r) => r[relation.via]));
              // the series' parents each have children (those made later for a queue may not)
              expect(parents.size, `${parent.name}.${relation.name}`).toBeGreaterThanOrEqual(3);
            }
          }

          const again = await seedDemoData(later, database, model, accounts);
          expect(again.created).toEqual({});
          await later.close();
        },
      );
    }
  });
}
