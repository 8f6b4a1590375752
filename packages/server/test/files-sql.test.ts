/**
 * Conditions over file fields (decision 0051) run in SQL exactly as the engine decides them in JS on
 * the record: `has()`, a file's `size`, `type`, `name` and `id` read out of the JSON its column holds,
 * compared and matched with `startsWith`/`endsWith`, and `size()` of a list of files. A property
 * test over random files and conditions, on both databases; each condition is a read permission of
 * the spec, so the compiler accepts it as SQL too.
 */
import { activation, evaluate, toSqlFilter } from '@ninefold/engine';
import { type FileInfo } from '@ninefold/model';
import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeRow, entityTable, selectColumns } from '../src/resources/records.js';
import { engineFilter } from '../src/resources/sql.js';
import { DIALECTS, specModel, testServer } from '@ninefold/testkit';

const CONDITIONS = [
  'has(receipt)',
  '!has(receipt)',
  'receipt.size < 2 * 1024 * 1024',
  '!(receipt.size < 2 * 1024 * 1024)',
  '!has(receipt) || receipt.size <= MAX_RECEIPT',
  'receipt.size * 2 >= 4194304',
  "receipt.type.startsWith('image/')",
  "!receipt.name.endsWith('.pdf')",
  "receipt.type == 'application/pdf' && receipt.size > 1000",
  "self.receipt.type in ['image/png', 'image/jpeg']",
  "receipt.name < 'm'",
  "receipt.id == 'f1' || title == 'b'",
  "has(self.receipt) ? receipt.size > 100 : title == 'a'",
  'size(photos) <= 2',
  'size(photos) == 0',
  'has(photos)',
  '!has(self.photos) && title == "a"',
];

const SPEC = `
product: { name: Receipts }
constants: { MAX_RECEIPT: 1048576 }
entities:
  Claim:
    fields:
      title: { type: string, required: true }
      receipt: { type: file, accept: [application/pdf, image/*] }
      photos: { type: image, many: true }
roles:
${CONDITIONS.map((c, i) => `  reader${i}:\n    Claim: { read: ${JSON.stringify(c)} }`).join('\n')}
`;

const file: fc.Arbitrary<FileInfo> = fc.record({
  id: fc.constantFrom('f1', 'f2', 'f3'),
  name: fc.constantFrom('scan.pdf', 'photo.PNG', 'a.pdf', 'notes', 'zeta.pdf.exe', 'Ärger.pdf'),
  size: fc.oneof(
    fc.constantFrom(0, 100, 101, 1000, 1001, 1048576, 1048577, 2097151, 2097152, 2097153),
    fc.nat({ max: 5 * 1024 * 1024 }),
  ),
  type: fc.constantFrom('application/pdf', 'image/png', 'image/jpeg', 'image/webp', 'text/plain'),
});

interface Claim {
  readonly title: string;
  readonly receipt: FileInfo | null;
  readonly photos: readonly FileInfo[] | null;
}
const AT = '2026-01-01T00:00:00.000Z';

for (const dialect of DIALECTS) {
  describe(`${dialect}: a file field in SQL agrees with the engine`, () => {
    const model = specModel(SPEC);
    const info = entityTable(model, model.entities['Claim']!);
    let server: Awaited<ReturnType<typeof testServer>>;

    beforeAll(async () => {
      server = await testServer(dialect, model);
    });

    // each condition as the compiler keeps it (`has(receipt)` is `has(self.receipt)`)
    const compiled = CONDITIONS.map((_, i) => {
      const read = model.roles[`reader${i}`]?.entities['Claim']?.read;
      if (typeof read !== 'object' || read.any.length !== 1) throw new Error(`reader${i} reads no condition`);
      return read.any[0]!.source;
    });

    /** Replaces the table's rows with `claims` (c0, c1, …). */
    const given = async (claims: readonly Claim[]) => {
      const db = server.database.db;
      await db.deleteFrom('claims').execute();
      for (const [i, c] of claims.entries()) {
        await db
          .insertInto('claims')
          .values({
            id: `c${i}`,
            createdAt: AT,
            updatedAt: AT,
            version: 1,
            title: c.title,
            receipt: c.receipt === null ? null : JSON.stringify(c.receipt),
            photos: c.photos === null ? null : JSON.stringify(c.photos),
          })
          .execute();
      }
    };
    const user = { id: 'u1', roles: ['reader0'] };
    const now = new Date(AT);
    /** The ids SQL selects for a condition. */
    const inSql = async (condition: string) => {
      const filter = toSqlFilter(model, 'Claim', condition, { user, now, dialect });
      const db = server.database.db;
      return (
        await sql<{ id: string }>`select id from claims where ${engineFilter(filter)} order by id`.execute(db)
      ).rows.map((r) => r.id);
    };
    /** The ids whose records the engine decides the condition holds for, in JS. */
    const inJs = async (condition: string) => {
      const db = server.database.db;
      const rows = (await db
        .selectFrom('claims')
        .select(selectColumns(info, dialect))
        .orderBy('id')
        .execute()) as Record<string, unknown>[];
      return rows
        .map((row) =>
          decodeRow(
            info,
            info.columns.map((c) => row[c]),
          ),
        )
        .filter((record) => {
          const outcome = evaluate(
            model,
            'Claim',
            condition,
            activation(model, 'Claim', record, { user, now }),
          );
          return outcome.ok && outcome.value === true;
        })
        .map((record) => String(record['id']));
    };

    it('selects the claims a known condition names, in SQL and in JS', async () => {
      const pdf = { id: 'f1', name: 'scan.pdf', size: 1000, type: 'application/pdf' };
      const png = { id: 'f2', name: 'photo.PNG', size: 3 * 1024 * 1024, type: 'image/png' };
      await given([
        { title: 'a', receipt: pdf, photos: null },
        { title: 'b', receipt: png, photos: [pdf] },
        { title: 'a', receipt: null, photos: [pdf, png, pdf] },
      ]);
      const cases: [string, string[]][] = [
        [compiled[0]!, ['c0', 'c1']],
        [compiled[2]!, ['c0']],
        [compiled[3]!, ['c1']],
        [compiled[6]!, ['c1']],
        [compiled[7]!, ['c1']],
        [compiled[13]!, ['c1']],
      ];
      for (const [condition, ids] of cases) {
        expect(await inSql(condition), condition).toEqual(ids);
        expect(await inJs(condition), condition).toEqual(ids);
      }
    });

    it('selects exactly the rows whose condition holds in JS', async () => {
      const claim: fc.Arbitrary<Claim> = fc.record({
        title: fc.constantFrom('a', 'b'),
        receipt: fc.option(file, { nil: null }),
        // a list of files held as null (none) or as an array, empty or not
        photos: fc.option(fc.array(file, { maxLength: 4 }), { nil: null }),
      });
      await fc.assert(
        fc.asyncProperty(
          fc.array(claim, { maxLength: 6 }),
          fc.constantFrom(...compiled),
          async (claims, condition) => {
            await given(claims);
            expect(await inSql(condition), condition).toEqual(await inJs(condition));
          },
        ),
        { numRuns: 150 },
      );
    }, 120_000);
  });
}
