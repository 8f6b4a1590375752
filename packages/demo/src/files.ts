/**
 * The files of demo records (decision 0054): a file or image field that needs a value (required,
 * or a rule asks for one, like "a receipt above the threshold") is given one of the sample files
 * (`sampleFiles`: a one-page PDF, a small PNG). The values generator chooses among their
 * `FileInfo`s, which carry a sample's id; before the record is written, each chosen sample is
 * uploaded as the demo user who writes it, as a person's upload would be, and the record names
 * that upload. Each record gets files of its own: a file has one holder.
 */
import { type Entity, type FileInfo, type Value, isFileInfo } from '@ninefold/model';
import { type Database, type FileStore, type SampleFile, sampleFiles, storeUpload } from '@ninefold/server';

/** The sample files demo records may hold, and how a record's chosen samples become uploads. */
export interface DemoFiles {
  /** One `FileInfo` per sample, its id the sample's own (never a stored file's). */
  readonly samples: readonly FileInfo[];
  /** The input with each sample it names replaced by a fresh upload of `userId`'s. */
  uploaded(
    entity: Entity,
    input: Readonly<Record<string, Value>>,
    userId: string,
  ): Promise<Record<string, Value>>;
}

const SAMPLE_ID = 'demo-sample-';

/**
 * The demo's files, stored in `store` with their rows in `database`.
 *
 * @example const files = await demoFiles(database, store); generateRecord(…, { files: files.samples });
 */
export async function demoFiles(
  database: Database,
  store: FileStore,
  now = () => new Date(),
): Promise<DemoFiles> {
  const made = await sampleFiles();
  const byId = new Map<string, SampleFile>(made.map((file, i) => [`${SAMPLE_ID}${i}`, file]));
  const samples = [...byId].map(([id, file]) => ({
    id,
    name: file.name,
    size: file.bytes.byteLength,
    type: file.type,
  }));
  const upload = async (entity: Entity, field: string, value: Value, userId: string): Promise<Value> => {
    const sample = isFileInfo(value) ? byId.get(value.id) : undefined;
    if (sample === undefined) return value;
    const label = (entity.fields[field]?.label ?? field).toLowerCase().replace(/[^a-z0-9]+/g, '-');
    const name = `${label}.${sample.name.split('.').pop() ?? 'bin'}`;
    const file = await storeUpload(database.db, store, { ...sample, name }, userId, now());
    return file.id;
  };
  return {
    samples,
    async uploaded(entity, input, userId) {
      const out: Record<string, Value> = { ...input };
      for (const [field, value] of Object.entries(input)) {
        if (Array.isArray(value)) {
          const items: Value[] = [];
          for (const item of value as readonly Value[]) items.push(await upload(entity, field, item, userId));
          out[field] = items;
        } else out[field] = await upload(entity, field, value, userId);
      }
      return out;
    },
  };
}
