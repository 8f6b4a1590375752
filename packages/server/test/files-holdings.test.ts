/**
 * The attach of `files/holdings.ts` on each database, below HTTP: two writes that both resolved the
 * same unattached upload (each saw it free) cannot both hold it. The second attach finds it held
 * and fails with E_FILE_NOT_FOUND beside the field, so its transaction rolls back. A user deleted
 * takes the files of their record, and of the records that cascade from it, with them.
 */
import { describe, expect, it } from 'vitest';
import { DIALECTS, specModel } from '@ninefold/testkit';
import { holdFiles, resolveFiles } from '../src/files/holdings.js';
import { filesWorld, pdfBytes, receiptsModel, uploadFile } from './files-records-world.js';

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

const STAFF = `
product: { name: Staff }
entities:
  User:
    fields:
      avatar: { type: image }
  Note:
    fields:
      author: { type: ref, to: User, required: true, onDelete: cascade }
      attachment: { type: file }
roles:
  admin:
    User: true
    Note: true
`;

for (const dialect of DIALECTS) {
  describe(`${dialect}: a user deleted`, () => {
    it('removes the files their record and the records that cascade from it held', async () => {
      const w = await filesWorld(dialect, specModel(STAFF), { ada: ['admin'] });
      const ada = w.as['ada']!;
      const avatar = await uploadFile(w, 'ada', {
        name: 'zoe.png',
        type: 'image/png',
        bytes: Buffer.from('\x89PNG\r\n\x1a\n'),
      });
      const created = await ada.request('POST', '/api/users', {
        name: 'Zoe',
        email: 'zoe@example.com',
        roles: ['admin'],
        avatar: avatar.id,
      });
      expect(created.statusCode, created.body).toBe(201);
      const zoe = created.json<{ id: string; avatar: unknown }>();
      expect(zoe.avatar).toEqual(avatar);
      const attachment = await uploadFile(w, 'ada', {
        name: 'n.pdf',
        type: 'application/pdf',
        bytes: pdfBytes(),
      });
      const note = await ada.request('POST', '/api/notes', { author: zoe.id, attachment: attachment.id });
      expect(note.statusCode, note.body).toBe(201);

      const deleted = await ada.request('DELETE', `/api/users/${zoe.id}`);
      expect(deleted.statusCode, deleted.body).toBe(204);
      expect(await w.fileRow(avatar.id)).toBeUndefined();
      expect(await w.fileRow(attachment.id)).toBeUndefined();
      expect(await w.removalsQueued()).toEqual([avatar.id, attachment.id].sort());
    });
  });
}
