/**
 * The SQL of a list of refs (`many: true`), whose ids are rows of a join table (decision 0044):
 * `x in members`, `size(members)` and `has(self.members)` as subqueries over it, for sql.ts.
 *
 * A record whose list is empty carries no value (null), as it reads on the wire, so these follow
 * CEL over null: `x in members` and `size(members)` are errors there (NULL here), `has()` is false.
 */

/** The columns of every join table: the holder's id, the listed record's id, its place in the list. */
export const JOIN_COLUMNS = { holder: 'holder', target: 'target', position: 'position' } as const;

/** A list field's join table and the SQL of its holder's id in the outer query. */
export interface JoinListSql {
  /** The join table's name. */
  readonly table: string;
  /** The outer row's id column, quoted (and qualified when the query names its table). */
  readonly holderId: string;
}

function quote(id: string): string {
  return `"${id.replace(/"/g, '""')}"`;
}

function rowsOf(list: JoinListSql): string {
  const t = quote(list.table);
  return `FROM ${t} WHERE ${t}.${quote(JOIN_COLUMNS.holder)} = ${list.holderId}`;
}

/**
 * Whether the row's list is not empty.
 *
 * @example listNotEmpty({ table: 'projects__members', holderId: '"id"' })
 * // 'EXISTS (SELECT 1 FROM "projects__members" WHERE "projects__members"."holder" = "id")'
 */
export function listNotEmpty(list: JoinListSql): string {
  return `EXISTS (SELECT 1 ${rowsOf(list)})`;
}

/**
 * Whether the row's list holds `item` (SQL with its own placeholders). `strict` keeps CEL's
 * error (NULL) for an empty list or a NULL item; a condition reached through AND and OR alone may
 * leave it out, where NULL and FALSE exclude the row alike.
 */
export function listHolds(
  list: JoinListSql,
  item: string,
  strict: { itemMayBeNull: boolean } | null,
): string {
  const t = quote(list.table);
  const holds = `EXISTS (SELECT 1 ${rowsOf(list)} AND ${t}.${quote(JOIN_COLUMNS.target)} = ${item})`;
  if (strict === null) return holds;
  const itemNull = strict.itemMayBeNull ? ` WHEN ${item} IS NULL THEN NULL` : '';
  return `(CASE WHEN NOT ${listNotEmpty(list)} THEN NULL${itemNull} ELSE ${holds} END)`;
}

/** How many ids the row's list holds; NULL for an empty list (no value). */
export function listSize(list: JoinListSql): string {
  return `(SELECT NULLIF(COUNT(*), 0) ${rowsOf(list)})`;
}

/** How many ids the row's list holds, 0 for none: the key of `sort=members` (decision 0044). */
export function listCount(list: JoinListSql): string {
  return `(SELECT COUNT(*) ${rowsOf(list)})`;
}
