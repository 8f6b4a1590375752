/**
 * Foreign keys in migrations (decision 0043), on every database: a database migrated before refs
 * were foreign keys gets them, its rows and indexes kept (SQLite rebuilds the table); one whose
 * refs point at nothing is refused with the rows named, nothing changed, and `--accept-data-loss`
 * empties exactly those refs. A ref that stops being one loses its foreign key.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DanglingRefsError, DataLossError, listMigrations, migrate, schemaHash } from '../src/index.js';
import { type Database } from '../src/db/open.js';
import { rebuildSqliteTable } from '../src/schema/foreign-keys.js';
import { type Column, type Schema } from '../src/schema/schema.js';
import { DIALECTS, freshDatabase, specModel } from '@ninefold/testkit';

const SPEC = `
entities:
  Category:
    fields:
      name: { type: string, required: true }
  Product:
    fields:
      name: { type: string, required: true, unique: true }
      category: { type: ref, to: Category }
roles:
  clerk: { Category: true, Product: true }
`;

const GONE = ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b'];

/** The database as a migration before foreign keys left it: `products.category` without one. */
async function withoutForeignKey(database: Database): Promise<void> {
  const db = database.db;
  if (database.dialect === 'sqlite') {
    await sql`pragma foreign_keys = off`.execute(db);
    await db
      .transaction()
      .execute((tx) => rebuildSqliteTable(tx, 'products', { column: 'category', references: null }));
    await sql`pragma foreign_keys = on`.execute(db);
  } else {
    await sql`alter table products drop constraint products_category_fk`.execute(db);
  }
  const row = await db
    .selectFrom('ninefold_migrations')
    .select(['id', 'schema'])
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const schema = JSON.parse(String(row['schema'])) as Schema;
  const products = schema.tables['products']!;
  const stripped: Schema = {
    ...schema,
    tables: {
      ...schema.tables,
      products: {
        ...products,
        columns: products.columns.map((c) => (c.name === 'category' ? withoutReferences(c) : c)),
      },
    },
  };
  await db
    .updateTable('ninefold_migrations')
    .set({ schema: JSON.stringify(stripped), schema_hash: schemaHash(stripped) })
    .where('id', '=', row['id'])
    .execute();
}

/** A column as it was before foreign keys: without `references`. */
function withoutReferences(column: Column): Column {
  const { references: _dropped, ...rest } = column;
  return rest;
}

const at = '2026-01-01T00:00:00.000Z';
const product = (id: string, name: string, category: string | null) => ({
  id,
  createdAt: at,
  updatedAt: at,
  version: 1,
  name,
  category,
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: foreign keys in migrations`, () => {
    it('refuses to add a foreign key over dangling refs, names the rows, and changes nothing', async () => {
      const { database } = await freshDatabase(dialect);
      const model = specModel(SPEC);
      await migrate(database, model);
      await withoutForeignKey(database);
      await database.db
        .insertInto('categories')
        .values({ id: 'c1', createdAt: at, updatedAt: at, version: 1, name: 'Tools' })
        .execute();
      await database.db
        .insertInto('products')
        .values([
          product('p1', 'Saw', 'c1'),
          product('p2', 'Hammer', GONE[0]!),
          product('p3', 'Drill', GONE[1]!),
          product('p4', 'Plane', null),
        ])
        .execute();

      const refused = await migrate(database, model).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(DanglingRefsError);
      expect(refused).toBeInstanceOf(DataLossError); // the CLI and start-up refuse it as they refuse a lossy plan
      const error = refused as DanglingRefsError;
      expect(error.count).toBe(2);
      expect(error.dangling).toEqual([
        { table: 'products', id: 'p2', column: 'category', missing: GONE[0] },
        { table: 'products', id: 'p3', column: 'category', missing: GONE[1] },
      ]);
      expect(error.message).toContain(`products p2: category → ${GONE[0]!} (no such record)`);
      expect(error.message).toContain('make products.category a foreign key to categories');
      expect(error.message).toContain('--accept-data-loss');
      expect(await listMigrations(database)).toHaveLength(1);
      const rows = await database.db
        .selectFrom('products')
        .select(['id', 'category'])
        .orderBy('id')
        .execute();
      expect(rows.map((r) => r['category'])).toEqual(['c1', GONE[0], GONE[1], null]);
      // still no foreign key: a dangling ref can still be written
      await database.db
        .insertInto('products')
        .values(product('p5', 'Vice', GONE[0]!))
        .execute();
      await database.db.deleteFrom('products').where('id', '=', 'p5').execute();

      const accepted = await migrate(database, model, { acceptDataLoss: true });
      expect(accepted.status).toBe('applied');
      const after = await database.db
        .selectFrom('products')
        .select(['id', 'category'])
        .orderBy('id')
        .execute();
      expect(after.map((r) => r['category'])).toEqual(['c1', null, null, null]);
      await expect(
        database.db
          .insertInto('products')
          .values(product('p6', 'Vice', GONE[0]!))
          .execute(),
      ).rejects.toThrow(/foreign key/i);
      // the unique index survived the rebuild
      await expect(
        database.db
          .insertInto('products')
          .values(product('p7', 'Saw', null))
          .execute(),
      ).rejects.toThrow(/unique|duplicate/i);
      expect((await migrate(database, model)).status).toBe('up-to-date');
    });

    it('adds the foreign key without a word when every ref points at a record', async () => {
      const { database } = await freshDatabase(dialect);
      const model = specModel(SPEC);
      await migrate(database, model);
      await withoutForeignKey(database);
      await database.db
        .insertInto('categories')
        .values({ id: 'c1', createdAt: at, updatedAt: at, version: 1, name: 'Tools' })
        .execute();
      await database.db
        .insertInto('products')
        .values([product('p1', 'Saw', 'c1'), product('p2', 'Drill', null)])
        .execute();
      const outcome = await migrate(database, model);
      expect(outcome.planText).toContain('  make products.category a foreign key to categories');
      expect(outcome.plan.lossy).toBe(false);
      expect(await database.db.selectFrom('products').select('id').execute()).toHaveLength(2);
      await expect(database.db.deleteFrom('categories').execute()).rejects.toThrow(/foreign key/i);
    });

    it('drops the foreign key of a ref that stops being one, keeping its values', async () => {
      const { database } = await freshDatabase(dialect);
      await migrate(database, specModel(SPEC));
      await database.db
        .insertInto('categories')
        .values({ id: 'c1', createdAt: at, updatedAt: at, version: 1, name: 'Tools' })
        .execute();
      await database.db
        .insertInto('products')
        .values(product('p1', 'Saw', 'c1'))
        .execute();
      // the product no longer refers to a category: the column goes, and its foreign key with it
      const outcome = await migrate(
        database,
        specModel(SPEC.replace('      category: { type: ref, to: Category }\n', '')),
        {
          acceptDataLoss: true,
        },
      );
      expect(outcome.planText).toContain('drop column products.category');
      expect(await database.db.selectFrom('products').select('name').execute()).toEqual([{ name: 'Saw' }]);
      await database.db.deleteFrom('categories').execute();
    });
  });
}
