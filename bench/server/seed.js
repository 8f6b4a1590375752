// Seeds the benchmark's SQLite file: the schema through the server's own `migrate`, the users through
// `addUser`, and 100,000 claims in one transaction of a prepared insert whose values go through the
// engine's storage encoding (decision 0004), as the server would store them. A copy of the claims
// table, with the same columns and indexes, takes the raw anchor's inserts.
import { encodeValue, systemField } from '@ninefold/engine';
import { addUser, migrate, openDatabase } from '@ninefold/server';
import Sqlite from 'better-sqlite3';
import { join } from 'node:path';
import { uuidv7 } from 'uuidv7';

export const ROWS = 100_000;
export const OWNERS = 10;
/** A clerk who owns one claim in SPARSE_EVERY (60 of 100,000): their list is where plans differ most. */
export const SPARSE_EVERY = 1667;
export const PASSWORD = 'bench password 1';
const CATEGORIES = ['travel', 'meals', 'lodging', 'mileage', 'equipment'];
const MERCHANTS = ['National Rail', 'Hotel Central', 'Taxi Co', 'Cafe Nord', 'Office Depot', 'Air Lines'];
const STATES = ['draft', 'submitted', 'approved', 'rejected'];
const START = Date.parse('2024-01-01T08:00:00.000Z');

/** A small deterministic generator: the same data on every run. */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Creates `claims.sqlite` in `dir`. Returns the file, the users and the ids of the first clerk's claims.
 *
 * @example const seeded = await seed(model, '/tmp/nf-bench');
 */
export async function seed(model, dir) {
  const file = join(dir, 'claims.sqlite');
  const database = await openDatabase({ sqlite: file });
  await migrate(database, model);
  const clerks = [];
  for (let i = 0; i < OWNERS; i++) {
    const email = `clerk${i}@bench.local`;
    clerks.push({
      email,
      ...(await addUser(database, model, {
        email,
        name: `Clerk ${i}`,
        roles: ['clerk'],
        password: PASSWORD,
      })),
    });
  }
  const sparseEmail = 'few@bench.local';
  const sparse = {
    email: sparseEmail,
    ...(await addUser(database, model, {
      email: sparseEmail,
      name: 'Few',
      roles: ['clerk'],
      password: PASSWORD,
    })),
  };
  const managerEmail = 'manager@bench.local';
  const manager = {
    email: managerEmail,
    ...(await addUser(database, model, {
      email: managerEmail,
      name: 'Manager',
      roles: ['manager'],
      password: PASSWORD,
    })),
  };
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
  const next = random(42);
  const clerkIds = [];
  sqlite.transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      const owner = i % SPARSE_EVERY === SPARSE_EVERY - 1 ? sparse.id : clerks[i % OWNERS].id;
      const at = new Date(START + i * 37_000).toISOString();
      const category = CATEGORIES[Math.floor(next() * CATEGORIES.length)];
      const amountCents = 100 + Math.floor(next() * 99_900);
      const record = {
        id: uuidv7(),
        createdAt: at,
        updatedAt: at,
        createdBy: owner,
        version: 1,
        state: STATES[Math.floor(next() * STATES.length)],
        title: `${category} expense ${i}`,
        category,
        amount: (amountCents / 100).toFixed(2),
        spentOn: new Date(START + Math.floor(next() * 700) * 86_400_000).toISOString().slice(0, 10),
        merchant: MERCHANTS[Math.floor(next() * MERCHANTS.length)],
        mileageKm: category === 'mileage' ? Math.floor(next() * 800) : null,
        urgent: next() < 0.1,
        notes: next() < 0.3 ? 'Receipt attached; booked at short notice.' : null,
        submittedBy: owner,
      };
      if (owner === clerks[0].id) clerkIds.push(record.id);
      insert.run(columns.map((c) => encodeValue(stored(c), record[c], 'sqlite')));
    }
  })();

  // the raw anchor's inserts go to a twin of the table: the same columns and the same indexes
  const ddl = sqlite
    .prepare(`select sql from sqlite_master where tbl_name = 'claims' and sql is not null order by type desc`)
    .all();
  sqlite.transaction(() => {
    for (const { sql } of ddl) sqlite.exec(sql.replace(/\bclaims/g, 'claims_raw'));
  })();
  sqlite.close();
  return { file, clerk: clerks[0], sparse, manager, clerkIds };
}
