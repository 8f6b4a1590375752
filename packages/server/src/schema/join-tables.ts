/**
 * Moving a field's ids into its new join table (decision 0044): the `fill-join-table` step of a
 * migration, when a JSON list of refs (the storage before 0044) or a single ref becomes a list of refs.
 */
import { type Kysely } from 'kysely';
import { type Column, type Table } from './schema.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables come from the spec at run time
type Db = Kysely<any>;

/** Rows inserted per statement: well under SQLite's 32,766 bound parameters. */
const CHUNK = 500;

/**
 * Copies every row's ids from the holder's column into the join table, in list order (the first
 * of a repeated id keeps its place), then drops the column. An id that names no record stops the
 * migration with the rows that hold it, like any other migration that would lose data: nothing is
 * silently left out.
 */
export async function fillJoinTable(tx: Db, table: Table, from: Column): Promise<void> {
  const join = table.join;
  if (join === undefined) throw new Error(`${table.name} is not a join table`);
  const rows = (await tx
    .selectFrom(join.holder)
    .select(['id', from.name])
    .where(from.name, 'is not', null)
    .orderBy('id')
    .execute()) as { id: string; [column: string]: unknown }[];
  const links: { holder: string; target: string; position: number }[] = [];
  for (const row of rows) {
    ids(row[from.name]).forEach((target, position) => links.push({ holder: row.id, target, position }));
  }
  const targets = [...new Set(links.map((l) => l.target))];
  const existing = new Set<string>();
  for (let i = 0; i < targets.length; i += CHUNK) {
    const found = (await tx
      .selectFrom(join.target)
      .select('id')
      .where('id', 'in', targets.slice(i, i + CHUNK))
      .execute()) as { id: string }[];
    for (const { id } of found) existing.add(id);
  }
  const dangling = links.filter((l) => !existing.has(l.target));
  if (dangling.length > 0) {
    const named = dangling
      .slice(0, 10)
      .map((l) => `${join.holder} ${l.holder} lists ${l.target}`)
      .join('; ');
    throw new Error(
      `${join.holder}.${join.field} lists records that do not exist, so its lists cannot move into ${table.name}: ${named}${dangling.length > 10 ? ` (and ${dangling.length - 10} more)` : ''}. Correct or remove them, then start again.`,
    );
  }
  for (let i = 0; i < links.length; i += CHUNK) {
    await tx
      .insertInto(table.name)
      .values(links.slice(i, i + CHUNK))
      .execute();
  }
  await tx.schema.alterTable(join.holder).dropColumn(from.name).execute();
}

/** The ids a stored value holds, in order, each once: a JSON list's, or a single id's. */
function ids(raw: unknown): string[] {
  if (typeof raw !== 'string' || raw === '') return [];
  let value: unknown = raw;
  if (raw.startsWith('[')) {
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      return [raw];
    }
  }
  const list = Array.isArray(value) ? value : [value];
  return [...new Set(list.filter((v): v is string => typeof v === 'string' && v !== ''))];
}
