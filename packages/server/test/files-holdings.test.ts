/**
 * The attach of `files/holdings.ts` on each database, below HTTP: two writes that both resolved the
 * same unattached upload (each saw it free) cannot both hold it. The second attach finds it held
 * and fails with E_FILE_NOT_FOUND beside the field, so its transaction rolls back.
 */
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '@ninefold/testkit';
import { holdFiles, resolveFiles } from '../src/files/holdings.js';
import { filesWorld, pdfBytes, receiptsModel, uploadFile } from './files-world.js';

for (const dialect of DIALECTS) {
  describe(`${dialect}: holding a file`, () => {
    it('attaches an upload to the first write that holds it, and refuses the second', async () => {
      const w = await filesWorld(dialect, receiptsModel(), { ann: ['employee'] });
      const db = w.server.database.db;
      const entity = w.model.entities['Claim']!;
      const file = await uploadFile(w, 'ann', { name: 'r.pdf', type: 'application/pdf', bytes: pdfBytes() });
      const input = { receipt: file.id };
      // both writes resolve before either attaches: each sees the upload free
      const first = await resolveFiles(db, { entity, recordId: null }, input, w.as['ann']!.id);
      const second = await resolveFiles(db, { entity, recordId: null }, input, w.as['ann']!.id);
      expect(first).toEqual({ ok: true, input: { receipt: file } });
      expect(second).toEqual(first);
      const now = w.server.clock.now();
      await db
        .transaction()
        .execute((tx) => holdFiles(tx, entity, null, { id: 'c_first', receipt: { ...file } }, now));
      const refused = db
        .transaction()
        .execute((tx) => holdFiles(tx, entity, null, { id: 'c_second', receipt: { ...file } }, now));
      await expect(refused).rejects.toMatchObject({
        code: 'E_VALIDATION',
        errors: [{ field: 'receipt', code: 'E_FILE_NOT_FOUND' }],
      });
      expect(await w.fileRow(file.id)).toMatchObject({ record_id: 'c_first', field: 'receipt' });
    });
  });
}
