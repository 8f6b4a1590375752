/**
 * The rows of `ninefold_files` as the upload and the download need them: a file inserted once its
 * bytes are stored, and a file found by id. What a record holds is written by the records' write
 * path (`holdings.ts`); this module neither attaches nor detaches.
 */
import { type FileInfo } from '@ninefold/model';
import { type Kysely, type Transaction } from 'kysely';
import { isRecordId } from '../ids.js';
import { TABLES } from '../schema/names.js';
import { scheduleFileExpiry } from './lifecycle.js';
import { type FileStore } from './store.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the server's own table, outside the spec's schema
type Db = Transaction<any> | Kysely<any>;

/** A file as its row holds it. */
export interface FileRow extends FileInfo {
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
 * @example await insertFile(trx, { id, name, size, type, uploadedBy: user.id, uploadedAt: now });
 */
export async function insertFile(
  db: Db,
  file: FileInfo & { readonly uploadedBy: string; readonly uploadedAt: Date },
): Promise<void> {
  await db
    .insertInto(TABLES.files)
    .values({
      id: file.id,
      name: file.name,
      size: file.size,
      type: file.type,
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
 * Records a file whose bytes are in the store: its row, unattached, and its expiry, in one
 * transaction. If that fails, its bytes are removed (no row would ever name them) and the error
 * thrown. The upload route and the demo's sample files both come through here.
 *
 * @example await recordUpload(database.db, files, { id, name, size, type }, user.id, now);
 */
export async function recordUpload(
  db: Kysely<any>, // eslint-disable-line @typescript-eslint/no-explicit-any -- the server's own table
  store: FileStore,
  file: FileInfo,
  uploadedBy: string,
  at: Date,
): Promise<void> {
  try {
    await db.transaction().execute(async (trx) => {
      await insertFile(trx, { ...file, uploadedBy, uploadedAt: at });
      await scheduleFileExpiry(trx, file.id, at);
    });
  } catch (error) {
    await store.delete(file.id);
    throw error;
  }
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
    uploadedBy: String(row['uploaded_by']),
    uploadedAt: String(row['uploaded_at']),
    holder:
      typeof entity === 'string' && typeof recordId === 'string' && typeof field === 'string'
        ? { entity, recordId, field }
        : null,
  };
}
