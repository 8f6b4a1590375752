/**
 * Demo data with file fields (decision 0054): a required image, and a receipt that a rule asks for
 * above a threshold, hold real uploads (a PNG that sharp reads, a PDF) made by the demo user who
 * wrote the record and attached to it; a file field nothing asks for stays empty.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { type FileInfo } from '@ninefold/model';
import { buildApp, diskFileStore, migrate, tableName } from '@ninefold/server';
import { DIALECTS, freshDatabase, specModel } from '@ninefold/testkit';

import { seedDemoAccounts, seedDemoData } from '../src/index.js';

const SPEC = `
product: { name: Albums }
entities:
  Album:
    fields:
      title: { type: string, required: true }
      amount: { type: integer, required: true }
      cover: { type: image, required: true }
      receipt: { type: file }
      notes: { type: file }
rules:
  - id: receipt-over-threshold
    entity: Album
    assert: "amount <= 50 || has(receipt)"
    error: E_RECEIPT_REQUIRED
errors:
  E_RECEIPT_REQUIRED: "A receipt is required above 50."
roles:
  editor: { Album: true }
`;

for (const dialect of DIALECTS) {
  describe(`${dialect}: demo data with files`, () => {
    it(
      'uploads a sample where a field is required or a rule asks for one, and nowhere else',
      { timeout: 60_000 },
      async () => {
        const model = specModel(SPEC);
        const root = await mkdtemp(join(tmpdir(), 'ninefold-demo-files-'));
        try {
          const files = diskFileStore(root);
          const { database } = await freshDatabase(dialect);
          await migrate(database, model);
          const accounts = await seedDemoAccounts(database, model);
          const app = buildApp({ model, database, files, logger: false });
          const { created } = await seedDemoData(app, database, model, accounts, { perEntity: 3, files });
          await app.close();
          expect(created).toEqual({ Album: 3 });

          const rows = await database.db
            .selectFrom(tableName('albums'))
            .select(['id', 'amount', 'cover', 'receipt', 'notes', 'createdBy'])
            .orderBy('amount')
            .execute();
          const parse = (v: unknown) => (v === null ? null : (JSON.parse(String(v)) as FileInfo));
          // a receipt above 50 only, and the demo's amounts (seeded) fall on both sides of it
          const receipts = rows.map((r) => [Number(r['amount']) > 50, parse(r['receipt'])?.name ?? null]);
          expect(receipts).toEqual(receipts.map(([above]) => [above, above ? 'receipt.pdf' : null]));
          expect(new Set(receipts.map(([above]) => above))).toEqual(new Set([true, false]));
          expect(rows.every((r) => r['notes'] === null)).toBe(true);

          for (const row of rows) {
            const cover = parse(row['cover'])!;
            expect(cover).toMatchObject({ name: 'cover.png', type: 'image/png' });
            const png = await buffer((await files.get(cover.id))!);
            expect(png.byteLength).toBe(cover.size);
            expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 64, height: 64 });
            const receipt = parse(row['receipt']);
            if (receipt !== null) {
              const pdf = (await buffer((await files.get(receipt.id))!)).toString('latin1');
              expect(pdf.length).toBe(receipt.size);
              expect(pdf.startsWith('%PDF-1.4\n')).toBe(true);
              expect(pdf.endsWith('%%EOF\n')).toBe(true);
            }
            for (const file of [cover, receipt].filter((f) => f !== null)) {
              const held = await database.db
                .selectFrom('ninefold_files')
                .select(['record_id', 'uploaded_by'])
                .where('id', '=', file.id)
                .executeTakeFirst();
              expect(held).toEqual({ record_id: row['id'], uploaded_by: row['createdBy'] });
            }
          }
          const count = await database.db.selectFrom('ninefold_files').select('id').execute();
          expect(count).toHaveLength(3 + receipts.filter(([above]) => above).length);
          await database.close();
        } finally {
          await rm(root, { recursive: true, force: true });
        }
      },
    );
  });
}
