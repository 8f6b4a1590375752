/**
 * `/ready` asks whether the database can serve this instance's spec, not whether it holds exactly
 * its schema (decision 0059): an instance of the old spec stays ready after the pre-deploy step
 * added a field, a screen's index or a table for the new one; it answers 503 naming the column once
 * a migration removed or retyped one it needs; and its verdict follows each new migration.
 */
import { describe, expect, it } from 'vitest';
import { DIALECTS, freshDatabase, problem, specModel } from '@ninefold/testkit';
import { type Model } from '@ninefold/model';
import { type Database, buildApp, compatibilityProblems, desiredSchema, migrate } from '../src/index.js';

const V1 = `
product: { name: Notes }
entities:
  Note:
    fields:
      title: { type: string, required: true }
      body: { type: text }
      size: { type: integer }
roles:
  writer: { Note: true }
`;

/** v2: a field, a screen sorted on it (an index), and a table. */
const V2 = `
product: { name: Notes }
entities:
  Note:
    fields:
      title: { type: string, required: true }
      body: { type: text }
      size: { type: integer }
      tag: { type: string }
  Label:
    fields:
      name: { type: string }
roles:
  writer: { Note: true, Label: true }
screens:
  tagged: { path: /tagged, entity: Note, title: Tagged, sort: tag }
`;

/** v3, lossy: drops v1's body and makes its size a string. */
const V3 = V2.replace('      body: { type: text }\n', '').replace(
  'size: { type: integer }',
  'size: { type: string }',
);

for (const dialect of DIALECTS) {
  describe(`${dialect}: /ready is about compatibility`, () => {
    async function ready(database: Database, model: Model) {
      const app = buildApp({ model, database, logger: false });
      return { app, check: () => app.inject({ method: 'GET', url: '/ready' }) };
    }

    it('keeps an old instance ready through an additive migration, and names what a lossy one took from it', async () => {
      const [v1, v2, v3] = [specModel(V1), specModel(V2), specModel(V3)];
      const { database } = await freshDatabase(dialect);
      await migrate(database, v1);
      const old = await ready(database, v1);
      const next = await ready(database, v2);
      try {
        expect((await old.check()).statusCode).toBe(200);
        // the new spec before the pre-deploy step: what it lacks, named
        const early = problem(await next.check());
        expect(early).toMatchObject({ status: 503, code: 'E_UNAVAILABLE' });
        expect(early.detail).toContain('table notes has no column tag');
        expect(early.detail).toContain('table labels is missing');

        await migrate(database, v2);
        expect((await old.check()).statusCode).toBe(200);
        expect((await next.check()).statusCode).toBe(200);

        await migrate(database, v3, { acceptDataLoss: true });
        const gone = problem(await old.check());
        expect(gone).toMatchObject({ status: 503, code: 'E_UNAVAILABLE' });
        expect(gone.detail).toContain('table notes has no column body');
        expect(gone.detail).toContain('column notes.size holds string, not integer');
        expect(problem(await next.check()).detail).toContain('table notes has no column body');
      } finally {
        await old.app.close();
        await next.app.close();
      }
    });
  });
}

describe('compatibilityProblems', () => {
  const schema = (yaml: string) => desiredSchema(specModel(yaml));
  const spec = (fields: string) =>
    `entities:\n  Note:\n    fields:\n${fields}\nroles:\n  writer: { Note: true }\n`;

  it('accepts what only the engine reads differently: a wider type, more enum values, requiredness, a default', () => {
    const needed = schema(
      spec('      a: { type: text }\n      b: { type: enum, values: [x, y] }\n      c: { type: string }'),
    );
    const present = schema(
      spec(
        '      a: { type: string }\n      b: { type: enum, values: [x, y, z] }\n      c: { type: string, required: true, default: hi }',
      ),
    );
    expect(compatibilityProblems(needed, present)).toEqual([]);
  });

  it('refuses a rescaled number, a missing unique index and a database never migrated', () => {
    const needed = schema(
      spec('      d: { type: decimal, scale: 2 }\n      code: { type: string, unique: true }'),
    );
    const present = schema(spec('      d: { type: decimal, scale: 3 }\n      code: { type: string }'));
    expect(compatibilityProblems(needed, present)).toEqual([
      'column notes.d holds decimal/3, not decimal/2',
      'table notes has no unique index on (code)',
    ]);
    expect(compatibilityProblems(needed, null)).toEqual(['it has never been migrated']);
  });
});
