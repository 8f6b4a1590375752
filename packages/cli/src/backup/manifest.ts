/**
 * What a backup archive holds (decision 0052), written as its last entry `manifest.json`: the
 * format and its version, the spec's product, when, what database is inside (a SQLite snapshot, or
 * none when PostgreSQL is backed up with `pg_dump`), the counts, and the size and SHA-256 of every
 * other entry. A restore reads it first and believes nothing the archive holds until every entry
 * matches it.
 */

export const BACKUP_FORMAT = 'ninefold-backup';
/** The version this Ninefold writes and reads; a newer one is refused, never half understood. */
export const BACKUP_VERSION = 1;
export const MANIFEST_ENTRY = 'manifest.json';
export const DATABASE_ENTRY = 'database/ninefold.sqlite';
/** Each file under its key: `files/<id>`. */
export const FILES_FOLDER = 'files/';

/** One entry of the archive with its checksum. */
export interface ManifestEntry {
  readonly path: string;
  readonly size: number;
  readonly sha256: string;
}

export interface Manifest {
  readonly format: typeof BACKUP_FORMAT;
  readonly version: number;
  /** The product's name and the spec file it was backed up with. */
  readonly spec: { readonly name: string; readonly file: string };
  readonly createdAt: string;
  /** `sqlite` with the snapshot in `DATABASE_ENTRY`, or `postgresql` with none (`pg_dump`'s). */
  readonly database: 'sqlite' | 'postgresql';
  readonly counts: { readonly files: number; readonly bytes: number; readonly missingFiles: number };
  /** Files the database names whose bytes were gone from the store when the backup read them. */
  readonly missingFiles: readonly string[];
  readonly entries: readonly ManifestEntry[];
}

/** An archive that is not a backup Ninefold can restore: the message says why. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Reads a manifest's text, refusing anything but a manifest of a version this Ninefold knows.
 *
 * @example parseManifest(text).entries.length // 13
 */
export function parseManifest(text: string): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BackupError('its manifest is not JSON');
  }
  const m = value as Partial<Record<keyof Manifest, unknown>>;
  if (typeof value !== 'object' || value === null || m.format !== BACKUP_FORMAT)
    throw new BackupError('it is not a Ninefold backup (its manifest names no ninefold-backup format)');
  if (m.version !== BACKUP_VERSION)
    throw new BackupError(
      `it is a backup of format version ${String(m.version)}; this Ninefold reads version ${BACKUP_VERSION}`,
    );
  const entries = m.entries;
  const spec = m.spec as { name?: unknown; file?: unknown } | undefined;
  const counts = m.counts as Record<string, unknown> | undefined;
  const wellFormed =
    Array.isArray(entries) &&
    entries.every(isEntry) &&
    typeof spec?.name === 'string' &&
    typeof spec.file === 'string' &&
    typeof m.createdAt === 'string' &&
    (m.database === 'sqlite' || m.database === 'postgresql') &&
    Array.isArray(m.missingFiles) &&
    m.missingFiles.every((id) => typeof id === 'string') &&
    typeof counts?.['files'] === 'number' &&
    typeof counts['bytes'] === 'number' &&
    typeof counts['missingFiles'] === 'number';
  if (!wellFormed) throw new BackupError('its manifest is damaged (a field is missing or of the wrong kind)');
  return value as Manifest;
}

function isEntry(value: unknown): value is ManifestEntry {
  const e = value as Partial<ManifestEntry> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.path === 'string' &&
    Number.isSafeInteger(e.size) &&
    (e.size ?? -1) >= 0 &&
    typeof e.sha256 === 'string' &&
    SHA256.test(e.sha256)
  );
}
