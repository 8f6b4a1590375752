/**
 * Files on S3-compatible storage (decisions 0050, 0052, 0053), through the real routes against an
 * S3 server the test starts (s3rver): an upload streamed into the bucket, attached by a change, read
 * back whole and by range, an image's variant made and kept in the bucket, a refused upload that
 * leaves no object, and a replaced file whose objects the removal job deletes.
 */
import { type FileInfo } from '@ninefold/model';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestS3Server, runProductJobs, startS3Server } from '@ninefold/testkit';
import { openFileStore } from '../src/files/open-store.js';
import { type FileStore } from '../src/files/store.js';
import { EXE, PDF, attach, filesWorld, image } from './files-world.js';

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});

let prefixes = 0;
/** A store on a prefix of its own, so that each test sees only its objects. */
function bucket(): FileStore {
  prefixes += 1;
  return openFileStore(s3.env(`files-s3-${prefixes}`), '/nonexistent');
}

async function keys(store: FileStore): Promise<string[]> {
  const out: string[] = [];
  for await (const { key } of store.keys()) out.push(key);
  return out.sort();
}

describe.each(DIALECTS)('%s: files on S3-compatible storage', (dialect) => {
  it('uploads into the bucket, serves the bytes whole, by range and as a variant, and removes them', async () => {
    const store = bucket();
    const world = await filesWorld(dialect, undefined, store);
    const created = await world.request('ann', 'POST', '/api/claims', { payload: { title: 'Lunch' } });
    expect(created.statusCode, created.body).toBe(201);
    const claim = created.json<{ id: string }>().id;

    // a refused upload leaves no object
    expect((await world.upload('ann', 'invoice.pdf', EXE, '?entity=Claim&field=receipt')).statusCode).toBe(
      415,
    );
    expect(await keys(store)).toEqual([]);

    const receiptAnswer = await world.upload('ann', 'receipt.pdf', PDF, '?entity=Claim&field=receipt');
    expect(receiptAnswer.statusCode, receiptAnswer.body).toBe(201);
    const receipt = receiptAnswer.json<FileInfo>();
    const png = await image('png', 200, 100);
    const photo = (
      await world.upload('ann', 'photo.png', png, '?entity=Claim&field=photos')
    ).json<FileInfo>();
    await attach(world, 'ann', 'Claim', claim, 'receipt', receipt);
    await attach(world, 'ann', 'Claim', claim, 'photos', [photo]);
    expect(await keys(store)).toEqual([photo.id, receipt.id].sort());

    const whole = await world.request('bob', 'GET', `/api/files/${receipt.id}`);
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(PDF)).toBe(true);
    const part = await world.request('bob', 'GET', `/api/files/${receipt.id}`, {
      headers: { range: 'bytes=1-4' },
    });
    expect([part.statusCode, part.body]).toEqual([206, 'PDF-']);
    // the auditor's mask hides the receipt
    expect((await world.request('aud', 'GET', `/api/files/${receipt.id}`)).statusCode).toBe(404);

    const variant = await world.request('ann', 'GET', `/api/files/${photo.id}?w=64`);
    expect(variant.statusCode, variant.body).toBe(200);
    expect(await sharp(variant.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 64 });
    expect(await keys(store)).toContain(`${photo.id}.w64.webp`);

    // replaced and emptied: the removal job deletes the objects, the variant with its image
    const next = (
      await world.upload('ann', 'again.pdf', PDF, '?entity=Claim&field=receipt')
    ).json<FileInfo>();
    await attach(world, 'ann', 'Claim', claim, 'receipt', next);
    await attach(world, 'ann', 'Claim', claim, 'photos', []);
    await runProductJobs(world.server);
    expect(await keys(store)).toEqual([next.id]);
    expect((await world.request('ann', 'GET', `/api/files/${receipt.id}`)).statusCode).toBe(404);
  });
});
