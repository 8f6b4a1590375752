/**
 * `POST <basePath>/files` (decisions 0050 and 0053) on SQLite and PostgreSQL: the type sniffed from
 * the bytes and checked against the field's `accept`, the size counted against its `maxSize`,
 * hostile names kept as data, who may upload, malformed bodies, and that a refused or interrupted
 * upload leaves nothing: not in the store, not in its temporary directory, not in the table.
 */
import { type FileInfo } from '@ninefold/model';
import { type AddressInfo } from 'node:net';
import { request as httpRequest } from 'node:http';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { CSRF, DIALECTS, problem } from '@ninefold/testkit';
import { EXE, PDF, filesWorld, image, multipart } from './files-world.js';

const MiB = 1024 * 1024;

describe.each(DIALECTS)('uploads (%s)', (dialect) => {
  it('accepts a PDF, a PNG and a JPEG, with the type sniffed from the bytes, not the name', async () => {
    const world = await filesWorld(dialect);
    const png = await image('png', 40, 30);
    const jpeg = await image('jpeg', 40, 30);
    const cases: [string, Buffer, string][] = [
      ['receipt.pdf', PDF, 'application/pdf'],
      ['photo.jpg', png, 'image/png'],
      ['scan', jpeg, 'image/jpeg'],
    ];
    for (const [name, bytes, type] of cases) {
      const response = await world.upload('ann', name, bytes, '?entity=Claim&field=receipt');
      expect(response.statusCode, response.body).toBe(201);
      const info = response.json<FileInfo>();
      expect(info).toEqual({ id: expect.any(String), name, size: bytes.length, type });
      expect(world.stored().keys).toContain(info.id);
    }
    const rows = await world.server.database.db
      .selectFrom('ninefold_files')
      .selectAll()
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r['type'], r['uploaded_by'], r['entity']])).toEqual([
      ['application/pdf', world.ids.ann, null],
      ['image/png', world.ids.ann, null],
      ['image/jpeg', world.ids.ann, null],
    ]);
    expect(rows.map((r) => Number(r['size']))[0]).toBe(PDF.length);
    // each upload's expiry is scheduled in the same transaction
    const jobs = await sql<{
      n: unknown;
    }>`select count(*) as n from ninefold_jobs where kind = 'ninefold.file-expire'`.execute(
      world.server.database.db,
    );
    expect(Number(jobs.rows[0]?.n)).toBe(3);
  });

  it('refuses an executable named .pdf with 415 E_FILE_TYPE, leaving nothing', async () => {
    const world = await filesWorld(dialect);
    const response = await world.upload('ann', 'invoice.pdf', EXE, '?entity=Claim&field=receipt');
    expect(response.statusCode).toBe(415);
    const body = problem(response);
    expect(body.code).toBe('E_FILE_TYPE');
    expect(body.message).toContain('application/x-msdownload');
    expect(body.message).toContain('application/pdf, image/*');
    expect(world.stored()).toEqual({ keys: [], partial: [] });
    expect(await world.fileRows()).toBe(0);
  });

  it('aimed at no field, accepts what some writable file field accepts, and nothing else', async () => {
    const world = await filesWorld(dialect);
    // receipt takes PDF and images; photos only images: a PDF is fine for the union
    expect((await world.upload('ann', 'a.pdf', PDF)).statusCode).toBe(201);
    const text = await world.upload('ann', 'notes.txt', Buffer.from('just some text\n'));
    expect(text.statusCode).toBe(415);
    // named, the photos field refuses the PDF its neighbour takes
    const photo = await world.upload('ann', 'a.pdf', PDF, '?entity=Claim&field=photos');
    expect(problem(photo).code).toBe('E_FILE_TYPE');
  });

  it('refuses more than maxSize with 413 E_FILE_TOO_LARGE, leaving nothing', async () => {
    const world = await filesWorld(dialect);
    const big = Buffer.concat([PDF, Buffer.alloc(MiB)]);
    const response = await world.upload('ann', 'big.pdf', big, '?entity=Claim&field=receipt');
    expect(response.statusCode).toBe(413);
    const body = problem(response);
    expect(body.code).toBe('E_FILE_TOO_LARGE');
    expect(body.message).toContain('1,048,576');
    expect(world.stored()).toEqual({ keys: [], partial: [] });
    expect(await world.fileRows()).toBe(0);
    // exactly the limit is fine
    const exact = Buffer.concat([PDF, Buffer.alloc(MiB - PDF.length)]);
    expect((await world.upload('ann', 'exact.pdf', exact, '?entity=Claim&field=receipt')).statusCode).toBe(
      201,
    );
  });

  it('aimed at no field, the limit is the largest maxSize among the writable file fields', async () => {
    const world = await filesWorld(dialect);
    // photos has no maxSize: limits.maxUploadSize, 10 MiB, above receipt's 1 MiB
    const png = await image('png', 20, 20);
    const twoMiB = Buffer.concat([png, Buffer.alloc(2 * MiB)]);
    expect((await world.upload('ann', 'p.png', twoMiB)).statusCode).toBe(201);
    expect((await world.upload('ann', 'p.png', twoMiB, '?entity=Claim&field=receipt')).statusCode).toBe(413);
    const tooBig = Buffer.concat([png, Buffer.alloc(10 * MiB)]);
    expect(problem(await world.upload('ann', 'p.png', tooBig)).code).toBe('E_FILE_TOO_LARGE');
  });

  it('keeps hostile names as data: no path, no control characters, bounded', async () => {
    const world = await filesWorld(dialect);
    const long = `${'é'.repeat(1000)}.pdf`;
    const cases: [string, string][] = [
      ['../../etc/passwd', '../../etc/passwd'],
      ['a\u0000b\u0001c.pdf', 'abc.pdf'],
      ['tab\there\u0085\u007F.pdf', 'tabhere.pdf'],
      ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
      ['C:\\Windows\\win.ini', 'C:\\Windows\\win.ini'],
      [long, 'é'.repeat(255)],
      ['\u0000\u0001', 'file'],
      ['Cafe\u0301.pdf', 'Café.pdf'],
    ];
    for (const [given, kept] of cases) {
      const response = await world.upload('ann', given, PDF);
      expect(response.statusCode, `${JSON.stringify(given)}: ${response.body}`).toBe(201);
      expect(response.json<FileInfo>().name).toBe(kept);
    }
    // only ids in the store: no name became a path
    for (const key of world.stored().keys) expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(world.stored().keys).toHaveLength(cases.length);
  });

  it('answers a guest 401, and a user who may write no file field 403', async () => {
    const world = await filesWorld(dialect);
    expect(problem(await world.upload(null, 'a.pdf', PDF)).code).toBe('E_UNAUTHENTICATED');
    expect(problem(await world.upload('rea', 'a.pdf', PDF)).code).toBe('E_FORBIDDEN');
    expect(problem(await world.upload('aud', 'a.pdf', PDF)).code).toBe('E_FORBIDDEN');
    expect(problem(await world.upload('aud', 'a.pdf', PDF, '?entity=Claim&field=receipt')).code).toBe(
      'E_FORBIDDEN',
    );
    expect(world.stored().keys).toEqual([]);
  });

  it('refuses an upload without the CSRF header', async () => {
    const world = await filesWorld(dialect);
    const { payload, headers } = multipart([{ name: 'file', filename: 'a.pdf', bytes: PDF }]);
    const response = await world.server.app.inject({
      method: 'POST',
      url: '/api/files',
      payload,
      headers: { ...headers, cookie: world.cookies.ann },
    });
    expect(problem(response).code).toBe('E_CSRF');
    expect(world.stored().keys).toEqual([]);
  });

  it('refuses a field that is not a file field, or half a target, with 400', async () => {
    const world = await filesWorld(dialect);
    for (const query of [
      '?entity=Claim&field=title',
      '?entity=Nope&field=receipt',
      '?entity=Claim',
      '?field=receipt',
      '?entity=Claim&field=__proto__',
      '?entity=Claim&entity=Note&field=receipt',
    ]) {
      const response = await world.upload('ann', 'a.pdf', PDF, query);
      expect(response.statusCode, query).toBe(400);
      expect(problem(response).code).toBe('E_BAD_REQUEST');
    }
  });

  it('refuses no file part, two file parts, a wrongly named part and a body that is not multipart', async () => {
    const world = await filesWorld(dialect);
    const post = (payload: Buffer | object | string, headers: Record<string, string> = {}) =>
      world.request('ann', 'POST', '/api/files', { payload, headers });
    const bodies = [
      multipart([{ name: 'note', bytes: Buffer.from('hello') }]),
      multipart([
        { name: 'file', filename: 'a.pdf', bytes: PDF },
        { name: 'file', filename: 'b.pdf', bytes: PDF },
      ]),
      multipart([{ name: 'upload', filename: 'a.pdf', bytes: PDF }]),
    ];
    for (const { payload, headers } of bodies) {
      const response = await post(payload, headers);
      expect(response.statusCode, response.body).toBe(400);
      expect(problem(response).message).toContain('part named "file"');
    }
    const json = await post({ file: 'x' });
    expect(problem(json).code).toBe('E_BAD_REQUEST');
    const raw = await post(PDF, { 'content-type': 'application/pdf' });
    expect(problem(raw).code).toBe('E_BAD_REQUEST');
    const truncated = multipart([{ name: 'file', filename: 'a.pdf', bytes: PDF }]).payload.subarray(0, 150);
    const cut = await post(truncated, { 'content-type': `multipart/form-data; boundary=${'x'.repeat(3)}` });
    expect(problem(cut).code).toBe('E_BAD_REQUEST');
    const badBoundary = await post(PDF, { 'content-type': 'multipart/form-data' });
    expect(problem(badBoundary).code).toBe('E_BAD_REQUEST');
    expect(world.stored()).toEqual({ keys: [], partial: [] });
    expect(await world.fileRows()).toBe(0);
  });

  it('accepts multipart on the upload only: every other route still refuses it', async () => {
    const world = await filesWorld(dialect);
    const { payload, headers } = multipart([{ name: 'title', bytes: Buffer.from('Lunch') }]);
    const response = await world.request('ann', 'POST', '/api/claims', { payload, headers });
    expect(response.statusCode).toBe(400);
    expect(problem(response).message).toContain('must be JSON');
  });

  it('leaves nothing when the client goes away halfway through the body', async () => {
    const world = await filesWorld(dialect);
    await world.server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = world.server.app.server.address() as AddressInfo;
    const { payload, headers } = multipart([
      { name: 'file', filename: 'a.pdf', bytes: Buffer.concat([PDF, Buffer.alloc(600 * 1024, 7)]) },
    ]);
    const closed = new Promise<void>((resolve) => {
      const request = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/files',
        headers: { ...headers, ...CSRF, cookie: world.cookies.ann, 'content-length': String(payload.length) },
      });
      request.on('error', () => resolve());
      request.on('close', () => resolve());
      // half the body, then the connection is torn down
      request.write(payload.subarray(0, payload.length / 2), () => {
        setTimeout(() => request.destroy(), 100);
      });
    });
    await closed;
    // the server notices and cleans up
    await expect.poll(() => world.stored(), { timeout: 5000 }).toEqual({ keys: [], partial: [] });
    expect(await world.fileRows()).toBe(0);
    // it had begun to store the file
    expect(world.puts).toHaveLength(1);
    // and still serves
    expect((await world.upload('ann', 'a.pdf', PDF)).statusCode).toBe(201);
  });
});
