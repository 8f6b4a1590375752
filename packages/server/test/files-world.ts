/**
 * The world of the file tests (issue 18, decisions 0050 and 0053): a spec with a receipt (PDF or
 * image, at most 1 MiB) and a gallery of photos, its server over a disk store in a temporary
 * directory the tests look into, signed-in users of four roles, multipart bodies built byte by
 * byte (so that a hostile name reaches the server exactly as written), and small real files.
 *
 * `attach` attaches uploads to a record by a change, as its owner would.
 */
import { type FileInfo, type Model, UPLOAD_PART } from '@ninefold/model';
import { type LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll } from 'vitest';
import { diskFileStore } from '../src/files/disk-store.js';
import { type FileStore } from '../src/files/store.js';
import {
  CSRF,
  type TestDialect,
  type TestServer,
  checkedInject,
  givenUser,
  login,
  specModel,
  testServer,
} from '@ninefold/testkit';

export const FILES_SPEC = `
product: { name: Receipts, locale: en-GB }
entities:
  Claim:
    owner: claimant
    display: title
    fields:
      title: { type: string, required: true }
      claimant: { type: ref, to: User, default: user.id, readonly: true }
      receipt: { type: file, accept: [application/pdf, image/*], maxSize: 1MB }
      photos: { type: image, many: true }
      notes: { type: text }
  Note:
    fields:
      body: { type: string }
roles:
  employee:
    Claim: { read: all, create: true, update: own }
    Note: { read: true, create: true }
  auditor:
    Claim:
      read: all
      fields: { read: [title, claimant, photos] }
  reader:
    Claim: { read: "notes == 'public'" }
    Note: { read: true, create: true }
`;

/** The world's model: FILES_SPEC compiled. */
export function filesModel(): Model {
  return specModel(FILES_SPEC);
}

/** The users of the world and their roles. */
export const USERS = {
  ann: ['employee'],
  bob: ['employee'],
  aud: ['auditor'],
  rea: ['reader'],
} as const;

type Name = keyof typeof USERS;

