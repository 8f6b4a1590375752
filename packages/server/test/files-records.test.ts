/**
 * Records that hold files (decision 0054), over HTTP on each database: a write names an upload by
 * its id, the server resolves it into the file's `FileInfo` and attaches it to the record in the
 * write's transaction; a file replaced, removed or held by a deleted record loses its row and has
 * the removal of its bytes enqueued; a write may name only its own unattached upload or a file this
 * record's field already holds. Every answer is held against the OpenAPI document.
 */
import { describe, expect, it } from 'vitest';
import { DIALECTS, problem, runProductJobs } from '@ninefold/testkit';
import { tableName } from '../src/index.js';
import { filesWorld, pdfBytes, receiptsModel, uploadFile } from './files-records-world.js';

const PNG = { type: 'image/png', bytes: Buffer.from('\x89PNG\r\n\x1a\n-not-decoded-here') };

for (const dialect of DIALECTS) {
  describe(`${dialect}: records that hold files`, () => {
    const world = () =>
      filesWorld(dialect, receiptsModel(), { ann: ['employee'], bob: ['employee'], aud: ['auditor'] });

    it('attaches the upload a create names, by id or as the object read, and reads it back as its FileInfo', async () => {
      const w = await world();
      const receipt = await uploadFile(w, 'ann', {
        name: 'taxi.pdf',
        type: 'application/pdf',
        bytes: pdfBytes(100),
      });
      const created = await w.as['ann']!.request('POST', '/api/claims', {
        title: 'Taxi',
        amount: 20,
        receipt: receipt.id,
      });
      expect(created.statusCode, created.body).toBe(201);
      const claim = created.json<Record<string, unknown>>();
      expect(claim['receipt']).toEqual({
        id: receipt.id,
        name: 'taxi.pdf',
        size: 100,
        type: 'application/pdf',
      });
      expect(await w.fileRow(receipt.id)).toMatchObject({
        entity: 'Claim',
        record_id: claim['id'],
        field: 'receipt',
        attached_at: '2026-03-01T09:00:00.000Z',
      });
      const read = await w.as['ann']!.request('GET', `/api/claims/${String(claim['id'])}`);
      expect(read.json<Record<string, unknown>>()['receipt']).toEqual(claim['receipt']);

      // the object as read: only its id counts, never the name or size the client sends
      const other = await uploadFile(w, 'ann', {
        name: 'hotel.pdf',
        type: 'application/pdf',
        bytes: pdfBytes(80),
      });
      const second = await w.as['ann']!.request('POST', '/api/claims', {
        title: 'Hotel',
        amount: 20,
        receipt: { ...other, name: 'forged.exe', size: 1, type: 'application/x-msdownload' },
      });
      expect(second.statusCode, second.body).toBe(201);
      expect(second.json<Record<string, unknown>>()['receipt']).toEqual(other);
    });

    it('refuses with E_FILE_NOT_FOUND an unknown id, another user’s upload and a file another record holds', async () => {
      const w = await world();
      const expectNotFound = async (receipt: unknown) => {
        const refused = problem(
          await w.as['ann']!.request('POST', '/api/claims', { title: 'Taxi', amount: 20, receipt }),
        );
        expect(refused).toMatchObject({ status: 422, code: 'E_VALIDATION' });
        expect(refused.errors).toEqual([
          expect.objectContaining({ field: 'receipt', code: 'E_FILE_NOT_FOUND' }),
        ]);
      };
      await expectNotFound('f_does_not_exist');
      const bobs = await uploadFile(w, 'bob', {
        name: 'bob.pdf',
        type: 'application/pdf',
        bytes: pdfBytes(),
      });
      await expectNotFound(bobs.id);
      await expectNotFound({ id: bobs.id });
      const anns = await uploadFile(w, 'ann', { name: 'a.pdf', type: 'application/pdf', bytes: pdfBytes() });
      const held = await w.as['ann']!.request('POST', '/api/claims', {
        title: 'A',
        amount: 1,
        receipt: anns.id,
      });
      expect(held.statusCode, held.body).toBe(201);
      await expectNotFound(anns.id);
      // the same upload in two fields of one write: one field holds it
      const photo = await uploadFile(w, 'ann', { name: 'p.png', ...PNG });
      const twice = problem(
        await w.as['ann']!.request('POST', '/api/claims', {
          title: 'Twice',
          amount: 1,
          receipt: photo.id,
          photos: [photo.id],
        }),
      );
      expect(twice.errors).toEqual([expect.objectContaining({ field: 'photos', code: 'E_FILE_NOT_FOUND' })]);
      // bob's upload was never attached, anns still held by the first claim only
      expect(await w.fileRow(bobs.id)).toMatchObject({ record_id: null });
      expect(await w.fileRow(anns.id)).toMatchObject({ record_id: held.json<{ id: string }>().id });
    });

    it('removes the file a change replaces or empties: its row goes and the removal of its bytes is enqueued', async () => {
      const w = await world();
      const ann = w.as['ann']!;
      const first = await uploadFile(w, 'ann', {
        name: 'one.pdf',
        type: 'application/pdf',
        bytes: pdfBytes(),
      });
      const created = await ann.request('POST', '/api/claims', { title: 'T', amount: 1, receipt: first.id });
      const url = `/api/claims/${created.json<{ id: string }>().id}`;
      // written back as read: unchanged, nothing removed
      const same = await ann.request('PATCH', url, { receipt: first }, { 'if-match': '"1"' });
      expect(same.statusCode, same.body).toBe(200);
      expect(await w.fileRow(first.id)).toMatchObject({ field: 'receipt' });

      const second = await uploadFile(w, 'ann', {
        name: 'two.pdf',
        type: 'application/pdf',
        bytes: pdfBytes(),
      });
      const replaced = await ann.request('PATCH', url, { receipt: second.id }, { 'if-match': '"1"' });
      expect(replaced.statusCode, replaced.body).toBe(200);
      expect(replaced.json<Record<string, unknown>>()['receipt']).toEqual(second);
      expect(await w.fileRow(first.id)).toBeUndefined();
      expect(await w.fileRow(second.id)).toMatchObject({ record_id: created.json<{ id: string }>().id });
      expect(await w.removalsQueued()).toEqual([first.id]);

      const emptied = await ann.request('PATCH', url, { receipt: null }, { 'if-match': '"2"' });
      expect(emptied.statusCode, emptied.body).toBe(200);
      expect(emptied.json<Record<string, unknown>>()['receipt']).toBeNull();
      expect(await w.fileRow(second.id)).toBeUndefined();
      expect(await w.removalsQueued()).toEqual([first.id, second.id].sort());
      // the history keeps what the record held
      const history = await ann.request('GET', `${url}/history`);
      const changes = history.json<{ data: { changes: Record<string, { from: unknown; to: unknown }> }[] }>()
        .data;
      expect(changes.map((e) => e.changes['receipt'])).toContainEqual({ from: second, to: null });
    });

    it('removes the files of a record deleted, directly or by cascade', async () => {
      const w = await world();
      const ann = w.as['ann']!;
      const trip = (await ann.request('POST', '/api/trips', { name: 'Berlin' })).json<{ id: string }>();
      const ids: string[] = [];
      const claims: string[] = [];
      for (const title of ['Train', 'Hotel']) {
        const receipt = await uploadFile(w, 'ann', {
          name: `${title}.pdf`,
          type: 'application/pdf',
          bytes: pdfBytes(),
        });
        const photo = await uploadFile(w, 'ann', { name: `${title}.png`, ...PNG });
        const created = await ann.request('POST', '/api/claims', {
          title,
          amount: 1,
          trip: trip.id,
          receipt: receipt.id,
          photos: [photo.id],
        });
        expect(created.statusCode, created.body).toBe(201);
        ids.push(receipt.id, photo.id);
        claims.push(created.json<{ id: string }>().id);
      }
      const deleted = await ann.request('DELETE', `/api/claims/${claims[0]!}`);
      expect(deleted.statusCode, deleted.body).toBe(204);
      expect(await w.fileRow(ids[0]!)).toBeUndefined();
      expect(await w.fileRow(ids[1]!)).toBeUndefined();
      expect(await w.fileRow(ids[2]!)).toBeDefined();
      expect(await w.removalsQueued()).toEqual(ids.slice(0, 2).sort());

      const cascaded = await ann.request('DELETE', `/api/trips/${trip.id}`);
      expect(cascaded.statusCode, cascaded.body).toBe(204);
      for (const id of ids) expect(await w.fileRow(id)).toBeUndefined();
      expect(await w.removalsQueued()).toEqual([...ids].sort());
    });

    it('attaches nothing when a rule refuses the write, and lets rules read the file', async () => {
      const w = await world();
      const ann = w.as['ann']!;
      // has(receipt): above 100 a receipt is required
      const without = problem(await ann.request('POST', '/api/claims', { title: 'Dinner', amount: 150 }));
      expect(without.code).toBe('E_RECEIPT_REQUIRED');
      // receipt.size < 512: the size the upload measured, not one the client claims
      const big = await uploadFile(w, 'ann', {
        name: 'big.pdf',
        type: 'application/pdf',
        bytes: pdfBytes(600),
      });
      const refused = problem(
        await ann.request('POST', '/api/claims', {
          title: 'Dinner',
          amount: 150,
          receipt: { ...big, size: 10 },
        }),
      );
      expect(refused.code).toBe('E_RECEIPT_TOO_BIG');
      expect(await w.fileRow(big.id)).toMatchObject({ record_id: null, attached_at: null });
      expect(await w.removalsQueued()).toEqual([]);

      const small = await uploadFile(w, 'ann', {
        name: 'small.pdf',
        type: 'application/pdf',
        bytes: pdfBytes(300),
      });
      const created = await ann.request('POST', '/api/claims', {
        title: 'Dinner',
        amount: 150,
        receipt: small.id,
      });
      expect(created.statusCode, created.body).toBe(201);
      // an update a rule refuses neither attaches the new file nor removes the old one
      const url = `/api/claims/${created.json<{ id: string }>().id}`;
      const swap = problem(await ann.request('PATCH', url, { receipt: big.id }, { 'if-match': '"1"' }));
      expect(swap.code).toBe('E_RECEIPT_TOO_BIG');
      expect(await w.fileRow(small.id)).toMatchObject({ field: 'receipt' });
      expect(await w.fileRow(big.id)).toMatchObject({ record_id: null });
      expect(await w.removalsQueued()).toEqual([]);
    });

    it('holds a file to the field’s accept (E_FILE_TYPE) and maxSize (E_FILE_TOO_LARGE)', async () => {
      const w = await world();
      const ann = w.as['ann']!;
      const text = await uploadFile(w, 'ann', {
        name: 'r.txt',
        type: 'text/plain',
        bytes: Buffer.from('hi'),
      });
      const wrongType = problem(
        await ann.request('POST', '/api/claims', { title: 'T', amount: 1, receipt: text.id }),
      );
      expect(wrongType.errors).toEqual([expect.objectContaining({ field: 'receipt', code: 'E_FILE_TYPE' })]);
      const huge = await uploadFile(w, 'ann', {
        name: 'r.pdf',
        type: 'application/pdf',
        bytes: pdfBytes(2000),
      });
      const tooLarge = problem(
        await ann.request('POST', '/api/claims', { title: 'T', amount: 1, receipt: huge.id }),
      );
      expect(tooLarge.errors).toEqual([
        expect.objectContaining({ field: 'receipt', code: 'E_FILE_TOO_LARGE' }),
      ]);
      // an image field takes images only
      const notImage = problem(
        await ann.request('POST', '/api/claims', { title: 'T', amount: 1, photos: [text.id] }),
      );
      expect(notImage.errors).toEqual([expect.objectContaining({ field: 'photos', code: 'E_FILE_TYPE' })]);
      expect(await w.fileRow(text.id)).toMatchObject({ record_id: null });
    });

    it('adds, reorders and removes the files of a many field', async () => {
      const w = await world();
      const ann = w.as['ann']!;
      const [a, b, c] = [
        await uploadFile(w, 'ann', { name: 'a.png', ...PNG }),
        await uploadFile(w, 'ann', { name: 'b.png', ...PNG }),
        await uploadFile(w, 'ann', { name: 'c.png', ...PNG }),
      ];
      const created = await ann.request('POST', '/api/claims', {
        title: 'T',
        amount: 1,
        photos: [a.id, b.id],
      });
      expect(created.json<Record<string, unknown>>()['photos']).toEqual([a, b]);
      const url = `/api/claims/${created.json<{ id: string }>().id}`;
      const added = await ann.request('PATCH', url, { photos: [b, a.id, c.id] }, { 'if-match': '"1"' });
      expect(added.statusCode, added.body).toBe(200);
      expect(added.json<Record<string, unknown>>()['photos']).toEqual([b, a, c]);
      expect(await w.fileRow(c.id)).toMatchObject({ field: 'photos' });
      expect(await w.removalsQueued()).toEqual([]);
      const removed = await ann.request('PATCH', url, { photos: [c.id] }, { 'if-match': '"2"' });
      expect(removed.json<Record<string, unknown>>()['photos']).toEqual([c]);
      expect(await w.fileRow(a.id)).toBeUndefined();
      expect(await w.fileRow(b.id)).toBeUndefined();
      expect(await w.removalsQueued()).toEqual([a.id, b.id].sort());
      const none = await ann.request('PATCH', url, { photos: [] }, { 'if-match': '"3"' });
      expect(none.json<Record<string, unknown>>()['photos']).toBeNull();
      expect(await w.fileRow(c.id)).toBeUndefined();
    });

    it('masks a file field like any field, filters by [isNull] and exports file names to CSV', async () => {
      const w = await world();
      const ann = w.as['ann']!;
      const receipt = await uploadFile(w, 'ann', {
        name: '=HYPERLINK(x).pdf',
        type: 'application/pdf',
        bytes: pdfBytes(),
      });
      const [p1, p2] = [
        await uploadFile(w, 'ann', { name: 'one.png', ...PNG }),
        await uploadFile(w, 'ann', { name: 'two.png', ...PNG }),
      ];
      const withFile = await ann.request('POST', '/api/claims', {
        title: 'With',
        amount: 1,
        receipt: receipt.id,
        photos: [p1.id, p2.id],
      });
      expect(withFile.statusCode, withFile.body).toBe(201);
      await ann.request('POST', '/api/claims', { title: 'Without', amount: 1 });

      const titles = async (query: string) =>
        (await ann.request('GET', `/api/claims?${query}`))
          .json<{ data: { title: string }[] }>()
          .data.map((c) => c.title);
      expect(await titles('receipt[isNull]=true')).toEqual(['Without']);
      expect(await titles('receipt[isNull]=false')).toEqual(['With']);
      expect(await titles('photos[isNull]=false')).toEqual(['With']);
      const bad = problem(await ann.request('GET', '/api/claims?receipt=x'));
      expect(bad.status).toBe(400);

      const audited = (
        await w.as['aud']!.request('GET', `/api/claims/${withFile.json<{ id: string }>().id}`)
      ).json<Record<string, unknown>>();
      expect(audited['title']).toBe('With');
      expect(audited).not.toHaveProperty('receipt');
      expect(audited).not.toHaveProperty('photos');

      const csv = await ann.request('GET', '/api/claims?format=csv&sort=title');
      const lines = csv.body.replace(/^\uFEFF/, '').split('\r\n');
      const header = lines[0]!.split(',');
      const row = lines[1]!.split(',');
      expect(row[header.indexOf('Receipt')]).toBe("'=HYPERLINK(x).pdf");
      expect(row[header.indexOf('Photos')]).toBe('one.png; two.png');
      expect(lines[2]!.split(',')[header.indexOf('Receipt')]).toBe('');
    });

    it('attaches the file a transition’s input names, refuses one the caller may not name, and removes one a timed transition empties', async () => {
      const w = await world();
      const ann = w.as['ann']!;
      const created = await ann.request('POST', '/api/claims', { title: 'Taxi', amount: 20 });
      const url = `/api/claims/${created.json<{ id: string }>().id}`;
      const bobs = await uploadFile(w, 'bob', { name: 'b.pdf', type: 'application/pdf', bytes: pdfBytes() });
      const refused = problem(
        await ann.request('POST', `${url}/transitions/submit`, { receipt: bobs.id }, { 'if-match': '"1"' }),
      );
      expect(refused.errors).toEqual([
        expect.objectContaining({ field: 'receipt', code: 'E_FILE_NOT_FOUND' }),
      ]);
      const receipt = await uploadFile(w, 'ann', {
        name: 'r.pdf',
        type: 'application/pdf',
        bytes: pdfBytes(),
      });
      const fired = await ann.request(
        'POST',
        `${url}/transitions/submit`,
        { receipt: receipt.id },
        { 'if-match': '"1"' },
      );
      expect(fired.statusCode, fired.body).toBe(200);
      expect(fired.json()).toMatchObject({ state: 'submitted', receipt });
      expect(await w.fileRow(receipt.id)).toMatchObject({
        record_id: created.json<{ id: string }>().id,
        field: 'receipt',
      });
      expect(await w.fileRow(bobs.id)).toMatchObject({ record_id: null });

      // a day on, the timed transition's `set` empties the receipt: the file goes with it
      w.server.clock.advance(2 * 24 * 60 * 60 * 1000);
      await runProductJobs(w.server);
      // read from the table: the session has lapsed meanwhile
      const archived = await w.server.database.db
        .selectFrom(tableName('claims'))
        .select(['state', 'receipt'])
        .where('id', '=', created.json<{ id: string }>().id)
        .executeTakeFirst();
      expect(archived).toEqual({ state: 'archived', receipt: null });
      expect(await w.fileRow(receipt.id)).toBeUndefined();
      expect(await w.removalsQueued()).toEqual([receipt.id]);
    });

    it('lets one of two creates racing for the same upload hold it; the other is E_FILE_NOT_FOUND', async () => {
      const w = await world();
      const ann = w.as['ann']!;
      const receipt = await uploadFile(w, 'ann', {
        name: 'r.pdf',
        type: 'application/pdf',
        bytes: pdfBytes(),
      });
      const answers = await Promise.all(
        ['One', 'Two'].map((title) =>
          ann.request('POST', '/api/claims', { title, amount: 1, receipt: receipt.id }),
        ),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 422]);
      const lost = problem(answers.find((a) => a.statusCode === 422)!);
      expect(lost.errors).toEqual([expect.objectContaining({ field: 'receipt', code: 'E_FILE_NOT_FOUND' })]);
      const won = answers.find((a) => a.statusCode === 201)!.json<{ id: string }>();
      expect(await w.fileRow(receipt.id)).toMatchObject({ record_id: won.id });
      const listed = (await ann.request('GET', '/api/claims')).json<{ data: unknown[] }>().data;
      expect(listed).toHaveLength(1);
    });

    it('answers a replayed create (same Idempotency-Key) with its record, not "already held"', async () => {
      const w = await world();
      const ann = w.as['ann']!;
      const receipt = await uploadFile(w, 'ann', {
        name: 'r.pdf',
        type: 'application/pdf',
        bytes: pdfBytes(),
      });
      const body = { title: 'Taxi', amount: 20, receipt: receipt.id };
      const key = { 'idempotency-key': 'create-taxi-1' };
      const first = await ann.request('POST', '/api/claims', body, key);
      expect(first.statusCode, first.body).toBe(201);
      const again = await ann.request('POST', '/api/claims', body, key);
      expect(again.statusCode, again.body).toBe(201);
      expect(again.json()).toEqual(first.json());
      expect(await w.fileRow(receipt.id)).toMatchObject({ record_id: first.json<{ id: string }>().id });
    });
  });
}
