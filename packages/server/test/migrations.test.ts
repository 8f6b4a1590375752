import { compile, translationLocale } from '@ninefold/language';
import { readFileSync, readdirSync } from 'node:fs';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DataLossError, addUser, listMigrations, listUsers, migrate, tableName } from '../src/index.js';
import { DIALECTS, freshDatabase, opensTwice, reopen, specModel } from '@ninefold/testkit';

const V1 = `
product: { name: Notes }
entities:
  Note:
    fields:
      title: { type: string, required: true }
      body: { type: text }
      amount: { type: money, currency: EUR }
      pinned: { type: boolean }
      tags: { type: enum, values: [home, work], many: true }
roles:
  writer: { Note: { read: true, create: true, update: true } }
`;

/** V1 plus a new entity, a new optional field and a required field with a default. */
const V2_ADDITIVE = V1.replace(
  '      pinned: { type: boolean }',
  `      pinned: { type: boolean }
      colour: { type: enum, values: [red, blue] }
      priority: { type: integer, required: true, default: 3 }`,
).replace(
  'roles:',
  `  Folder:
    fields:
      name: { type: string, required: true, unique: true }
roles:`,
);

/** V1 without the body field. */
const V3_LOSSY = V1.replace('      body: { type: text }\n', '');

for (const dialect of DIALECTS) {
  describe(`${dialect}: migrations`, () => {
    it('creates every table of a fresh database in one recorded migration', async () => {
      const { database } = await freshDatabase(dialect);
      const model = specModel(V1);
      const outcome = await migrate(database, model);
      expect(outcome.status).toBe('applied');
      expect(outcome.planText).toContain('create table notes for Note');
      expect(outcome.planText).toContain('create index notes_createdat_id_ix');
      const row = {
        id: 'n1',
        createdAt: 'x',
        updatedAt: 'x',
        version: 1,
        title: 'Hi',
        amount: 1250,
        pinned: dialect === 'sqlite' ? 1 : true,
      };
      await database.db.insertInto(tableName('notes')).values(row).execute();
      expect(await listMigrations(database)).toHaveLength(1);
      if (dialect === 'postgres') {
        // text is indexed in code-point order, the order the engine's SQL compares in
        const { rows } = await sql<{ indexdef: string }>`
          select indexdef from pg_indexes where indexname = 'notes_createdat_id_ix' and schemaname = current_schema()`.execute(
          database.db,
        );
        expect(rows[0]?.indexdef).toContain('"createdAt" COLLATE "C", id COLLATE "C"');
      }
      // a second start with the same spec has nothing to do
      expect((await migrate(database, model)).status).toBe('up-to-date');
      expect(await listMigrations(database)).toHaveLength(1);
    });

    it('applies additive changes, backfills defaults and records the plan', async () => {
      const { database } = await freshDatabase(dialect);
      await migrate(database, specModel(V1));
      await database.db
        .insertInto('notes')
        .values({ id: 'n1', createdAt: 'x', updatedAt: 'x', version: 1, title: 'Kept' })
        .execute();

      const outcome = await migrate(database, specModel(V2_ADDITIVE));
      expect(outcome.status).toBe('applied');
      expect(outcome.plan.lossy).toBe(false);
      expect(outcome.planText).toContain('create table folders for Folder');
      expect(outcome.planText).toContain('add column notes.colour (enum)');
      expect(outcome.planText).toContain('add column notes.priority (integer), existing records get 3');
      expect(outcome.planText).toContain('create unique index folders_name_ux');

      const note = await database.db
        .selectFrom('notes')
        .selectAll()
        .where('id', '=', 'n1')
        .executeTakeFirstOrThrow();
      expect(note['title']).toBe('Kept');
      expect(Number(note['priority'])).toBe(3);
      expect(note['colour']).toBeNull();
      const migrations = await listMigrations(database);
      expect(migrations.map((m) => m.id)).toEqual([2, 1]);
      expect(migrations[0]?.plan).toBe(outcome.planText);
    });

    it('refuses a lossy change with a printed plan, changes nothing, and applies it when accepted', async () => {
      const { database } = await freshDatabase(dialect);
      await migrate(database, specModel(V1));
      await database.db
        .insertInto('notes')
        .values({ id: 'n1', createdAt: 'x', updatedAt: 'x', version: 1, title: 'T', body: 'precious' })
        .execute();

      const refused = await migrate(database, specModel(V3_LOSSY)).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(DataLossError);
      const error = refused as DataLossError;
      expect(error.planText).toContain('! drop column notes.body (its values are deleted)');
      expect(error.message).toContain('--accept-data-loss');
      const untouched = await database.db.selectFrom('notes').selectAll().executeTakeFirstOrThrow();
      expect(untouched['body']).toBe('precious');
      expect(await listMigrations(database)).toHaveLength(1);

      const accepted = await migrate(database, specModel(V3_LOSSY), { acceptDataLoss: true });
      expect(accepted.status).toBe('applied');
      const after = await database.db.selectFrom('notes').selectAll().executeTakeFirstOrThrow();
      expect(after).not.toHaveProperty('body');
      expect(after['title']).toBe('T');
    });

    it('drops a column the server no longer keeps in its own tables without asking, keeping the rows', async () => {
      const { database } = await freshDatabase(dialect);
      await migrate(database, specModel(V1));
      // a database made by a server that still kept the SHA-256 of every uploaded file (issue 18)
      await sql`alter table ninefold_files add column sha256 text`.execute(database.db);
      const last = await database.db
        .selectFrom('ninefold_migrations')
        .select(['id', 'schema'])
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      const schema = JSON.parse(String(last.schema)) as {
        tables: Record<string, { columns: Array<Record<string, unknown>> }>;
      };
      const files = schema.tables['ninefold_files']!;
      files.columns.push({
        ...files.columns.find((c) => c['name'] === 'name'),
        name: 'sha256',
        meaning: 'sha256',
      });
      await database.db
        .updateTable('ninefold_migrations')
        .set({ schema: JSON.stringify(schema) })
        .where('id', '=', last.id)
        .execute();
      await database.db
        .insertInto('ninefold_files')
        .values({
          id: 'f1',
          name: 'r.pdf',
          size: 3,
          type: 'application/pdf',
          sha256: 'abc',
          uploaded_by: 'u1',
          uploaded_at: 'x',
        })
        .execute();

      const outcome = await migrate(database, specModel(V1));
      expect(outcome.status).toBe('applied');
      expect(outcome.plan.lossy).toBe(false);
      expect(outcome.planText).toBe('  drop column ninefold_files.sha256 (the server no longer keeps it)');
      const row = await database.db.selectFrom('ninefold_files').selectAll().executeTakeFirstOrThrow();
      expect(row).not.toHaveProperty('sha256');
      expect(row['name']).toBe('r.pdf');
      // a product's column is the product's data: dropping one still asks (the test above)
    });

    it('treats a narrowed type and a field made required without a default as lossy', async () => {
      const { database } = await freshDatabase(dialect);
      await migrate(database, specModel(V1));
      const retyped = V1.replace('body: { type: text }', 'body: { type: integer }');
      await expect(migrate(database, specModel(retyped))).rejects.toThrow(
        /change notes\.body from text to integer/,
      );
      const required = V1.replace('body: { type: text }', 'body: { type: text, required: true }');
      await expect(migrate(database, specModel(required))).rejects.toThrow(
        /make notes\.body required without a default/,
      );
      const fewerTags = V1.replace('values: [home, work]', 'values: [home]');
      await expect(migrate(database, specModel(fewerTags))).rejects.toThrow(/remove work from notes\.tags/);
      // widening is not
      const widened = V1.replace(
        'title: { type: string, required: true }',
        'title: { type: text, required: true }',
      );
      expect((await migrate(database, specModel(widened))).plan.lossy).toBe(false);
    });

    it('rescales money without loss when decimal places are added', async () => {
      const { database } = await freshDatabase(dialect);
      await migrate(database, specModel(V1));
      await database.db
        .insertInto('notes')
        .values({ id: 'n1', createdAt: 'x', updatedAt: 'x', version: 1, title: 'T', amount: 1250 })
        .execute();
      const finer = V1.replace(
        'amount: { type: money, currency: EUR }',
        'amount: { type: decimal, scale: 4 }',
      );
      const outcome = await migrate(database, specModel(finer));
      expect(outcome.plan.lossy).toBe(false);
      const row = await database.db.selectFrom('notes').select('amount').executeTakeFirstOrThrow();
      expect(Number(row['amount'])).toBe(125_000);
    });

    it('keeps every record and user across a restart', async () => {
      const { database, target } = await freshDatabase(dialect, { persistent: true });
      const model = specModel(V1);
      await migrate(database, model);
      await database.db
        .insertInto('notes')
        .values({ id: 'n1', createdAt: 'x', updatedAt: 'x', version: 1, title: 'Survives' })
        .execute();
      await addUser(database, model, {
        email: 'ann@example.com',
        name: 'Ann',
        roles: ['writer'],
        password: 'long enough',
      });
      await database.close();

      const again = await reopen(target);
      expect((await migrate(again, model)).status).toBe('up-to-date');
      const notes = await again.db.selectFrom('notes').select('title').execute();
      expect(notes).toEqual([{ title: 'Survives' }]);
      expect((await listUsers(again, model)).map((u) => u.email)).toEqual(['ann@example.com']);
    });

    // PGlite is one in-process database: no second process can start beside it, so the race exists
    // only on SQLite files and PostgreSQL servers
    if (opensTwice(dialect))
      it('lets only one of two concurrent start-ups migrate', async () => {
        const { database, target } = await freshDatabase(dialect, { persistent: true });
        const other = await reopen(target);
        const model = specModel(V1);
        const outcomes = await Promise.all([migrate(database, model), migrate(other, model)]);
        expect(outcomes.map((o) => o.status).sort()).toEqual(['applied', 'up-to-date']);
        expect(await listMigrations(database)).toHaveLength(1);
      });
  });
}

const EXAMPLES = new URL('../../../examples/', import.meta.url);

for (const dialect of DIALECTS) {
  describe(`${dialect}: every example`, () => {
    // a spec's translation file (`orders.fr-FR.yaml`) is not a spec (decision 0068)
    const specs = readdirSync(EXAMPLES).filter(
      (f) => /\.(md|txt|ya?ml)$/.test(f) && translationLocale(f) === null,
    );
    for (const file of specs) {
      it(`migrates ${file} and finds nothing to do at the next start`, async () => {
        const result = compile(readFileSync(new URL(file, EXAMPLES), 'utf8'), { file });
        if (!result.ok) throw new Error(`${file} does not compile`);
        const { database } = await freshDatabase(dialect);
        expect((await migrate(database, result.model)).status).toBe('applied');
        expect((await migrate(database, result.model)).status).toBe('up-to-date');
      });
    }
  });
}