export interface FilesWorld {
  readonly server: TestServer;
  readonly model: Model;
  /** Where the store keeps the bytes: `<root>/<two characters>/<key>`, and `<root>/tmp`. */
  readonly root: string;
  readonly ids: Record<Name, string>;
  readonly cookies: Record<Name, string>;
  /** Uploads `bytes` as `name` as a user (or a guest), the body built by `multipart`. */
  upload(as: Name | null, name: string, bytes: Buffer, query?: string): Promise<LightMyRequestResponse>;
  /** Sends a request as a user (or a guest), with the CSRF header; checked against the OpenAPI document. */
  request(
    as: Name | null,
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    options?: { payload?: string | Buffer | object; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  /** The keys in the store, and the files left in its temporary directory. */
  stored(): { keys: string[]; partial: string[] };
  /** Every key the store was asked to write, in order. */
  readonly puts: string[];
  /** The rows of `ninefold_files`. */
  fileRows(): Promise<number>;
}

const FILES_PATH = '/api/files';

/**
 * The world on a dialect, its files on the disk under `root` unless another store is given.
 *
 * @example const world = await filesWorld('sqlite');
 */
export async function filesWorld(
  dialect: TestDialect,
  model = filesModel(),
  store?: FileStore,
): Promise<FilesWorld> {
  const root = mkdtempSync(join(tmpdir(), 'ninefold-files-test-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  // another store (S3) when given one: then `root` and `stored()` see nothing of it
  const disk = store ?? diskFileStore(root);
  const puts: string[] = [];
  const files: FileStore = {
    ...disk,
    put: (key, body) => {
      puts.push(key);
      return disk.put(key, body);
    },
  };
  const server = await testServer(dialect, model, { files });
  const ids = {} as Record<Name, string>;
  const cookies = {} as Record<Name, string>;
  for (const [name, roles] of Object.entries(USERS) as [Name, readonly string[]][]) {
    const user = await givenUser(server, `${name}@example.com`, roles);
    const { cookie } = await login(server.app, `${name}@example.com`);
    if (cookie === undefined) throw new Error(`${name} could not sign in`);
    ids[name] = user.id;
    cookies[name] = cookie;
  }
  const request: FilesWorld['request'] = (as, method, url, options = {}) =>
    checkedInject(server.app, model, {
      method,
      url,
      headers: { ...CSRF, ...(as === null ? {} : { cookie: cookies[as] }), ...options.headers },
      ...(options.payload === undefined ? {} : { payload: options.payload }),
    });
  return {
    server,
    model,
    root,
    ids,
    cookies,
    upload(as, name, bytes, query = '') {
      const body = multipart([{ name: UPLOAD_PART, filename: name, bytes }]);
      return request(as, 'POST', `${FILES_PATH}${query}`, body);
    },
    request,
    puts,
    stored() {
      const keys: string[] = [];
      let partial: string[] = [];
      for (const shard of readdirSync(root)) {
        if (shard === 'tmp') partial = readdirSync(join(root, shard));
        else keys.push(...readdirSync(join(root, shard)));
      }
      return { keys, partial };
    },
    async fileRows() {
      const r = await sql<{ n: unknown }>`select count(*) as n from ninefold_files`.execute(
        server.database.db,
      );
      return Number(r.rows[0]?.n);
    },
  };
}

/** One part of a multipart body. */
export interface Part {
  readonly name: string;
  /** A file part's name, written into the header as it is (quotes and all). */
  readonly filename?: string;
  readonly bytes: Buffer;
  readonly type?: string;
}

export const BOUNDARY = '----ninefold-test-boundary-7MA4YWxkTrZu0gW';

/**
 * A multipart/form-data body and its headers, built by hand.
 *
 * @example await app.inject({ method: 'POST', url, ...multipart([{ name: 'file', filename: 'a.pdf', bytes }]) })
 */
export function multipart(parts: readonly Part[]): {
  payload: Buffer;
  headers: Record<string, string>;
} {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    // a quote or a backslash escaped in the quoted string, as RFC 2616's quoted-pair
    const filename =
      part.filename === undefined ? '' : `; filename="${part.filename.replace(/["\\]/g, '\\$&')}"`;
    chunks.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"${filename}\r\n` +
          `Content-Type: ${part.type ?? 'application/octet-stream'}\r\n\r\n`,
        'utf8',
      ),
      part.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
}

/**
 * Attaches files to a record's field as its owner would: a change naming their ids, at the record's
 * current version. Throws when the write is refused.
 *
 * @example await attach(world, 'ann', 'Claim', claimId, 'receipt', info);
 */
export async function attach(
  world: FilesWorld,
  as: Name,
  entity: string,
  recordId: string,
  field: string,
  files: FileInfo | readonly FileInfo[],
): Promise<void> {
  const url = `/api/${world.model.entities[entity]!.resource}/${recordId}`;
  const current = await world.request(as, 'GET', url);
  const value = Array.isArray(files)
    ? (files as readonly FileInfo[]).map((f) => f.id)
    : (files as FileInfo).id;
  const changed = await world.request(as, 'PATCH', url, {
    payload: { [field]: value },
    headers: { 'if-match': String(current.headers.etag) },
  });
  if (changed.statusCode !== 200) throw new Error(`attaching to ${field} failed: ${changed.body}`);
}

/** A small real PDF. */
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n' +
    'trailer<</Root 1 0 R>>\n%%EOF\n',
);

/** A Windows executable's first bytes: the MZ header and its PE stub. */
export const EXE = Buffer.concat([
  Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00', 'latin1'),
  Buffer.alloc(44),
  Buffer.from([0x80, 0, 0, 0]),
  Buffer.alloc(64),
  Buffer.from('PE\x00\x00L\x01', 'latin1'),
  Buffer.alloc(512),
]);

/**
 * A real image of `width` × `height`.
 *
 * @example const png = await image('png', 200, 100);
 */
export async function image(format: 'png' | 'jpeg', width: number, height: number): Promise<Buffer> {
  const blank = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } });
  return (format === 'png' ? blank.png() : blank.jpeg()).toBuffer();
}
