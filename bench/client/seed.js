// Seeds the client benchmark's SQLite file: the schema through the server's own `migrate`, one clerk
// through `addUser`, and 10,000 claims in one transaction of a prepared insert whose values go through
// the engine's storage encoding, as the server would store them. Every title is unique
// (`Claim #00042 travel`), so a page can tell which row it shows.
import { encodeValue, systemField } from '@ninefold/engine';
import { addUser, migrate, openDatabase } from '@ninefold/server';
import Sqlite from 'better-sqlite3';
import { join } from 'node:path';
import { uuidv7 } from 'uuidv7';

export const ROWS = 10_000;
export const PASSWORD = 'bench password 1';
export const EMAIL = 'clerk@bench.local';
const CATEGORIES = ['travel', 'meals', 'lodging', 'mileage', 'equipment'];
const MERCHANTS = ['National Rail', 'Hotel Central', 'Taxi Co', 'Cafe Nord', 'Office Depot', 'Air Lines'];
const START = Date.parse('2025-01-01T08:00:00.000Z');

/** A small deterministic generator: the same data on every run. */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The title of the i-th claim: unique, and no title is a prefix of another. */
export const claimTitle = (i, category) => `Claim #${String(i).padStart(5, '0')} ${category}`;

/**
 * Creates `ninefold.sqlite` in `dir` (where `startServer` would keep it). Returns the file and the clerk.
 *
 * @example const seeded = await seed(model, '/tmp/nf-bench-client');
 */
export async function seed(model, dir) {
  const file = join(dir, 'ninefold.sqlite');
  const database = await openDatabase({ sqlite: file });
  await migrate(database, model);
  const clerk = await addUser(database, model, {
    email: EMAIL,
    name: 'Bench Clerk',
    roles: ['clerk'],
    password: PASSWORD,
  });
  await database.close();

  const sqlite = new Sqlite(file);
  const entity = model.entities['Claim'];
  const columns = sqlite
    .prepare(`select name from pragma_table_info('claims')`)
    .all()
    .map((c) => c.name);
  const stored = (name) => entity.fields[name] ?? systemField(name);
  const insert = sqlite.prepare(
    `insert into claims (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`,
  );
  const next = random(7);
  sqlite.transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      const at = new Date(START + i * 61_000).toISOString();
      const category = CATEGORIES[Math.floor(next() * CATEGORIES.length)];
      const record = {
        id: uuidv7(),
        createdAt: at,
        updatedAt: at,
        createdBy: clerk.id,
        version: 1,
        title: claimTitle(i, category),
        category,
        amount: ((100 + Math.floor(next() * 99_900)) / 100).toFixed(2),
        spentOn: new Date(START + Math.floor(next() * 500) * 86_400_000).toISOString().slice(0, 10),
        merchant: MERCHANTS[Math.floor(next() * MERCHANTS.length)],
        urgent: next() < 0.1,
      };
      insert.run(columns.map((c) => encodeValue(stored(c), record[c] ?? null, 'sqlite')));
    }
  })();
  sqlite.close();
  return { file, clerk: { ...clerk, email: EMAIL } };
}
