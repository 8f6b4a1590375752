/**
 * `GET <basePath>/files/<id>` (decisions 0050 and 0053) on SQLite and PostgreSQL: who may read a
 * file (its uploader until a record holds it, then whoever may read that record and that field,
 * and 404 for everyone else), the headers that make the bytes safe to serve (type, disposition,
 * CSP, nosniff, caching), ETag and ranges, and images' variants made once by sharp.
 *
 * Files are attached by a change of the record that names them (`attach` in files-world.ts).
 */
import { type FileInfo } from '@ninefold/model';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DIALECTS, problem } from '@ninefold/testkit';
import { PDF, attach, filesWorld, image, type FilesWorld } from './files-world.js';

const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

async function uploaded(world: FilesWorld, name: string, bytes: Buffer, query = ''): Promise<FileInfo> {
  const response = await world.upload('ann', name, bytes, query);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<FileInfo>();
}

/** A claim of ann's, created through the API. */
async function claim(world: FilesWorld, notes = 'private'): Promise<string> {
  const response = await world.server.app.inject({
    method: 'POST',
    url: '/api/claims',
    headers: { 'x-ninefold-csrf': '1', cookie: world.cookies.ann },
    payload: { title: 'Lunch', notes },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }>().id;
}

describe.each(DIALECTS)('downloads (%s)', (dialect) => {
  it('serves an unattached file to its uploader only, with safe headers', async () => {
    const world = await filesWorld(dialect);
    const file = await uploaded(world, 'receipt.pdf', PDF);
    const url = `/api/files/${file.id}`;
    const response = await world.request('ann', 'GET', url);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(PDF)).toBe(true);
    expect(response.headers).toMatchObject({
      'content-type': 'application/pdf',
      'content-length': String(PDF.length),
      'x-content-type-options': 'nosniff',
      'accept-ranges': 'bytes',
      'content-disposition': `inline; filename="receipt.pdf"; filename*=UTF-8''receipt.pdf`,
    });
    expect(response.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    // the bytes of an id never change: the id is their ETag
    expect(response.headers['etag']).toBe(`"${file.id}"`);
    expect(response.headers['content-security-policy']).toBeUndefined();
    // anyone else learns nothing: an unknown id, another user, a malformed id
    for (const who of ['bob', 'aud', 'rea'] as const) {
      expect(problem(await world.request(who, 'GET', url)).code).toBe('E_NOT_FOUND');
    }
    const unknown = await world.request('ann', 'GET', '/api/files/01a216f3-6d27-7e8f-9034-51e4bf204044');
    expect(unknown.statusCode).toBe(404);
    const other = problem(await world.request('bob', 'GET', url));
    expect([problem(unknown).code, problem(unknown).message]).toEqual([other.code, other.message]);
    expect((await world.request('ann', 'GET', '/api/files/..%2F..%2Fetc%2Fpasswd')).statusCode).toBe(404);
    expect(problem(await world.request(null, 'GET', url)).code).toBe('E_UNAUTHENTICATED');
    // ?download=1 makes it an attachment
    const download = await world.request('ann', 'GET', `${url}?download=1`);
    expect(download.headers['content-disposition']).toMatch(/^attachment; /);
  });

  it('serves an attached file to whoever may read the record and the field, and 404 to the rest', async () => {
    const world = await filesWorld(dialect);
    const id = await claim(world);
    const receipt = await uploaded(world, 'r.pdf', PDF, '?entity=Claim&field=receipt');
    const png = await image('png', 30, 20);
    const photo = await uploaded(world, 'p.png', png, '?entity=Claim&field=photos');
    await attach(world, 'ann', 'Claim', id, 'receipt', receipt);
    await attach(world, 'ann', 'Claim', id, 'photos', [photo]);
    const status = async (who: 'ann' | 'bob' | 'aud' | 'rea', file: FileInfo) =>
      (await world.request(who, 'GET', `/api/files/${file.id}`)).statusCode;
    // the employees read every claim, every field
    expect(await status('ann', receipt)).toBe(200);
    expect(await status('bob', receipt)).toBe(200);
    // the auditor reads the claim, but its mask hides the receipt (and not the photos)
    expect(await status('aud', receipt)).toBe(404);
    expect(await status('aud', photo)).toBe(200);
    // the reader reads only public claims
    expect(await status('rea', receipt)).toBe(404);
    await world.server.database.db
      .updateTable('claims')
      .set({ notes: 'public' })
      .where('id', '=', id)
      .execute();
    expect(await status('rea', receipt)).toBe(200);
    // once the record no longer names the file, nobody reads it through the record
    await world.server.database.db
      .updateTable('claims')
      .set({ receipt: null })
      .where('id', '=', id)
      .execute();
    expect(await status('ann', receipt)).toBe(404);
    expect(await status('rea', receipt)).toBe(404);
    // nor through a deleted record
    await world.server.database.db.deleteFrom('claims').where('id', '=', id).execute();
    expect(await status('ann', photo)).toBe(404);
  });

  it('sends SVG as a sandboxed attachment, never inline', async () => {
    const world = await filesWorld(dialect);
    const file = await uploaded(world, 'logo.svg', SVG, '?entity=Claim&field=receipt');
    expect(file.type).toBe('image/svg+xml');
    const response = await world.request('ann', 'GET', `/api/files/${file.id}`);
    expect(response.headers['content-type']).toBe('image/svg+xml');
    expect(response.headers['content-disposition']).toMatch(/^attachment; /);
    expect(response.headers['content-security-policy']).toBe('sandbox');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('writes hostile names into Content-Disposition escaped, with an ASCII fallback', async () => {
    const world = await filesWorld(dialect);
    const cases: [string, string][] = [
      ['../../etc/passwd', `filename="../../etc/passwd"; filename*=UTF-8''..%2F..%2Fetc%2Fpasswd`],
      ['a"b\\c;d.pdf', `filename="a_b_c;d.pdf"; filename*=UTF-8''a%22b%5Cc%3Bd.pdf`],
      ['Résumé 100%.pdf', `filename="R_sum_ 100_.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20100%25.pdf`],
      ['x\u0000y\u0007.pdf', `filename="xy.pdf"; filename*=UTF-8''xy.pdf`],
      ["it's (1)*.pdf", `filename="it's (1)*.pdf"; filename*=UTF-8''it%27s%20%281%29%2A.pdf`],
    ];
    for (const [name, expected] of cases) {
      const file = await uploaded(world, name, PDF);
      const response = await world.request('ann', 'GET', `/api/files/${file.id}`);
      expect(response.headers['content-disposition']).toBe(`inline; ${expected}`);
    }
    // the right-to-left override is gone from the name, so it cannot pass for a PDF
    const rtl = await uploaded(world, 'invoice\u202Efdp.exe', PDF);
    expect(rtl.name).toBe('invoicefdp.exe');
    const long = await uploaded(world, `${'ü'.repeat(1000)}.pdf`, PDF);
    const header = String(
      (await world.request('ann', 'GET', `/api/files/${long.id}`)).headers['content-disposition'],
    );
    expect(header).toBe(`inline; filename="${'_'.repeat(255)}"; filename*=UTF-8''${'%C3%BC'.repeat(255)}`);
  });

  it('answers If-None-Match with 304 and a single range with 206', async () => {
    const world = await filesWorld(dialect);
    const file = await uploaded(world, 'r.pdf', PDF);
    const url = `/api/files/${file.id}`;
    const first = await world.request('ann', 'GET', url);
    const etag = String(first.headers['etag']);
    const cached = await world.request('ann', 'GET', url, { headers: { 'if-none-match': etag } });
    expect(cached.statusCode).toBe(304);
    expect(cached.body).toBe('');
    expect(cached.headers['etag']).toBe(etag);
    const stale = await world.request('ann', 'GET', url, { headers: { 'if-none-match': '"abc"' } });
    expect(stale.statusCode).toBe(200);

    const range = async (value: string, extra: Record<string, string> = {}) =>
      world.request('ann', 'GET', url, { headers: { range: value, ...extra } });
    const head = await range('bytes=0-3');
    expect(head.statusCode).toBe(206);
    expect(head.body).toBe('%PDF');
    expect(head.headers['content-range']).toBe(`bytes 0-3/${PDF.length}`);
    expect(head.headers['content-length']).toBe('4');
    const tail = await range('bytes=-6');
    expect(tail.statusCode).toBe(206);
    expect(tail.body).toBe('%%EOF\n');
    const open = await range(`bytes=${PDF.length - 2}-`);
    expect(open.body).toBe('F\n');
    // none of the bytes: a problem like any refusal, with the size in Content-Range and none of
    // the bytes' headers (it is neither kept for an hour nor saved under the file's name)
    const beyond = await range(`bytes=${PDF.length}-`);
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${PDF.length}`);
    expect(beyond.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(problem(beyond)).toMatchObject({
      status: 416,
      code: 'E_RANGE_NOT_SATISFIABLE',
      message: `This part of the file cannot be sent: the file is ${PDF.length} bytes long.`,
    });
    expect(beyond.headers['cache-control']).toBe('private, no-store');
    expect(beyond.headers['content-disposition']).toBeUndefined();
    const none = await range('bytes=-0');
    expect([none.statusCode, problem(none).code]).toEqual([416, 'E_RANGE_NOT_SATISFIABLE']);
    expect(none.headers['content-range']).toBe(`bytes */${PDF.length}`);
    // a copy that is current wins over a range of none of the bytes
    expect((await range(`bytes=${PDF.length}-`, { 'if-none-match': etag })).statusCode).toBe(304);
    // several ranges, nonsense, or an If-Range for other bytes: the whole file
    expect((await range('bytes=0-1,4-5')).statusCode).toBe(200);
    expect((await range('pages=1-2')).statusCode).toBe(200);
    expect((await range('bytes=0-3', { 'if-range': '"other"' })).statusCode).toBe(200);
    expect((await range('bytes=0-3', { 'if-range': etag })).statusCode).toBe(206);
  });

  it('makes a WebP variant of an image once, at the width asked, upright and without metadata', async () => {
    const world = await filesWorld(dialect);
    const png = await image('png', 200, 100);
    const file = await uploaded(world, 'wide.png', png, '?entity=Claim&field=photos');
    const url = `/api/files/${file.id}?w=64`;
    // concurrent first requests make it once
    const answers = await Promise.all([1, 2, 3, 4].map(() => world.request('ann', 'GET', url)));
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('image/webp');
      expect(answer.headers['content-disposition']).toBe(
        `inline; filename="wide.webp"; filename*=UTF-8''wide.webp`,
      );
    }
    const meta = await sharp(answers[0]!.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 64, 32]);
    expect(world.puts.filter((k) => k.endsWith('.webp'))).toEqual([`${file.id}.w64.webp`]);
    expect(world.stored().keys).toContain(`${file.id}.w64.webp`);
    // its own ETag, and 304 for it
    const etag = String(answers[0]!.headers['etag']);
    expect(etag).not.toBe((await world.request('ann', 'GET', `/api/files/${file.id}`)).headers['etag']);
    expect(answers.every((a) => a.headers['etag'] === etag)).toBe(true);
    const again = await world.request('ann', 'GET', url, { headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    // never enlarged
    const large = await world.request('ann', 'GET', `/api/files/${file.id}?w=320`);
    expect((await sharp(large.rawPayload).metadata()).width).toBe(200);
    // turned upright by EXIF, which is then gone
    const sideways = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#336699' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const turned = await uploaded(world, 'phone.jpg', sideways, '?entity=Claim&field=photos');
    const upright = await world.request('ann', 'GET', `/api/files/${turned.id}?w=64`);
    const uprightMeta = await sharp(upright.rawPayload).metadata();
    expect([uprightMeta.width, uprightMeta.height, uprightMeta.exif, uprightMeta.orientation]).toEqual([
      64,
      128,
      undefined,
      undefined,
    ]);
  });

  it('refuses a width not offered, a variant of what is not a raster image, and a corrupt image', async () => {
    const world = await filesWorld(dialect);
    const png = await image('png', 50, 50);
    const photo = await uploaded(world, 'p.png', png);
    for (const w of ['100', '64.0', '', 'abc']) {
      const response = await world.request('ann', 'GET', `/api/files/${photo.id}?w=${w}`);
      expect(problem(response).code).toBe('E_INVALID_QUERY');
    }
    const pdf = await uploaded(world, 'r.pdf', PDF);
    expect(problem(await world.request('ann', 'GET', `/api/files/${pdf.id}?w=64`)).code).toBe(
      'E_INVALID_QUERY',
    );
    const svg = await uploaded(world, 'a.svg', SVG);
    expect(problem(await world.request('ann', 'GET', `/api/files/${svg.id}?w=64`)).code).toBe(
      'E_INVALID_QUERY',
    );
    // a PNG's signature and header, then noise: sniffed as PNG, unreadable by sharp
    const corrupt = Buffer.concat([png.subarray(0, 33), Buffer.alloc(400, 0x5a)]);
    const broken = await uploaded(world, 'broken.png', corrupt);
    expect(broken.type).toBe('image/png');
    const response = await world.request('ann', 'GET', `/api/files/${broken.id}?w=64`);
    expect(response.statusCode).toBe(422);
    expect(problem(response).code).toBe('E_FORMAT');
    expect(world.stored().keys).not.toContain(`${broken.id}.w64.webp`);
    // and the file itself is still served as it was uploaded
    expect((await world.request('ann', 'GET', `/api/files/${broken.id}`)).rawPayload.equals(corrupt)).toBe(
      true,
    );
    // another user learns nothing from ?w either
    expect((await world.request('bob', 'GET', `/api/files/${pdf.id}?w=64`)).statusCode).toBe(404);
  });
});
