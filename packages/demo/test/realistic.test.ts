/**
 * Demo values read like real data, seeded through the API for every example: what "real" means here
 * is asserted, not eyed —
 * - no text is a placeholder: none says sample, lorem, e2e or test, and none is a word and a
 *   number ("Name 1");
 * - a person's name (a `name` on a person-like entity, the demo accounts) is a first and a last
 *   name from the word list, and an e-mail address on the same record is made of that name;
 * - a title or subject has at least two words;
 * - the dates of a series span at least 14 days (the fields a timed transition fires at excepted:
 *   they lie around now on purpose, decision 0011);
 * - the same seed makes the same values, another seed others.
 */
import { describe, expect, it } from 'vitest';
import { type Model } from '@ninefold/model';
import { type Database, buildApp, migrate, tableName } from '@ninefold/server';
import { DIALECTS, exampleModel, freshDatabase } from '@ninefold/testkit';
import { seedDemoAccounts, seedDemoData, timedFields } from '../src/index.js';
import { FIRST_NAMES, LAST_NAMES } from '../src/words.js';

const EXAMPLES = ['expense-claims.md', 'helpdesk.md', 'library-loans.md', 'bookings.yaml', 'orders.md'];
const PLACEHOLDER = [/\b(sample|lorem|ipsum|e2e|test|placeholder|foo|bar)\b/i, /^[A-Za-z]+ \d+$/];
const PERSON_ENTITY = /user|person|member|employee|customer|contact/i;
const DAY = 86_400_000;

type Row = Record<string, unknown>;

async function seeded(dialect: (typeof DIALECTS)[number], file: string, seed?: string) {
  const model = exampleModel(file);
  const { database } = await freshDatabase(dialect);
  await migrate(database, model);
  const accounts = await seedDemoAccounts(database, model);
  const app = buildApp({ model, database, logger: false });
  const { created } = await seedDemoData(app, database, model, accounts, seed === undefined ? {} : { seed });
  await app.close();
  return { model, database, created };
}

async function rowsOf(database: Database, model: Model, entity: string): Promise<Row[]> {
  return database.db
    .selectFrom(tableName(model.entities[entity]!.resource))
    .selectAll()
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
}

/** The values a person typed or the demo chose: strings and numbers of the entity's writable fields. */
function typedValues(model: Model, entity: string, rows: readonly Row[]): unknown[][] {
  const fields = Object.values(model.entities[entity]!.fields).filter(
    (f) =>
      !f.readonly &&
      ['string', 'text', 'email', 'phone', 'url', 'integer', 'decimal', 'money', 'date', 'time'].includes(
        f.type,
      ),
  );
  return rows.map((r) => fields.map((f) => r[f.name] ?? null));
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: demo values read like real data`, () => {
    for (const file of EXAMPLES) {
      it(
        `${file}: no placeholders, people's names and their addresses, titles, dates over weeks`,
        { timeout: 90_000 },
        async () => {
          const { model, database, created } = await seeded(dialect, file);
          const users = await rowsOf(database, model, 'User');
          for (const user of users) {
            const [first, last] = String(user['name']).split(' ');
            expect(FIRST_NAMES, String(user['name'])).toContain(first);
            expect(LAST_NAMES, String(user['name'])).toContain(last);
          }
          for (const entity of Object.keys(created)) {
            const rows = await rowsOf(database, model, entity);
            const fields = Object.values(model.entities[entity]!.fields);
            for (const field of fields) {
              const values = rows.map((r) => r[field.name]).filter((v) => v !== null && v !== undefined);
              if (field.type === 'string' || field.type === 'text') {
                for (const value of values)
                  for (const pattern of PLACEHOLDER)
                    expect(String(value), `${entity}.${field.name}`).not.toMatch(pattern);
              }
              if (/^(title|subject)$/.test(field.name)) {
                expect(values.length).toBeGreaterThan(0);
                for (const value of values)
                  expect(String(value).split(/\s+/).length, `${entity}.${field.name}`).toBeGreaterThanOrEqual(
                    2,
                  );
              }
              if (
                (field.type === 'date' || field.type === 'datetime') &&
                !field.readonly &&
                !timedFields(model, entity).includes(field.name) &&
                values.length >= 4
              ) {
                const times = values.map((v) => Date.parse(String(v)));
                expect(
                  Math.max(...times) - Math.min(...times),
                  `${entity}.${field.name} spans weeks`,
                ).toBeGreaterThanOrEqual(14 * DAY);
              }
            }
            if (PERSON_ENTITY.test(entity) && fields.some((f) => f.name === 'name')) {
              for (const row of rows) {
                const [first, last] = String(row['name']).split(' ');
                expect(FIRST_NAMES).toContain(first);
                expect(LAST_NAMES).toContain(last);
                const email = fields.find((f) => f.type === 'email');
                if (email !== undefined && row[email.name] !== null) {
                  const plain = (s: string) =>
                    s
                      .normalize('NFD')
                      .replace(/[\u0300-\u036f]/g, '')
                      .toLowerCase();
                  expect(String(row[email.name])).toMatch(
                    new RegExp(`^${plain(first!)}\\.${plain(last!)}\\d*@example\\.(com|org)$`),
                  );
                }
              }
            }
          }
          await database.close();
        },
      );
    }

    it('makes the same values from the same seed, and others from another', { timeout: 90_000 }, async () => {
      const one = await seeded(dialect, 'expense-claims.md');
      const two = await seeded(dialect, 'expense-claims.md');
      const other = await seeded(dialect, 'expense-claims.md', 'another');
      for (const entity of ['Department', 'Claim']) {
        const values = typedValues(one.model, entity, await rowsOf(one.database, one.model, entity));
        expect(values.length).toBeGreaterThan(0);
        expect(typedValues(two.model, entity, await rowsOf(two.database, two.model, entity))).toEqual(values);
        expect(
          typedValues(other.model, entity, await rowsOf(other.database, other.model, entity)),
        ).not.toEqual(values);
      }
      for (const { database } of [one, two, other]) await database.close();
    });
  });
}
