/**
 * The rows of `ninefold_files` as the upload and the download need them: a file inserted once its
 * bytes are stored, and a file found by id. What a record holds is written by the records' write
 * path (`holdings.ts`); this module neither attaches nor detaches.
 */
import { type FileInfo } from '@ninefold/model';
import { type Kysely, type Transaction } from 'kysely';
import { isRecordId } from '../ids.js';
import { TABLES } from '../schema/names.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the server's own table, outside the spec's schema
type Db = Transaction<any> | Kysely<any>;

/** A file as its row holds it. */
export interface FileRow extends FileInfo {
  /** The SHA-256 of its bytes, in hex. */
  readonly sha256: string;
  readonly uploadedBy: string;
  readonly uploadedAt: string;
  /** Who holds it: null until a write attaches it. */
  readonly holder: FileHolder | null;
}

/** The record field that holds a file. */
export interface FileHolder {
  readonly entity: string;
  readonly recordId: string;
  readonly field: string;
}

/**
 * Inserts the row of a file just stored, unattached.
 *
 * @example await insertFile(trx, { id, name, size, type, sha256, uploadedBy: user.id, uploadedAt: now });
 */
export async function insertFile(
  db: Db,
  file: FileInfo & { readonly sha256: string; readonly uploadedBy: string; readonly uploadedAt: Date },
): Promise<void> {
  await db
    .insertInto(TABLES.files)
    .values({
      id: file.id,
      name: file.name,
      size: file.size,
      type: file.type,
      sha256: file.sha256,
      uploaded_by: file.uploadedBy,
      uploaded_at: file.uploadedAt.toISOString(),
      entity: null,
      record_id: null,
      field: null,
      attached_at: null,
    })
    .execute();
}

/**
 * The file of an id, or null when there is none (an id not of `newId`'s shape names none).
 *
 * @example const file = await findFile(database.db, id);
 */
export async function findFile(db: Db, id: string): Promise<FileRow | null> {
  if (!isRecordId(id)) return null;
  const row = (await db.selectFrom(TABLES.files).selectAll().where('id', '=', id).executeTakeFirst()) as
    Record<string, unknown> | undefined;
  if (row === undefined) return null;
  const entity = row['entity'];
  const recordId = row['record_id'];
  const field = row['field'];
  return {
    id: String(row['id']),
    name: String(row['name']),
    size: Number(row['size']),
    type: String(row['type']),
    sha256: String(row['sha256']),
    uploadedBy: String(row['uploaded_by']),
    uploadedAt: String(row['uploaded_at']),
    holder:
      typeof entity === 'string' && typeof recordId === 'string' && typeof field === 'string'
        ? { entity, recordId, field }
        : null,
  };
}
